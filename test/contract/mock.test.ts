// npm run mock, as a partner without credentials uses it, at the server's base path: every operation answers
// with the spec's realistic examples (no "string" fillers), the examples tell one story, and documented errors
// are reachable with Prism's `Prefer: code=...` header. How it answers like the server: test/mock/parity.test.ts.
// The mock runs in process here, served as tools/mock.ts serves it (the same app on the server's HTTP server), so
// it shares the validator its worker has compiled (server/http/validator.ts): a process of its own compiled every
// operation's schemas again (12.3 processor seconds after test/mock/prefer.test.ts in one worker; 0.7 in process).
// `npm run mock` as a process, and a partner's script through it, is test/client/package.test.ts's.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerClientErrors } from "../../server/http/client-errors.ts";
import { createHttpServer } from "../../server/http/server.ts";
import { createMockApp } from "../../tools/mock/app.ts";
import { loadSpec, type Operation } from "../fuzz/spec-model.ts";
import { MERCHANT_AUTH, MOCK_BASE, mockRequest } from "../mock/requests.ts";

const { operations, doc } = loadSpec();
const BASE = MOCK_BASE;
const AUTH = MERCHANT_AUTH;
let mock: Server;
let origin: string;

beforeAll(async () => {
  const app = await createMockApp({ logger: pino({ level: "silent" }) });
  mock = createHttpServer(app);
  answerClientErrors(mock);
  await new Promise<void>((resolve) => mock.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
  expect((await fetch(`${origin}${BASE}/events`, { headers: AUTH })).status).toBe(200);
});
afterAll(async () => {
  mock?.closeAllConnections();
  await new Promise((r) => mock?.close(r));
});

function request(op: Operation, headers: Record<string, string> = {}) {
  return mockRequest(origin, doc, op, headers);
}

function fillers(value: unknown, at = ""): string[] {
  if (value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => fillers(v, `${at}/${i}`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => fillers(v, `${at}/${k}`));
  return [];
}

describe("npm run mock", () => {
  it.each(operations.map((o) => [o.operationId, o] as const))(
    "%s answers its documented success example",
    async (_id, op) => {
      const res = await request(op);
      const success = [...op.responses.keys()].filter((s) => s >= 200 && s < 300);
      expect(success, op.operationId).toContain(res.status);
      expect(res.headers.get("idempotent-replayed") ?? "false").toBe("false");
      const text = await res.text();
      if (!text) return;
      // A page (the receiving label): the spec's example page, as HTML.
      if (res.headers.get("content-type")?.startsWith("text/html"))
        return void expect(text).toMatch(/^<!doctype html>/);
      const body = JSON.parse(text);
      expect(fillers(body)).toEqual([]);
      for (const [name, value] of res.headers) expect(value, name).not.toBe("string");
    },
  );

  it("tells one story: what a create returns is what the reads show", async () => {
    const get = async (path: string) => (await fetch(`${origin}${BASE}${path}`, { headers: AUTH })).json();
    const post = async (path: string, body: unknown) =>
      (
        await fetch(`${origin}${BASE}${path}`, {
          method: "POST",
          headers: { ...AUTH, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json();
    const op = (id: string) => operations.find((o) => o.operationId === id)!;

    const shipment = await post("/inbound_shipments/_create", op("createInboundShipment").bodyExamples[0]);
    expect((await get(`/inbound_shipments/${shipment.shipment_id}`)).id).toBe(shipment.shipment_id);
    expect((await get("/inbound_shipments")).items[0].id).toBe(shipment.shipment_id);

    const order = await post("/orders/_create", op("createOrder").bodyExamples[0]);
    expect((await get(`/orders/${order.order_id}`)).id).toBe(order.order_id);

    const endpoint = await post("/webhook_endpoints/_create", op("createWebhookEndpoint").bodyExamples[0]);
    expect((await get(`/webhook_endpoints/${endpoint.id}`)).id).toBe(endpoint.id);
    const test = await post(`/webhook_endpoints/${endpoint.id}/_test`, undefined);
    const deliveries = await get(`/webhook_endpoints/${endpoint.id}/deliveries`);
    expect(deliveries.items.map((d: { id: string }) => d.id)).toContain(test.delivery_id);
    // The example deliveries, and the example events, belong to the example endpoint.
    for (const d of deliveries.items) expect(d.webhook_id).toBe(endpoint.id);
    for (const [type, hook] of Object.entries(doc.webhooks as Record<string, any>)) {
      const example = hook.post.requestBody.content["application/json"].example;
      for (const e of Array.isArray(example) ? example : [example]) expect(e.webhook_id, type).toBe(endpoint.id);
    }
  });

  it("answers the documented error examples with Prefer: code=...", async () => {
    const notFound = doc.components.responses.NotFound.content["application/json"].example;
    const checked: string[] = [];
    for (const op of operations.filter((o) => o.responses.has(404))) {
      const res = await request(op, { prefer: "code=404" });
      expect(res.status, op.operationId).toBe(404);
      // As the server's: with the request's id.
      expect(await res.json(), op.operationId).toEqual({ ...notFound, request_id: res.headers.get("x-request-id") });
      checked.push(op.operationId);
    }
    expect(checked.length).toBeGreaterThan(10);
    const limited = await request(
      operations.find((o) => o.operationId === "listInboundShipments")!,
      { prefer: "code=429" },
    );
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ success: false, code: "rate_limited" });
    expect(limited.headers.get("retry-after")).toBe("12");
  });
});
