// GET shipment as the micro benchmarks measure it: one shipment of the demo merchant (5 lines, as the inbound
// suite stores it), the answer the bare app replays, and the server's statement for it compiled without a database.
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import { createLogisticsClient } from "../../client/index.ts";
import { BASE_PATH } from "../../server/app.ts";
import type { Database } from "../../server/db/schema.ts";
import { DEMO } from "../../server/demo.ts";
import { shipmentOfMerchant } from "../../server/inbound/db.ts";
import type { CapturedResponse } from "../anchors/express-bytes.ts";
import { createShipment, MERCHANT_AUTH } from "../cases.ts";

/** Creates the shipment on a started server and captures its GET answer. */
export async function demoShipment(origin: string): Promise<{ id: string; path: string; answer: CapturedResponse }> {
  const api = createLogisticsClient({
    baseUrl: origin + BASE_PATH,
    username: `M-${DEMO.merchantId}`,
    secret: DEMO.merchantSecret,
  });
  const id = await createShipment(api);
  const p = `${BASE_PATH}/inbound_shipments/${id}`;
  const res = await fetch(origin + p, { headers: MERCHANT_AUTH });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    id,
    path: p,
    answer: {
      method: "GET",
      path: p,
      status: res.status,
      contentType: "application/json; charset=utf-8",
      body: body.toString("base64"),
    },
  };
}

/** The server's one statement for GET shipment `id` (inbound/db.ts), as Kysely compiles it. */
export function getShipmentStatement(id: string): { sql: string; parameters: readonly unknown[]; idAt: number } {
  const compileOnly = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  const { sql, parameters } = shipmentOfMerchant(compileOnly, id, DEMO.merchantId).compile();
  return { sql, parameters, idAt: parameters.indexOf(id) };
}
