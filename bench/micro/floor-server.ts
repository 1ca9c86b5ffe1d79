// The floor of GET shipment: a bare Express app that does only what no design can skip — compare the
// Authorization header with a known value, run the server's one statement (a named prepared statement on the
// server's two shared connections, server/db/shared-connections.ts) and send the row as JSON. No validation,
// logging, limits or mapping. Run by bench/micro/floor.ts:
//   node --import tsx bench/micro/floor-server.ts <database url> <port> <authorization> <statement json file>
// The file holds the server's statement as Kysely compiles it ({ sql, parameters, idAt }); the shipment id at
// `idAt` is taken from each request's path.
import { readFileSync } from "node:fs";
import express from "express";
import pg from "pg";
import { sharedConnections } from "../../server/db/shared-connections.ts";

const [url, port, authorization, statementFile] = process.argv.slice(2);
if (!url || !port || !authorization || !statementFile) throw new Error("usage: see the file's header");
const { sql, parameters, idAt } = JSON.parse(readFileSync(statementFile, "utf8")) as {
  sql: string;
  parameters: unknown[];
  idAt: number;
};
// As the server: two shared connections, and eight of a pool when neither can take the statement.
const shared = sharedConnections({ connectionString: url }, 2);
const pool = new pg.Pool({ connectionString: url, max: 8 });
const app = express();
app.get("/2015-01-01/inbound_shipments/:id", (req, res, next) => {
  if (req.headers.authorization !== authorization) return void res.status(401).end();
  const values = parameters.map((p, i) => (i === idAt ? req.params.id : p));
  const query = shared.take() ?? ((q: unknown) => pool.query(q as pg.QueryConfig));
  (query({ name: "floor", text: sql, values }) as Promise<{ rows: unknown[] }>).then((r) => {
    if (!r.rows[0]) return void res.status(404).end();
    res.json(r.rows[0]);
  }, next);
});
const server = app.listen(Number(port), "127.0.0.1");
process.on("SIGTERM", () =>
  server.close(() => void Promise.all([shared.end(), pool.end()]).then(() => process.exit(0))),
);
