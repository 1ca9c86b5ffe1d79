// The demo directory shipped with the project (built by tools/demo-pickup-points.ts): Finnish pickup points
// around Kaarina 20780, Turku, Tampere and central Helsinki, and the postal codes around them.
import { readFileSync } from "node:fs";
import type { Tx } from "../db/transaction.ts";
import { fromRoot } from "../shared/paths.ts";
import { importPickupPoints, importPostalCodes, type ImportReport } from "./imports.ts";

const file = (name: string) => readFileSync(fromRoot(`server/pickup-points/demo/${name}`), "utf8");

export async function loadDemoDirectory(trx: Tx): Promise<{ points: ImportReport; postalCodes: ImportReport }> {
  const points = await importPickupPoints(trx, file("pickup-points.json"), { format: "json" });
  const postalCodes = await importPostalCodes(trx, file("postal-codes.txt"));
  const errors = [...points.errors, ...postalCodes.errors];
  if (errors.length) throw new Error(`the demo directory does not import: ${JSON.stringify(errors.slice(0, 3))}`);
  return { points, postalCodes };
}
