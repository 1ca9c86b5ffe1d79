import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError } from "../../client/index.ts";

const secret = "whsec_" + Buffer.from("0123456789abcdef0123456789abcdef").toString("base64");
const body = JSON.stringify({ event_id: "569c9d3ab7e4f1a2c3d4e5f6", event_type: "inbound_shipment.items_arrived" });
const now = new Date("2016-01-20T10:00:00Z");
const ts = Math.floor(now.getTime() / 1000);
const headers = (sig = signWebhook(secret, "msg_1", ts, body), t = String(ts)) => ({ "webhook-id": "msg_1", "webhook-timestamp": t, "webhook-signature": sig });

describe("verifyWebhook (Standard Webhooks)", () => {
  it("accepts a correctly signed delivery and returns the body", () => {
    expect(verifyWebhook(secret, headers(), body, { now })).toMatchObject({ event_type: "inbound_shipment.items_arrived" });
  });
  it("accepts when one of several signatures matches (secret rotation)", () => {
    expect(() => verifyWebhook(secret, headers(`v1,AAAA ${signWebhook(secret, "msg_1", ts, body)}`), body, { now })).not.toThrow();
  });
  it.each([
    ["a changed body", () => verifyWebhook(secret, headers(), body.replace("items", "itemz"), { now })],
    ["another secret", () => verifyWebhook("whsec_" + Buffer.from("x".repeat(32)).toString("base64"), headers(), body, { now })],
    ["an old timestamp", () => verifyWebhook(secret, headers(signWebhook(secret, "msg_1", ts - 301, body), String(ts - 301)), body, { now })],
    ["a missing header", () => verifyWebhook(secret, { "webhook-id": "msg_1" }, body, { now })],
    ["an unknown version", () => verifyWebhook(secret, headers(signWebhook(secret, "msg_1", ts, body).replace("v1,", "v2,")), body, { now })],
  ])("rejects %s", (_name, call) => {
    expect(call).toThrow(WebhookVerificationError);
  });
});
