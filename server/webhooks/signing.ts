// Standard Webhooks signing with the specification's own reference package; the client package verifies
// with its own dependency-free code, so every delivery test checks the two against each other.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the spec's WebhookSecret). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The three headers of one attempt: one `v1,` signature per secret (two during a rotation) over exactly `body`. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  body: string,
  at: Date,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((s) => new Webhook(s).sign(id, at, body)).join(" "),
  };
}
