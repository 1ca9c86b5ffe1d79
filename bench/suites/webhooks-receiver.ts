// The merchant's receiver of `npm run bench:webhooks`, in a process of its own (as a merchant's system is):
// answers 200 at once and reports to its parent, in batches, when each (shipment, arrivedQty) arrived.
// Times are epoch milliseconds at sub-millisecond resolution, comparable across processes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";

const now = () => performance.timeOrigin + performance.now();
let pending: [string, number][] = [];
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = now();
    res.writeHead(200, { "content-type": "text/plain" }).end("OK");
    const event = JSON.parse(Buffer.concat(chunks).toString()) as {
      payload: { shipment_id: string; products: { arrivedQty: number }[] };
    };
    pending.push([`${event.payload.shipment_id}:${event.payload.products[0]!.arrivedQty}`, at]);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send!({ port: (server.address() as AddressInfo).port }));
setInterval(() => {
  if (!pending.length) return;
  process.send!({ receipts: pending });
  pending = [];
}, 50);
process.on("disconnect", () => process.exit(0));
