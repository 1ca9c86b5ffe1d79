// Traces (issue 30): with the standard OTEL_* settings the server sends OpenTelemetry spans (OTLP over HTTP,
// JSON) to an in-process receiver: each request continues its caller's traceparent, with its checks, handler
// and statements under it, and the webhook delivery it caused links back to it. No secret or personal data is in
// any span. On the embedded database (the spans are the same on PostgreSQL: only the statements' text differs).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { DEMO } from "../../server/demo.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startServerProcess, type ServerProcess } from "./helpers.ts";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
}

const dir = mkdtempSync(path.join(tmpdir(), "logistics-traces-"));
const exports: string[] = [];
let collector: http.Server;
let rx: Receiver;
let srv: ServerProcess;

beforeAll(async () => {
  collector = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/v1/traces") exports.push(body);
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r));
  rx = await startReceiver();
  // A copy of the suite's migrated template: a new directory's initialisation (seconds) is not what is traced here.
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  srv = await startServerProcess({
    DATABASE_URL: "",
    PGLITE_DIR: path.join(dir, "db"),
    SEED_DEMO: "true",
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_SERVICE_NAME: "logistics-test",
  });
});
afterAll(async () => {
  await srv?.stop();
  await rx?.close();
  collector?.close();
  rmSync(dir, { recursive: true, force: true });
});

const spans = (): OtlpSpan[] =>
  exports.flatMap((e) =>
    (JSON.parse(e) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v && (v.stringValue ?? v.intValue ?? v.boolValue);
};

it("traces a request through checks, handler and statements, continues the caller's trace, and links the webhook delivery it caused; nothing secret or personal in any span", async () => {
  const m = srv.client(`M-${DEMO.merchantId}`, DEMO.merchantSecret);
  const w = srv.client(`W-${DEMO.operatorId}`, DEMO.operatorSecret);
  const ep = await m.POST("/webhook_endpoints/_create", {
    body: { url: rx.url("/traced"), event_types: ["inbound_shipment.items_arrived"] },
  });
  expect(ep.response.status).toBe(201);
  const created = await m.POST("/inbound_shipments/_create", {
    body: {
      merchants_ref: "REF-PRIVATE-4711",
      sender_name: "Maija Meikäläinen",
      products: [{ merchants_id: "SKU-PRIVATE-9", name: "Private product name", qty: 3 }],
    },
  });
  expect(created.response.status).toBe(201);
  const shipping = await m.GET("/shipping_options", { params: { query: { postalcode: "20780", country: "FI" } } });
  expect(shipping.response.status).toBe(200);

  // The caller's own trace: the request continues it.
  const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const callerSpan = "00f067aa0ba902b7";
  const arrival = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
    params: { path: { shipment_id: created.data!.shipment_id } },
    body: { arrivals: [{ merchants_id: "SKU-PRIVATE-9", change: 1 }] },
    headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` },
  });
  expect(arrival.response.status).toBe(200);
  await rx.waitFor(1, { path: "/traced" });
  await expect.poll(() => spans().some((s) => s.name === "webhook delivery"), { timeout: 15_000 }).toBe(true);

  const all = spans();
  const server = all.find((s) => s.name === "POST /2015-01-01/inbound_shipments/{shipment_id}/arrivals")!;
  expect(server).toBeDefined();
  expect(server).toMatchObject({ traceId: callerTrace, parentSpanId: callerSpan, kind: 2 });
  expect(attr(server, "http.route")).toBe("/2015-01-01/inbound_shipments/{shipment_id}/arrivals");
  expect(String(attr(server, "http.response.status_code"))).toBe("200");
  expect(attr(server, "logistics.operation")).toBe("recordInboundArrivals");
  expect(attr(server, "logistics.merchant")).toBeUndefined(); // a warehouse operator called

  const children = all.filter((s) => s.parentSpanId === server.spanId).map((s) => s.name);
  expect(children).toEqual(expect.arrayContaining(["checks", "handler recordInboundArrivals"]));
  const handler = all.find((s) => s.parentSpanId === server.spanId && s.name === "handler recordInboundArrivals")!;
  const statements = all.filter((s) => s.parentSpanId === handler.spanId && s.name.startsWith("db "));
  expect(statements.length).toBeGreaterThan(2);
  expect(statements.every((s) => attr(s, "db.system.name") === "postgresql")).toBe(true);

  const delivery = all.find((s) => s.name === "webhook delivery")!;
  expect(delivery.traceId).not.toBe(callerTrace); // a trace of its own...
  expect(delivery.links).toEqual([expect.objectContaining({ traceId: callerTrace, spanId: handler.spanId })]); // ...linked
  expect(String(attr(delivery, "http.response.status_code"))).toBe("200");

  const shippingSpan = all.find((s) => s.name === "GET /2015-01-01/shipping_options")!;
  expect(attr(shippingSpan, "logistics.merchant")).toBe(DEMO.merchantId);

  // Nothing secret or personal anywhere in what was exported.
  const text = exports.join("\n");
  const basic = (u: string, s: string) => Buffer.from(`${u}:${s}`).toString("base64");
  for (const secret of [
    DEMO.merchantSecret,
    DEMO.operatorSecret,
    basic(`M-${DEMO.merchantId}`, DEMO.merchantSecret),
    basic(`W-${DEMO.operatorId}`, DEMO.operatorSecret),
    ep.data!.secret,
    "REF-PRIVATE-4711",
    "Meikäläinen",
    "Private product name",
    "20780",
    DEMO.portalEmail,
  ])
    expect(text, secret).not.toContain(secret);
});
