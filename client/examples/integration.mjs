// @ts-check
// One scripted integration, in plain JavaScript with the published client: it runs unchanged against the
// mock (npm run mock) and the server (npm start); only LOGISTICS_BASE_URL differs.
//   LOGISTICS_BASE_URL=http://127.0.0.1:4010/2015-01-01 node integration.mjs (the mock)
//   LOGISTICS_BASE_URL=http://127.0.0.1:3000/2015-01-01 node integration.mjs (the server)
// It prints what it did as JSON lines; the last one is the summary.
import { createServer } from "node:http";
import { createLogisticsClient, paginate, unwrap } from "@logistics-api/client";
import { verifyWebhookEvents } from "@logistics-api/client/webhooks";

const baseUrl = process.env.LOGISTICS_BASE_URL ?? "http://127.0.0.1:3000/2015-01-01";
const client = createLogisticsClient({
  baseUrl,
  username: process.env.LOGISTICS_USERNAME ?? "M-demo.example.com",
  secret: process.env.LOGISTICS_SECRET ?? "demo-secret-change-me",
  retries: 2,
  timeoutMs: 10_000,
});
/** @param {string} step @param {object} value */
const log = (step, value) => console.log(JSON.stringify({ step, ...value }));

// 1. Announce an inbound shipment, change it, read it back, list shipments.
const created = await unwrap(
  client.POST("/inbound_shipments/_create", {
    body: {
      merchants_ref: "PO-2016-0042",
      sender_name: "Acme Supplies Oy",
      products: [{ merchants_id: "SKU-1001", name: "Blue T-shirt M", gtin: "6410405082657", qty: 10 }],
    },
  }),
);
log("created", { shipment_id: created.shipment_id });
await unwrap(
  client.POST("/inbound_shipments/{shipment_id}", {
    params: { path: { shipment_id: created.shipment_id } },
    body: { expected_at_wh: "2026-12-01" },
  }),
);
const shipment = await unwrap(
  client.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: created.shipment_id } } }),
);
log("read", {
  shipment_id: shipment.id,
  status: shipment.status,
  products: shipment.products.map((p) => [p.product.merchants_id, p.qty, p.arrivedQty]),
});
let listed = 0;
for await (const s of paginate(client, "/inbound_shipments", { params: { query: { limit: 50 } } })) if (s.id) listed++;
log("listed", { count: listed });

// 2. Shipping options at checkout, with the nearest pickup points.
const options = await unwrap(
  client.GET("/shipping_options", { params: { query: { postalcode: "20780", country: "FI", weight: 500 } } }),
);
const points = options.options.pickup.available ? Object.keys(options.options.pickup.pickup_points) : [];
log("shipping_options", { home: options.options.home.available, pickup_points: points.length });

// 3. An order, and the options for it.
const order = await unwrap(
  client.POST("/orders/_create", {
    body: {
      merchants_ref: "ORD-2016-1001",
      customer: { postalcode: "20780", country: "FI" },
      products: [{ merchants_id: "SKU-1001", name: "Blue T-shirt M", qty: 2, unit_price: 19.9, weight_g: 210 }],
    },
  }),
);
const orderOptions = await unwrap(
  client.GET("/orders/{order_id}/shipping_options", { params: { path: { order_id: order.order_id } } }),
);
log("order", { order_id: order.order_id, pickup: orderOptions.options.pickup.available });

// 4. A webhook endpoint on a local receiver; a test event, verified with the endpoint's secret.
const receiver = await startReceiver();
const url = receiver.url;
const endpoint = await unwrap(
  client.POST("/webhook_endpoints/_create", { body: { url, event_types: ["inbound_shipment.items_arrived"] } }),
);
await unwrap(client.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: endpoint.id } } }));
log("waiting_for_webhook", { url, webhook_id: endpoint.id });
const delivery = await Promise.race([
  receiver.delivery,
  new Promise((_, reject) => setTimeout(() => reject(new Error("no webhook within 30 s")), 30_000).unref()),
]);
// One event, or an array of them for an endpoint with batching: verifyWebhookEvents always gives the array.
const [event] = verifyWebhookEvents(endpoint.secret, delivery.headers, delivery.body);
if (!event) throw new Error("an empty delivery");
log("webhook", { event_type: event.event_type, event_id: event.event_id, verified: true });

// 5. Catch up on events by cursor (what a stopped endpoint missed).
const feed = await unwrap(client.GET("/events", { params: { query: { limit: 100 } } }));
log("events", { count: feed.items.length, has_more: feed.has_more, cursor: feed.next_cursor !== null });

log("summary", {
  ok: true,
  shipment_id: created.shipment_id,
  pickup_points: points.length,
  order_id: order.order_id,
  webhook: event.event_type,
});

/**
 * A one-shot HTTP receiver on loopback: answers 204 and hands over the raw body and headers.
 * @returns {Promise<{ url: string, delivery: Promise<{ headers: import("node:http").IncomingHttpHeaders, body: string }> }>}
 */
function startReceiver() {
  /** @type {(d: { headers: import("node:http").IncomingHttpHeaders, body: string }) => void} */
  let resolve = () => {};
  /** @type {Promise<{ headers: import("node:http").IncomingHttpHeaders, body: string }>} */
  const delivery = new Promise((r) => (resolve = r));
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      // Connection: close, so that the sender's kept-alive socket does not keep this script running.
      res.writeHead(204, { connection: "close" }).end();
      server.close();
      resolve({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    });
  });
  return new Promise((ready) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      ready({ url: `http://127.0.0.1:${port}/hooks/logistics`, delivery });
    }),
  );
}
