// The peer a team would write for speed (issue 53): a Fastify 5 route for GET shipment with its params checked by a
// JSON schema (ajv, Fastify's own), the Authorization header compared with a known value, one named prepared
// statement on a pg pool (the server's own statement for the read, compiled by bench/micro/get-shipment.ts), and
// the row sent as JSON. No logging, limits, spec or mapping beyond that.
//   node --import tsx bench/anchors/fastify-pg.ts <database url> <port> <authorization> <statement json file>
// The file holds { sql, parameters, idAt }: the shipment id at `idAt` is taken from each request's path.
import { readFileSync } from "node:fs";
import Fastify from "fastify";
import pg from "pg";

const [url, port, authorization, statementFile] = process.argv.slice(2);
if (!url || !port || !authorization || !statementFile) throw new Error("usage: see the file's header");
const { sql, parameters, idAt } = JSON.parse(readFileSync(statementFile, "utf8")) as {
  sql: string;
  parameters: unknown[];
  idAt: number;
};
// pg's default pool of 10, as a hand-written service would start with.
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });
app.get<{ Params: { shipment_id: string } }>(
  "/2015-01-01/inbound_shipments/:shipment_id",
  {
    schema: {
      params: {
        type: "object",
        properties: { shipment_id: { type: "string", pattern: "^[0-9a-f]{24}$" } },
        required: ["shipment_id"],
      },
    },
  },
  async (req, reply) => {
    if (req.headers.authorization !== authorization) return reply.code(401).send();
    const values = parameters.map((p, i) => (i === idAt ? req.params.shipment_id : p));
    const { rows } = await pool.query({ name: "get-shipment", text: sql, values });
    if (!rows[0]) return reply.code(404).send();
    return rows[0];
  },
);
await app.listen({ port: Number(port), host: "127.0.0.1" });
process.on("SIGTERM", () => void app.close().then(() => pool.end().then(() => process.exit(0))));
