import { describe, expect, it } from "vitest";
import { carrierTypeKind, pickupPointKind } from "../../server/pickup-points/kind.ts";

describe("a pickup point's kind from its carriers' types", () => {
  it.each([
    // Posti
    ["PARCELLOCKER", "locker"],
    ["APT", "locker"],
    ["SMARTPOST", "locker"],
    ["POSTOFFICE", "counter"],
    ["PICKUPPOINT", "counter"],
    ["AGENCY", "counter"],
    // Matkahuolto
    ["OFFICE", "counter"],
    ["Pakettiautomaatti", "locker"],
    ["Noutopiste", "counter"],
    // PostNord, DHL, Bring, Omniva, Budbee, Swedish agents
    ["SERVICE_POINT", "counter"],
    ["Service point", "counter"],
    ["service-point", "counter"],
    ["PARCEL_LOCKER", "locker"],
    ["Parcel box", "locker"],
    ["Packstation", "locker"],
    ["Paketshop", "counter"],
    ["parcelshop", "counter"],
    ["Pakkeboks", "locker"],
    ["PARCEL_MACHINE", "locker"],
    ["BOX", "locker"],
    ["Ombud", "counter"],
    ["Utlämningsställe", "counter"],
    ["UTLÄMNINGSSTÄLLE", "counter"],
    ["Paketautomat", "locker"],
    // Anything else
    ["", "unknown"],
    ["HOME", "unknown"],
    ["TERMINAL", "unknown"],
    ["PARCELLOCKERS", "unknown"],
    ["LOCKER ROOM", "unknown"],
  ])("%j is %s", (type, kind) => {
    expect(carrierTypeKind(type)).toBe(kind);
  });

  it("no type is unknown", () => {
    expect(carrierTypeKind(undefined)).toBe("unknown");
  });

  it("a point: the kind its carriers agree on; none known, none at all, or a disagreement: unknown", () => {
    expect(pickupPointKind({ fi_posti: { id: "1", type: "PARCELLOCKER" } })).toBe("locker");
    expect(pickupPointKind({ fi_posti: { id: "1", type: "PICKUPPOINT" } })).toBe("counter");
    expect(pickupPointKind({ fi_matkahuolto: { id: "9617" } })).toBe("unknown");
    expect(pickupPointKind({})).toBe("unknown");
    expect(pickupPointKind({ fi_posti: { id: "1", type: "APT" }, fi_matkahuolto: { id: "2" } })).toBe("locker");
    expect(
      pickupPointKind({ fi_posti: { id: "1", type: "PICKUPPOINT" }, fi_matkahuolto: { id: "2", type: "OFFICE" } }),
    ).toBe("counter");
    expect(
      pickupPointKind({ fi_posti: { id: "1", type: "PARCELLOCKER" }, fi_matkahuolto: { id: "2", type: "OFFICE" } }),
    ).toBe("unknown");
    expect(
      pickupPointKind({ fi_posti: { id: "1", type: "MYSTERY" }, fi_db_schenker: { id: "2", type: "AGENCY" } }),
    ).toBe("counter");
  });
});
