// Answers checked against the spec (issue 27): every one by default (tests, CI, development), where an answer
// that breaks the contract becomes 500 unknown; a sample with RESPONSE_VALIDATION_PERCENT below 100 (production),
// where a checked answer that breaks it is sent as it was, and counted in /metrics by operation. The broken
// answer comes from a handler put in for the test: the real ones never break the contract (the suite checks).
import { afterEach, describe, expect, it } from "vitest";
import { prepareValidator, validator } from "../../server/http/validator.ts";
import type { Handlers } from "../../server/operations.ts";
import { expectError } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const TOKEN = "response-sampling-token";
// A shipping settings answer without the fields the spec requires.
const broken: Handlers = {
  getShippingSettings: () => Promise.resolve({ status: 200, body: { surprise: true } as never }),
};

let srv: TestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

async function violations(s: TestServer): Promise<number> {
  const text = await (await fetch(`${s.origin}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text
    .split("\n")
    .find((l) => l.startsWith('http_response_violations_total{operation="getShippingSettings"}'));
  return line ? Number(line.split(" ")[1]) : 0;
}

describe("answers checked against the spec", () => {
  it("all of them by default: one that breaks the contract is 500 unknown, never sent", async () => {
    srv = await startTestServer({ handlers: broken, metricsToken: TOKEN });
    const m = await srv.merchant("checked.example.com");
    const r = await m.GET("/merchant/shipping_settings");
    expectError(r, 500, "unknown");
    expect(JSON.stringify(r.error)).not.toContain("surprise");
  });

  it("every answer checked: all apps of a process share one compiled check, and each still refuses a broken answer", async () => {
    // Compiled once per process (server/http/validator.ts): a test worker builds hundreds of apps.
    expect(validator().validate[1]).toBe(validator().validate[1]);
    expect(validator({ percent: 50 }).validate[1]).not.toBe(validator().validate[1]);
    expect(validator(undefined, undefined, { fresh: true }).validate[1]).not.toBe(validator().validate[1]);
    srv = await startTestServer({ handlers: broken, metricsToken: TOKEN });
    const second = await startTestServer({ handlers: broken, database: srv.handle });
    try {
      for (const s of [srv, second]) {
        const r = await (await s.merchant()).GET("/merchant/shipping_settings");
        expectError(r, 500, "unknown");
        expect(JSON.stringify(r.error)).not.toContain("surprise");
      }
    } finally {
      await second.close();
    }
  });

  it("a sample below 100 percent: a checked one that breaks it is sent as it was and counted; unchecked ones just sent", async () => {
    srv = await startTestServer({ handlers: broken, metricsToken: TOKEN, responseValidationPercent: 50 });
    const m = await srv.merchant("sampled.example.com");
    for (let i = 0; i < 40; i++) {
      const r = await m.GET("/merchant/shipping_settings");
      expect(r.response.status).toBe(200);
      expect(r.data).toEqual({ surprise: true });
    }
    // About half were checked (all 40 unchecked, or all checked, has a chance of 2^-39).
    const counted = await violations(srv);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThan(40);
  });

  it("prepared before the app (serve.ts, while the embedded database opens): the app with that sample takes them and counts its own", async () => {
    expect(prepareValidator(100)[0]).toBe(validator().match[0]);
    const [first] = prepareValidator(50);
    // Another sample does not take them; the next validator with this one does, once.
    expect(validator({ percent: 30 }).match[0]).not.toBe(first);
    expect(validator({ percent: 50 }).match[0]).toBe(first);
    expect(validator({ percent: 50 }).match[0]).not.toBe(first);
    // The app's own violations are counted by its metrics, though the middlewares were made before it.
    const [second] = prepareValidator(50);
    srv = await startTestServer({ handlers: broken, metricsToken: TOKEN, responseValidationPercent: 50 });
    expect(validator({ percent: 50 }).match[0]).not.toBe(second);
    const m = await srv.merchant("prepared.example.com");
    for (let i = 0; i < 40; i++) expect((await m.GET("/merchant/shipping_settings")).response.status).toBe(200);
    const counted = await violations(srv);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThan(40);
  });

  it("none at 0 percent: nothing checked, nothing counted", async () => {
    srv = await startTestServer({ handlers: broken, metricsToken: TOKEN, responseValidationPercent: 0 });
    const m = await srv.merchant("unchecked.example.com");
    for (let i = 0; i < 5; i++) expect((await m.GET("/merchant/shipping_settings")).response.status).toBe(200);
    expect(await violations(srv)).toBe(0);
  });

  it("an unchecked answer is sent as a checked one is: the same status, headers and bytes", async () => {
    srv = await startTestServer({ responseValidationPercent: 100 });
    const unchecked = await startTestServer({ responseValidationPercent: 0, database: srv.handle });
    try {
      const id = "same-bytes.example.com";
      const m = await srv.merchant(id);
      const auth = `Basic ${Buffer.from(`M-${id}:secret-${id}`).toString("base64")}`;
      const created = await m.POST("/inbound_shipments/_create", {
        body: {
          merchants_ref: "PO-1",
          sender_name: "Acme",
          products: [{ merchants_id: "SKU-1", name: "Shirt", qty: 2 }],
        },
      });
      expect(created.response.status).toBe(201);
      const create = (key: string): [string, RequestInit] => [
        "/inbound_shipments/_create",
        {
          method: "POST",
          headers: { "Content-Type": "application/json", "Idempotency-Key": key },
          body: JSON.stringify({
            merchants_ref: key,
            sender_name: "Acme",
            products: [{ merchants_id: "SKU-2", qty: 1 }],
          }),
        },
      ];
      const requests: [string, RequestInit][] = [
        ["/shipping_options?postalcode=00100&country=FI&weight=1200", {}],
        ["/shipping_options?postalcode=00100&country=FI", { method: "HEAD" }],
        [`/inbound_shipments/${created.data!.shipment_id}`, {}],
        ["/inbound_shipments?limit=1", {}],
        ["/merchant/shipping_settings", {}],
      ];
      const answer = async (s: TestServer, [path, init]: [string, RequestInit]) => {
        const r = await fetch(s.baseUrl + path, { ...init, headers: { ...init.headers, Authorization: auth } });
        const headers = Object.fromEntries(
          [...r.headers].filter(
            ([name]) => !["date", "x-request-id", "etag"].includes(name) && !name.startsWith("ratelimit"),
          ),
        );
        const text = (await r.text()).replace(/"shipment_id":"[^"]+"/g, '"shipment_id":"…"');
        return { status: r.status, headers, text };
      };
      for (const req of requests) {
        const a = await answer(srv, req);
        expect(a.status, req[0]).toBe(200);
        expect(await answer(unchecked, req), req[0]).toEqual(a);
      }
      // A create each: 201, and the same answer but for the new shipment's id.
      const [a, b] = [await answer(srv, create("K-1")), await answer(unchecked, create("K-2"))];
      expect(a.status).toBe(201);
      expect(b).toEqual(a);
    } finally {
      await unchecked.close();
    }
  });
});
