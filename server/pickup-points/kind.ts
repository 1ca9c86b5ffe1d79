// The one owner of a pickup point's `kind` (issue 51 item 3): carriers describe their points in free text
// (`carrier_info.<carrier>.type`), each in its own words; shoppers choose between parcel lockers and staffed counters.
// Imports and the migration that added the column (0023_pickup_point_kind.ts) both map through pickupPointKind.
import type { components } from "../../generated/api.ts";

export type PickupPointKind = components["schemas"]["PickupPointKind"];
type CarrierInfoMap = components["schemas"]["CarrierInfoMap"];

/** A carrier's type as compared: upper case, without spaces, `_`, `-` or `.` (`Service point` = `SERVICE_POINT`). */
export const normaliseCarrierType = (type: string): string =>
  type
    .normalize("NFC")
    .toUpperCase()
    .replace(/[\s_.-]+/g, "");

/**
 * The carriers' words, normalised, by kind. Posti: PARCELLOCKER, POSTOFFICE, PICKUPPOINT (a shop's counter), APT
 * (automated parcel terminal), SMARTPOST (its older lockers); Matkahuolto: OFFICE, Pakettiautomaatti, Noutopiste;
 * PostNord: SERVICE_POINT, parcel boxes; DHL: Packstation, Paketshop; Bring: Pakkeboks; Omniva: PARCEL_MACHINE;
 * Budbee: BOX; Swedish and Norwegian agents: Ombud, Utlämningsställe, Paketautomat, Pakkeautomat.
 */
const WORDS: Record<Exclude<PickupPointKind, "unknown">, readonly string[]> = {
  locker: [
    "PARCELLOCKER",
    "LOCKER",
    "APT",
    "PAKETTIAUTOMAATTI",
    "SMARTPOST",
    "PARCELBOX",
    "BOX",
    "PACKSTATION",
    "PARCELMACHINE",
    "PAKETAUTOMAT",
    "PAKKEAUTOMAT",
    "PAKKEBOKS",
  ],
  counter: [
    "POSTOFFICE",
    "PICKUPPOINT",
    "AGENCY",
    "SERVICEPOINT",
    "OFFICE",
    "NOUTOPISTE",
    "POSTIKONTTORI",
    "PARCELSHOP",
    "PAKETSHOP",
    "OMBUD",
    "UTLÄMNINGSSTÄLLE",
  ],
};

const KIND_OF = new Map<string, PickupPointKind>(
  Object.entries(WORDS).flatMap(([kind, words]) => words.map((w) => [w, kind as PickupPointKind] as const)),
);

/** One carrier's type: `locker`, `counter`, or `unknown` for a word not listed or no type. */
export const carrierTypeKind = (type: string | undefined): PickupPointKind =>
  type === undefined ? "unknown" : (KIND_OF.get(normaliseCarrierType(type)) ?? "unknown");

/**
 * A point's kind from what its carriers say: the kind every carrier that names a known type agrees on; `unknown`
 * when none does, or when they disagree (one says locker, another counter).
 */
export function pickupPointKind(carrierInfo: CarrierInfoMap): PickupPointKind {
  const kinds = new Set<PickupPointKind>();
  for (const info of Object.values(carrierInfo)) {
    const kind = carrierTypeKind(info.type);
    if (kind !== "unknown") kinds.add(kind);
  }
  return kinds.size === 1 ? [...kinds][0]! : "unknown";
}
