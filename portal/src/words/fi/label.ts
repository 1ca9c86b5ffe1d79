// Suomi: the receiving label's links on a shipment's page.
import type { Catalogue } from "../catalogue.ts";

export const label: Pick<Catalogue, "label"> = {
  label: {
    title: "Vastaanottotarra",
    about:
      "Tulosta tarra ja lähetä se toimittajalle, joka kiinnittää sen lähetykseen: varasto lukee viivakoodin, kun tavarat saapuvat.",
    a6: "Tarra paketille (A6)",
    a4: "Tarra arkille (A4)",
  },
};
