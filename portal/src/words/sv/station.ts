// Svenska: mottagningsstationens ord.
import type { Catalogue } from "../catalogue.ts";

const scans = (n: number) => (n === 1 ? "1 skanning" : `${n} skanningar`);
const items = (n: number) => (n === 1 ? "1 st." : `${n} st.`);

export const station: Pick<Catalogue, "station"> = {
  station: {
    title: "Mottagning",
    loading: "Laddar…",
    signIn: "Logga in",
    signInAbout: "Logga in med den e-postadress och det lösenord som din arbetsledare gav dig.",
    email: "E-post",
    password: "Lösenord",
    newPasswordTitle: "Välj ett nytt lösenord",
    newPasswordAbout: "Ditt lösenord har återställts. Välj ett nytt med minst 10 tecken.",
    currentPassword: "Lösenordet du fick",
    newPassword: "Nytt lösenord",
    saveNewPassword: "Spara och fortsätt",
    sessionEnded: (n) =>
      n > 0
        ? `Du loggades ut. Logga in igen: dina ${scans(n)} som inte skickats än finns kvar och skickas då.`
        : "Du loggades ut. Logga in igen för att fortsätta.",
    roles: { receiver: "Mottagare", supervisor: "Arbetsledare" },
    online: "Ansluten",
    offline: "Ingen anslutning: skanningarna sparas på den här enheten",
    unsent: (n) => `${scans(n)} inte skickade än`,
    signOut: "Logga ut",

    todayTitle: "Dagens leveranser",
    todayList: "Väntas i dag",
    openForm: "Öppna en leverans",
    openField: "Skanna etiketten eller skriv referensen",
    open: "Öppna",
    notFound: (code) =>
      `Ingen leverans har koden ”${code}”. Kontrollera den och försök igen, eller fråga en arbetsledare.`,
    whichShipment: "Flera leveranser har den här referensen. Vilken är det?",
    nothingToday: "Inga leveranser väntas i dag.",
    lineCount: (lines, n) => `${lines === 1 ? "1 produkt" : `${lines} produkter`}, ${items(n)}`,
    arrived: "Anlänt",
    openShipment: "Börja räkna",

    cameraOn: "Skanna med kameran",
    cameraOff: "Stäng kameran",
    cameraFailed: "Kameran kunde inte startas. Använd skannern eller skriv koden.",
    cameraView: "Kamerabild",

    closedNow:
      "Leveransen är avslutad eller avbruten. Nya skanningar räknas inte: be en arbetsledare att öppna den igen.",
    deletedNow:
      "Butiken tog bort leveransen. Nya skanningar räknas inte: ställ varorna åt sidan och säg till en arbetsledare.",
    scanForm: "Skanning",
    quantity: "Antal i den här skanningen (en kartong: skriv antalet)",
    scanField: "Skanna en streckkod, eller skriv produktens namn eller kod",
    count: "Räkna",
    counted: (p, added, now, expected) => `${p}: +${added}, nu ${now} av ${expected}`,
    countedExtra: (p, added, now) => `${p}: +${added}, nu ${now} (inte på följesedeln)`,
    linesTitle: "Produkter",
    notOnNotice: "inte på följesedeln",
    ofExpected: (c, e) => `${c} av ${e}`,
    notSentYet: (n) => `${n} inte skickade än`,
    finish: "Avsluta mottagningen",
    back: "Tillbaka till dagens leveranser",

    overTitle: "Fler än väntat",
    overText: (p, would, e) => `Det blir nu ${would} av ${p}, men ${e} väntades. Räkna dem ändå?`,
    countAnyway: "Ja, räkna dem",
    dontCount: "Räkna inte",
    whichProduct: "Vilken produkt är det?",
    sameGtin: "Streckkoden finns på flera produkter i leveransen. Välj den du har i handen.",
    byName: "De här produkterna motsvarar det du skrev. Välj den du har i handen.",
    noMatchTitle: "Inget hittades",
    badGtin: "Streckkoden lästes inte rätt. Skanna den igen.",
    noMatch: (code) =>
      `Inget i leveransen motsvarar ”${code}”. Kontrollera det, eller skriv produktens namn eller kod.`,
    ok: "OK",
    notOnNoticeTitle: "Inte på följesedeln",
    notOnNoticeText: (gtin) =>
      `Streckkoden ${gtin} finns inte på leveransens följesedel. Om det är någon av produkterna nedan, välj den. Annars registrera den som en produkt som inte fanns på följesedeln.`,
    supplierSku: "Produktkod på kartongen (skanna eller skriv)",
    productName: "Produktens namn",
    newProductMissing: "Skriv produktkoden och namnet.",
    recordNew: "Registrera som inte på följesedeln",
    orPick: "Eller välj produkten",

    refusedTitle: "Skanningar som inte räknades",
    refusal: {
      removed:
        "Butiken tog bort leveransen, så skanningarna kan inte räknas. Ställ varorna åt sidan och säg till en arbetsledare.",
      closed:
        "Leveransen avslutades eller avbröts under tiden, på en annan enhet eller av en arbetsledare. Be en arbetsledare att öppna den igen och skicka sedan skanningarna igen.",
      reused:
        "Skanningarna krockar med skanningar som skickats tidigare från den här enheten. Kasta dem och skanna varorna igen.",
      forbidden: "Du får inte räkna den här leveransen. Fråga en arbetsledare.",
      rejected: "Tjänsten tog inte emot skanningarna. Kasta dem och skanna varorna igen.",
    },
    stale:
      "Skanningarna är över ett dygn gamla och kan redan ha räknats. Kontrollera antalen: skicka dem bara om de saknas.",
    sendAgain: "Skicka igen",
    discard: "Kasta",

    finishTitle: (ref) => `Avsluta ${ref}`,
    finishUnsent: (n) =>
      `${scans(n)} av leveransen har inte skickats än. Du kan avsluta när de har skickats: kontrollera anslutningen och vänta en stund.`,
    differencesTitle: "Jämfört med följesedeln",
    noDifferences: "Allt på följesedeln kom, inget mer.",
    difference: (p, c, e) =>
      e === 0
        ? `${p}: ${items(c)} som inte fanns på följesedeln`
        : c < e
          ? `${p}: ${e - c} färre än väntat (${c} av ${e})`
          : `${p}: ${c - e} fler än väntat (${c} av ${e})`,
    supervisorFinishes: "Bara en arbetsledare kan avsluta en leverans med avvikelser. Fråga en arbetsledare.",
    finishNow: "Avsluta",
    finishWithDifferences: "Avsluta med avvikelserna",
    backToScanning: "Tillbaka till räkningen",
    finishedClean: "Avslutad. Butiken får veta att allt kom.",
    finishedWithDifferences: "Avslutad med avvikelser. Butiken får veta det och reder ut dem.",
    finishedAccepted: "Avslutad. Avvikelserna står kvar som de är registrerade.",
    backToToday: "Tillbaka till dagens leveranser",
  },
};
