// English: the receiving station's words.
import type { Catalogue } from "../catalogue.ts";

const scans = (n: number) => (n === 1 ? "1 scan" : `${n} scans`);
const items = (n: number) => (n === 1 ? "1 item" : `${n} items`);

export const station: Pick<Catalogue, "station"> = {
  station: {
    title: "Receiving",
    loading: "Loading…",
    signIn: "Sign in",
    signInAbout: "Sign in with the email and password your supervisor gave you.",
    email: "Email",
    password: "Password",
    newPasswordTitle: "Choose a new password",
    newPasswordAbout: "Your password was reset. Choose a new one of at least 10 characters.",
    currentPassword: "Password you were given",
    newPassword: "New password",
    saveNewPassword: "Save and continue",
    sessionEnded: (n) =>
      n > 0
        ? `You were signed out. Sign in again: your ${scans(n)} not sent yet are kept and will be sent then.`
        : "You were signed out. Sign in again to go on.",
    roles: { receiver: "Receiver", supervisor: "Supervisor" },
    online: "Connected",
    offline: "No connection: scans are kept on this device",
    unsent: (n) => `${scans(n)} not sent yet`,
    signOut: "Sign out",

    todayTitle: "Today's deliveries",
    todayList: "Expected today",
    openForm: "Open a delivery",
    openField: "Scan the label or type the reference",
    open: "Open",
    notFound: (code) => `No delivery has the code “${code}”. Check it and try again, or ask a supervisor.`,
    whichShipment: "Several deliveries have this reference. Which one is it?",
    nothingToday: "No deliveries are expected today.",
    lineCount: (lines, n) => `${lines === 1 ? "1 product" : `${lines} products`}, ${items(n)}`,
    arrived: "Arrived",
    openShipment: "Start counting",

    cameraOn: "Scan with the camera",
    cameraOff: "Stop the camera",
    cameraFailed: "The camera could not be started. Use the scanner or type the code.",
    cameraView: "Camera view",

    closedNow: "This delivery is finished or cancelled. New scans will not be counted: ask a supervisor to reopen it.",
    deletedNow:
      "The shop removed this delivery. New scans will not be counted: put the goods aside and tell a supervisor.",
    scanForm: "Scan",
    quantity: "Items in this scan (a carton: type how many)",
    scanField: "Scan a barcode, or type a product's name or code",
    count: "Count",
    counted: (p, added, now, expected) => `${p}: +${added}, now ${now} of ${expected}`,
    countedExtra: (p, added, now) => `${p}: +${added}, now ${now} (not on the delivery note)`,
    linesTitle: "Products",
    notOnNotice: "not on the delivery note",
    ofExpected: (c, e) => `${c} of ${e}`,
    notSentYet: (n) => `${n} not sent yet`,
    finish: "Finish receiving",
    back: "Back to today's deliveries",

    overTitle: "More than expected",
    overText: (p, would, e) => `This makes ${would} of ${p}, but ${e} were expected. Count them anyway?`,
    countAnyway: "Yes, count them",
    dontCount: "Don't count",
    whichProduct: "Which product is it?",
    sameGtin: "This barcode is on more than one product of this delivery. Choose the one in your hand.",
    byName: "These products match what you typed. Choose the one in your hand.",
    noMatchTitle: "Nothing found",
    badGtin: "The barcode was not read correctly. Scan it again.",
    noMatch: (code) => `Nothing in this delivery matches “${code}”. Check it, or type the product's name or code.`,
    ok: "OK",
    notOnNoticeTitle: "Not on the delivery note",
    notOnNoticeText: (gtin) =>
      `The barcode ${gtin} is not on this delivery's note. If it is one of the products below, choose it. Otherwise record it as a product that was not on the note.`,
    supplierSku: "Product code on the carton (scan or type)",
    productName: "Product name",
    newProductMissing: "Enter the product code and the name.",
    recordNew: "Record as not on the note",
    orPick: "Or choose the product",

    refusedTitle: "Scans that were not counted",
    refusal: {
      removed:
        "The shop removed this delivery, so these scans cannot be counted. Put the goods aside and tell a supervisor.",
      closed:
        "This delivery was finished or cancelled meanwhile, on another device or by a supervisor. Ask a supervisor to reopen it, then send these scans again.",
      reused: "These scans clash with scans sent before from this device. Discard them and scan the items again.",
      forbidden: "You may not count this delivery. Ask a supervisor.",
      rejected: "The service did not accept these scans. Discard them and scan the items again.",
    },
    stale:
      "These scans are more than a day old and may have been counted already. Check the counts: send them only if they are missing.",
    sendAgain: "Send again",
    discard: "Discard",

    finishTitle: (ref) => `Finish ${ref}`,
    finishUnsent: (n) =>
      `${scans(n)} of this delivery not sent yet. You can finish when they have been sent: check the connection and wait a moment.`,
    differencesTitle: "Compared with the delivery note",
    noDifferences: "Everything on the note arrived, nothing more.",
    difference: (p, c, e) =>
      e === 0
        ? `${p}: ${items(c)} that ${c === 1 ? "was" : "were"} not on the note`
        : c < e
          ? `${p}: ${e - c} fewer than expected (${c} of ${e})`
          : `${p}: ${c - e} more than expected (${c} of ${e})`,
    supervisorFinishes: "Only a supervisor can finish a delivery with differences. Ask a supervisor.",
    finishNow: "Finish",
    finishWithDifferences: "Finish with these differences",
    backToScanning: "Back to counting",
    finishedClean: "Finished. The shop is told that everything arrived.",
    finishedWithDifferences: "Finished with differences. The shop is told and settles them.",
    finishedAccepted: "Finished. The differences stay recorded as they are.",
    backToToday: "Back to today's deliveries",
  },
};
