// Svenska: the receiving label's links on a shipment's page.
import type { Catalogue } from "../catalogue.ts";

export const label: Pick<Catalogue, "label"> = {
  label: {
    title: "Mottagningsetikett",
    about:
      "Skriv ut etiketten och skicka den till leverantören, som fäster den på leveransen: lagret läser streckkoden när varorna kommer.",
    a6: "Etikett för ett paket (A6)",
    a4: "Etikett på ett ark (A4)",
  },
};
