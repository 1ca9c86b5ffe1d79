// English: the receiving label's links on a shipment's page.
import type { Catalogue } from "../catalogue.ts";

export const label: Pick<Catalogue, "label"> = {
  label: {
    title: "Receiving label",
    about:
      "Print it and send it to your supplier, who attaches it to the delivery: the warehouse scans its barcode when the goods arrive.",
    a6: "Label for a parcel (A6)",
    a4: "Label on a sheet (A4)",
  },
};
