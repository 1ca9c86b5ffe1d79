// Svenska: a shipment's arrivals on its page, with who recorded each and when.
import type { Catalogue } from "../catalogue.ts";

export const arrivals: Pick<Catalogue, "arrivals"> = {
  arrivals: {
    title: "Ankomster",
    live: "Nya ankomster visas här allteftersom lagret registrerar dem.",
    none: "Inget har kommit än.",
    when: "När",
    product: "Produkt",
    items: "Antal",
    who: "Registrerad av",
    correction: (change) => `${change} (rättelse)`,
    system: (id) => `Lagrets system ${id}`,
  },
};
