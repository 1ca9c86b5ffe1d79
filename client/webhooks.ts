// Verifies Standard Webhooks signatures: webhook-signature = "v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>".
import { createHmac, timingSafeEqual } from "node:crypto";

export class WebhookVerificationError extends Error {}

export interface VerifyOptions {
  /** Seconds a delivery may be old or early; default 300. Protects against replay. */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Checks a delivery and returns its parsed body. `secret` is the endpoint's signing secret as shown
 * once at creation (`whsec_<base64>`); `body` is the raw request body, exactly as received.
 */
export function verifyWebhook(secret: string, headers: Record<string, string | string[] | undefined>, body: string, opts: VerifyOptions = {}): unknown {
  const header = (name: string) => {
    const v = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = header("webhook-id");
  const timestamp = header("webhook-timestamp");
  const signatures = header("webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");
  const ts = Number(timestamp);
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (!Number.isInteger(ts) || Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) throw new WebhookVerificationError("timestamp outside the tolerance");
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  const ok = signatures.split(" ").some((s) => {
    const [version, sig] = s.split(",");
    if (version !== "v1" || !sig) return false;
    const given = Buffer.from(sig, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new WebhookVerificationError("no matching signature");
  return JSON.parse(body);
}

/** The signing side, shared with the server's dispatcher so both follow one definition. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}
