// English: a shipment's arrivals on its page, with who recorded each and when.
import type { Catalogue } from "../catalogue.ts";

export const arrivals: Pick<Catalogue, "arrivals"> = {
  arrivals: {
    title: "Arrivals",
    live: "New arrivals show here as the warehouse records them.",
    none: "Nothing has arrived yet.",
    when: "When",
    product: "Product",
    items: "Items",
    who: "Recorded by",
    correction: (change) => `${change} (correction)`,
    system: (id) => `Warehouse system ${id}`,
  },
};
