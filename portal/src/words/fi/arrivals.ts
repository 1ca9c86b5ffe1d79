// Suomi: a shipment's arrivals on its page, with who recorded each and when.
import type { Catalogue } from "../catalogue.ts";

export const arrivals: Pick<Catalogue, "arrivals"> = {
  arrivals: {
    title: "Saapuneet",
    live: "Uudet saapumiset näkyvät tässä sitä mukaa kuin varasto kirjaa ne.",
    none: "Mitään ei ole vielä saapunut.",
    when: "Milloin",
    product: "Tuote",
    items: "Kpl",
    who: "Kirjaaja",
    correction: (change) => `${change} (korjaus)`,
    system: (id) => `Varaston järjestelmä ${id}`,
  },
};
