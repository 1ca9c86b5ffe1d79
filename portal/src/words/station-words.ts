// The receiving station's words (portal/src/station): for warehouse staff at the dock, short and plain, each
// refusal with what to do. One record per language (en/fi/sv station.ts), checked against this shape.
import type { WarehouseUserRole } from "../../../generated/api.ts";

/** A refused batch of scans: the shipment removed by the merchant, closed meanwhile, a reused key, not allowed, or
 * input the service would not take. */
export type RefusalKind = "removed" | "closed" | "reused" | "forbidden" | "rejected";

export interface StationWords {
  title: string;
  loading: string;
  signIn: string;
  signInAbout: string;
  email: string;
  password: string;
  newPasswordTitle: string;
  newPasswordAbout: string;
  currentPassword: string;
  newPassword: string;
  saveNewPassword: string;
  /** The session ended while the station was in use; `waiting` scans are kept for the same person. */
  sessionEnded: (waiting: number) => string;
  roles: Record<WarehouseUserRole, string>;
  online: string;
  offline: string;
  /** Scans kept in this browser, not sent yet. */
  unsent: (n: number) => string;
  signOut: string;

  todayTitle: string;
  todayList: string;
  openForm: string;
  openField: string;
  open: string;
  notFound: (code: string) => string;
  whichShipment: string;
  nothingToday: string;
  lineCount: (lines: number, items: number) => string;
  arrived: string;
  openShipment: string;

  cameraOn: string;
  cameraOff: string;
  cameraFailed: string;
  cameraView: string;

  closedNow: string;
  deletedNow: string;
  scanForm: string;
  quantity: string;
  scanField: string;
  count: string;
  /** After a scan: the product, how many this scan added, and counted/expected now. */
  counted: (product: string, added: number, now: number, expected: number) => string;
  /** The same for a product that was not on the notice (nothing was expected). */
  countedExtra: (product: string, added: number, now: number) => string;
  linesTitle: string;
  notOnNotice: string;
  ofExpected: (counted: number, expected: number) => string;
  notSentYet: (n: number) => string;
  finish: string;
  back: string;

  overTitle: string;
  overText: (product: string, would: number, expected: number) => string;
  countAnyway: string;
  dontCount: string;
  whichProduct: string;
  sameGtin: string;
  byName: string;
  noMatchTitle: string;
  badGtin: string;
  noMatch: (code: string) => string;
  ok: string;
  notOnNoticeTitle: string;
  notOnNoticeText: (gtin: string) => string;
  supplierSku: string;
  productName: string;
  newProductMissing: string;
  recordNew: string;
  orPick: string;

  refusedTitle: string;
  /** Why the service refused a batch of scans, and what to do. */
  refusal: Record<RefusalKind, string>;
  stale: string;
  sendAgain: string;
  discard: string;

  finishTitle: (reference: string) => string;
  finishUnsent: (n: number) => string;
  differencesTitle: string;
  noDifferences: string;
  difference: (product: string, counted: number, expected: number) => string;
  supervisorFinishes: string;
  finishNow: string;
  finishWithDifferences: string;
  backToScanning: string;
  finishedClean: string;
  finishedWithDifferences: string;
  /** A supervisor closed a shipment whose differences were already recorded (`processed` from `problem`). */
  finishedAccepted: string;
  backToToday: string;
}
