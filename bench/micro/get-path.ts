// A/B of the GET-shipment path: this tree's app against another tree's (e.g. the commit before the
// hardening, extracted with `git archive`), same PGlite database, requests one at a time over one
// keep-alive connection, rounds interleaved so that machine noise hits both alike. Not a benchmark of
// throughput: it tells whether per-request work was added.
//   npm run bench -- get-path /tmp/other-tree [rounds] [requests-per-round]
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createApp } from "../../server/app.ts";
import { createServices } from "../../server/services.ts";
import { readWebhookSettings } from "../../server/webhooks/settings.ts";
import { openDatabase } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { MainKeys } from "../../server/secrets/main-keys.ts";

const other = process.argv[2];
const rounds = Number(process.argv[3] ?? 10);
const perRound = Number(process.argv[4] ?? 300);
if (!other) throw new Error("usage: measure-get-path.ts <other tree> [rounds] [requests-per-round]");

const dir = mkdtempSync(path.join(tmpdir(), "measure-get-"));
const handle = await openDatabase({ pgliteDir: path.join(dir, "db") });
await migrateToLatest(handle.db);
await provisionAccount(handle.db, "merchant", "bench.example.com", "bench-secret-1");
const logger = pino({ level: "silent" });
// The other tree may predate services.ts: its createApp is called the way its own signature takes.
const otherApp = (await import(pathToFileURL(path.join(other, "server/app.ts")).href)) as {
  createApp: (opts: object) => ReturnType<typeof createApp>;
};
const services = createServices({
  handle,
  logger,
  webhooks: readWebhookSettings({}).settings,
  keys: new MainKeys(randomBytes(32)),
});
const apps = { this: createApp({ services, logger }), other: otherApp.createApp({ db: handle.db, services, logger }) };

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const auth = `Basic ${Buffer.from("M-bench.example.com:bench-secret-1").toString("base64")}`;
function call(port: number, method: string, p: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: "127.0.0.1",
        method,
        path: p,
        agent,
        headers: { Authorization: auth, ...(body && { "Content-Type": "application/json" }) },
      },
      (res) => {
        let text = "";
        res
          .setEncoding("utf8")
          .on("data", (c) => (text += c))
          .on("end", () => resolve({ status: res.statusCode!, text }));
      },
    );
    req.on("error", reject).end(body);
  });
}

const servers = await Promise.all(
  Object.entries(apps).map(
    ([name, app]) =>
      new Promise<[string, http.Server]>((r) => {
        const s = app.listen(0, "127.0.0.1", () => r([name, s]));
      }),
  ),
);
const ports = Object.fromEntries(servers.map(([n, s]) => [n, (s.address() as AddressInfo).port]));
const created = await call(
  ports.this!,
  "POST",
  "/2015-01-01/inbound_shipments/_create",
  JSON.stringify({
    merchants_ref: "PO-1",
    sender_name: "Acme",
    products: [
      { merchants_id: "SKU-1", name: "Blue", gtin: "6410405082657", qty: 10 },
      { merchants_id: "SKU-2", name: "Red", gtin: "", qty: 5 },
    ],
  }),
);
const id = (JSON.parse(created.text) as { shipment_id: string }).shipment_id;
const target = `/2015-01-01/inbound_shipments/${id}`;

const totals: Record<string, number[]> = { this: [], other: [] };
for (const name of ["this", "other"]) for (let i = 0; i < 50; i++) await call(ports[name]!, "GET", target); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? ["this", "other"] : ["other", "this"]) {
    const t = performance.now();
    for (let i = 0; i < perRound; i++)
      if ((await call(ports[name]!, "GET", target)).status !== 200) throw new Error("not 200");
    totals[name]!.push(((performance.now() - t) / perRound) * 1000);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const a = median(totals.this!),
  b = median(totals.other!);
console.log(
  `GET shipment, median µs per request over ${rounds} rounds of ${perRound}: this ${a.toFixed(0)}, other ${b.toFixed(0)}, this/other ${(a / b).toFixed(3)}`,
);
console.log(
  `rounds this: ${totals.this!.map((x) => x.toFixed(0)).join(" ")}\nrounds other: ${totals.other!.map((x) => x.toFixed(0)).join(" ")}`,
);
agent.destroy();
for (const [, s] of servers) s.close();
await handle.close();
rmSync(dir, { recursive: true, force: true });
