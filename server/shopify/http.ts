// Shopify's carrier service, keyed by operationId: the merchant's callback tokens, and the callback itself, which
// answers Shopify in Shopify's format and never with a server error (Shopify shows the shop's backup rates then).
import { createHmac, timingSafeEqual } from "node:crypto";
import { announceCacheChange } from "../db/cache-signal.ts";
import type { HandlersWith } from "../operations.ts";
import type { Caches } from "../shipping/shipping-options.ts";
import type { Clock } from "../shared/clock.ts";
import { AppError } from "../shared/errors.ts";
import type { MainKeys } from "../secrets/main-keys.ts";
import { shopifyRates } from "./rates.ts";
import * as tokens from "./tokens.ts";

/** Whether `signature` is Shopify's for `body` under `secret`: base64 HMAC-SHA256 of the bytes as sent. */
export function shopifySigned(body: Buffer | undefined, secret: string, signature: string | undefined): boolean {
  if (!signature || !body) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const shopifyHandlers = {
  listCarrierServiceTokens: async (c) => ({ status: 200, body: await tokens.listTokens(c.db, c.principal) }),
  createCarrierServiceToken: (c, { keys }) =>
    c.idempotent(async (trx) => ({ status: 201, body: await tokens.createToken(trx, c.principal, c.body, keys) }), {
      sealWith: keys,
    }),
  revokeCarrierServiceToken: async (c) => ({
    status: 200,
    body: await c.transaction(async (trx) => {
      const body = await tokens.revokeToken(trx, c.principal, c.path.token_id);
      await announceCacheChange(trx);
      return body;
    }),
  }),
  getShopifyRates: async (c, { keys, caches, clock }) => {
    const token = await tokens.workingToken(c.db, c.path.callback_token, keys);
    if (!token) throw new AppError("not_found", "This callback URL is not known or was revoked.");
    if (token.appSecret !== null && !shopifySigned(c.rawBody, token.appSecret, c.header("x-shopify-hmac-sha256")))
      throw new AppError(
        "unauthorized",
        "The request's X-Shopify-Hmac-Sha256 signature does not match the app secret.",
      );
    try {
      return { status: 200, body: await shopifyRates(c.db, caches, token, c.body, clock.now()) };
    } catch (err) {
      // No rates rather than an error Shopify would show as one: it offers the shop's backup rates instead. The
      // operator's log says why the rates were empty.
      c.logFailure(err, "Shopify's carrier service answered no rates: working them out failed");
      return { status: 200, body: { rates: [] } };
    }
  },
} satisfies HandlersWith<{ keys: MainKeys; caches: Caches; clock: Clock }>;
