import { describe, expect, it } from "vitest";
import {
  createWebhookVerifier,
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
  verifyWebhookEvents,
  webhookHeaders,
  WebhookVerificationError,
} from "../../client/webhooks.ts";
import * as server from "../../server/webhooks/signing.ts";

const secret = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const body = JSON.stringify({ event_id: "569c9d3ab7e4f1a2c3d4e5f6", event_type: "inbound_shipment.items_arrived" });
const now = new Date("2016-01-20T10:00:00Z");
const ts = Math.floor(now.getTime() / 1000);
const headers = (sig = signWebhook(secret, "msg_1", ts, body), t = String(ts)) => ({
  "webhook-id": "msg_1",
  "webhook-timestamp": t,
  "webhook-signature": sig,
});

describe("verifyWebhook (Standard Webhooks)", () => {
  it("accepts a correctly signed delivery and returns the body", () => {
    expect(verifyWebhook(secret, headers(), body, { now })).toMatchObject({
      event_type: "inbound_shipment.items_arrived",
    });
  });
  it("accepts when one of several signatures matches (secret rotation)", () => {
    expect(() =>
      verifyWebhook(secret, headers(`v1,AAAA ${signWebhook(secret, "msg_1", ts, body)}`), body, { now }),
    ).not.toThrow();
  });
  it.each([
    ["a changed body", () => verifyWebhook(secret, headers(), body.replace("items", "itemz"), { now })],
    [
      "another secret",
      () => verifyWebhook("whsec_" + Buffer.from("x".repeat(32)).toString("base64"), headers(), body, { now }),
    ],
    [
      "an old timestamp",
      () =>
        verifyWebhook(secret, headers(signWebhook(secret, "msg_1", ts - 301, body), String(ts - 301)), body, { now }),
    ],
    ["a missing header", () => verifyWebhook(secret, { "webhook-id": "msg_1" }, body, { now })],
    [
      "an unknown version",
      () => verifyWebhook(secret, headers(signWebhook(secret, "msg_1", ts, body).replace("v1,", "v2,")), body, { now }),
    ],
  ])("rejects %s", (_name, call) => {
    expect(call).toThrow(WebhookVerificationError);
  });
});

describe("webhook signing shared by server and client", () => {
  const oldSecret = generateWebhookSecret();
  const newSecret = generateWebhookSecret();
  const event = {
    event_id: "5a41e2f3a4b5c6d7e8f9a0b1",
    event_type: "webhook.test",
    webhook_id: "5a40d1e2f3a4b5c6d7e8f9a0",
    ts: "2016-01-20T10:00:00+00:00",
    retry_count: 0,
    payload: { message: "hello" },
  } as const;
  const raw = JSON.stringify(event);

  it("generates secrets in the spec's form", () => {
    expect(oldSecret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(oldSecret.slice(6), "base64")).toHaveLength(32);
    expect(oldSecret).not.toBe(newSecret);
    expect(Buffer.from(generateWebhookSecret(24).slice(6), "base64")).toHaveLength(24);
    expect(() => generateWebhookSecret(8)).toThrow(RangeError);
  });

  it("signs with every secret during a rotation, and the receiver accepts with either", () => {
    const h = webhookHeaders([oldSecret, newSecret], event.event_id, raw, now);
    expect(h["webhook-signature"].split(" ")).toHaveLength(2);
    expect(h["webhook-timestamp"]).toBe(String(ts));
    expect(verifyWebhook(oldSecret, h, raw, { now })).toEqual(event);
    expect(verifyWebhook(newSecret, h, raw, { now })).toEqual(event);
    // A receiver that already knows both secrets, and a delivery signed only with the new one.
    expect(
      verifyWebhook([oldSecret, newSecret], webhookHeaders(newSecret, event.event_id, raw, now), raw, { now }),
    ).toEqual(event);
    expect(() => verifyWebhook(generateWebhookSecret(), h, raw, { now })).toThrow(WebhookVerificationError);
  });

  it("returns the typed event", () => {
    const got = verifyWebhook(newSecret, webhookHeaders(newSecret, event.event_id, raw, now), raw, { now });
    if (Array.isArray(got) || got.event_type !== "webhook.test") throw new Error("expected a test event");
    const message: string = got.payload.message; // narrowed by event_type, from generated/
    expect(message).toBe("hello");
  });

  it("returns a batch as an array of events", () => {
    const batch = JSON.stringify([event, { ...event, event_id: "5a41e2f3a4b5c6d7e8f9a0b2" }]);
    const h = webhookHeaders(newSecret, "5a41e2f3a4b5c6d7e8f9a0b3", batch, now);
    const got = verifyWebhook(newSecret, h, batch, { now });
    expect(Array.isArray(got) && got.map((e) => e.event_id)).toEqual([
      "5a41e2f3a4b5c6d7e8f9a0b1",
      "5a41e2f3a4b5c6d7e8f9a0b2",
    ]);
    expect(verifyWebhookEvents(newSecret, webhookHeaders(newSecret, event.event_id, raw, now), raw, { now })).toEqual([
      event,
    ]);
  });

  it("takes a Headers object, names in any case, and a Buffer body", () => {
    const h = webhookHeaders(newSecret, event.event_id, raw, now);
    expect(verifyWebhook(newSecret, new Headers(h), Buffer.from(raw), { now })).toEqual(event);
    const shouting = Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(newSecret, shouting, raw, { now })).toEqual(event);
  });

  it("accepts a timestamp within the tolerance either way, and a custom tolerance", () => {
    const at = (offset: number) =>
      webhookHeaders(newSecret, event.event_id, raw, new Date(now.getTime() + offset * 1000));
    expect(() => verifyWebhook(newSecret, at(-300), raw, { now })).not.toThrow();
    expect(() => verifyWebhook(newSecret, at(300), raw, { now })).not.toThrow();
    expect(() => verifyWebhook(newSecret, at(301), raw, { now })).toThrow("timestamp outside the tolerance");
    expect(() => verifyWebhook(newSecret, at(-3600), raw, { now, toleranceSeconds: 7200 })).not.toThrow();
  });

  it.each([
    [
      "a tampered body",
      (h: Record<string, string>) => verifyWebhook(newSecret, h, raw.replace("hello", "hellp"), { now }),
    ],
    [
      "a tampered id",
      (h: Record<string, string>) =>
        verifyWebhook(newSecret, { ...h, "webhook-id": "5a41e2f3a4b5c6d7e8f9a0ff" }, raw, { now }),
    ],
    [
      "an old timestamp",
      (h: Record<string, string>) => verifyWebhook(newSecret, h, raw, { now: new Date(now.getTime() + 3_600_000) }),
    ],
    [
      "a timestamp that is not a number",
      (h: Record<string, string>) => verifyWebhook(newSecret, { ...h, "webhook-timestamp": `${ts}.5` }, raw, { now }),
    ],
    ["no webhook-id", ({ "webhook-id": _, ...h }: Record<string, string>) => verifyWebhook(newSecret, h, raw, { now })],
    [
      "no webhook-timestamp",
      ({ "webhook-timestamp": _, ...h }: Record<string, string>) => verifyWebhook(newSecret, h, raw, { now }),
    ],
    [
      "no webhook-signature",
      ({ "webhook-signature": _, ...h }: Record<string, string>) => verifyWebhook(newSecret, h, raw, { now }),
    ],
    [
      "a v2 prefix",
      (h: Record<string, string>) =>
        verifyWebhook(newSecret, { ...h, "webhook-signature": h["webhook-signature"]!.replace("v1,", "v2,") }, raw, {
          now,
        }),
    ],
    [
      "no version prefix",
      (h: Record<string, string>) =>
        verifyWebhook(newSecret, { ...h, "webhook-signature": h["webhook-signature"]!.replace("v1,", "") }, raw, {
          now,
        }),
    ],
    [
      "a truncated signature",
      (h: Record<string, string>) =>
        verifyWebhook(newSecret, { ...h, "webhook-signature": h["webhook-signature"]!.slice(0, -4) }, raw, { now }),
    ],
    [
      "an empty signature header",
      (h: Record<string, string>) => verifyWebhook(newSecret, { ...h, "webhook-signature": "" }, raw, { now }),
    ],
  ])("rejects %s", (_name, call) => {
    expect(() => call(webhookHeaders(newSecret, event.event_id, raw, now))).toThrow(WebhookVerificationError);
  });

  it("rejects a signed body that is not an event", () => {
    for (const body of ["not json", "42", "[1]", '{"no":"type"}']) {
      expect(() =>
        verifyWebhook(newSecret, webhookHeaders(newSecret, "5a41e2f3a4b5c6d7e8f9a0b1", body, now), body, { now }),
      ).toThrow(WebhookVerificationError);
    }
  });

  it("refuses to work without a usable secret", () => {
    const h = webhookHeaders(newSecret, event.event_id, raw, now);
    expect(() => verifyWebhook("", h, raw, { now })).toThrow(TypeError);
    expect(() => verifyWebhook("whsec_", h, raw, { now })).toThrow(TypeError);
    expect(() => verifyWebhook([], h, raw, { now })).toThrow(TypeError);
  });

  it("the server's signing (the standardwebhooks package) and the client's agree, byte for byte, during a rotation too", () => {
    const other = server.generateWebhookSecret();
    expect(other).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const h = server.webhookHeaders([newSecret, other], event.event_id, raw, now);
    expect(h).toEqual(webhookHeaders([newSecret, other], event.event_id, raw, now));
    expect(verifyWebhook(other, h, raw, { now })).toEqual(event);
    expect(verifyWebhook(newSecret, h, raw, { now })).toEqual(event);
  });
});

describe("When a merchant configures the verifier wrongly, it refuses at once instead of accepting old deliveries", () => {
  const dayOld = String(ts - 86_400);
  const dayOldHeaders = headers(signWebhook(secret, "msg_1", ts - 86_400, body), dayOld);

  it.each([NaN, Infinity, -Infinity, 0, -5, 1.5, 86_401, 10 * 365 * 86_400])(
    "a tolerance of %s seconds throws a TypeError, per call and at construction",
    (toleranceSeconds) => {
      expect(() => verifyWebhook(secret, dayOldHeaders, body, { now, toleranceSeconds })).toThrow(TypeError);
      expect(() => createWebhookVerifier(secret, { toleranceSeconds })).toThrow(/toleranceSeconds/);
    },
  );

  it("a secret that decodes to fewer than 16 bytes throws a TypeError, one of several too", () => {
    for (const bytes of [1, 6, 15]) {
      const short = "whsec_" + Buffer.alloc(bytes, 7).toString("base64");
      expect(() => verifyWebhook(short, headers(), body, { now })).toThrow(/at least 16/);
      expect(() => createWebhookVerifier([secret, short])).toThrow(TypeError);
    }
    const sixteen = "whsec_" + Buffer.alloc(16, 7).toString("base64");
    expect(() => createWebhookVerifier(sixteen)).not.toThrow();
  });

  it("a verifier made once checks deliveries like verifyWebhook, with its tolerance", () => {
    const verifier = createWebhookVerifier(secret, { toleranceSeconds: 60 });
    expect(verifier.verifyEvents(headers(), body, now)).toHaveLength(1);
    const old = String(ts - 61);
    expect(() => verifier.verify(headers(signWebhook(secret, "msg_1", ts - 61, body), old), body, now)).toThrow(
      WebhookVerificationError,
    );
  });
});
