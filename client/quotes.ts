// Checking a quote on your backend: the checkout picker (or your page) gives you the quote of the option your
// customer chose; never trust the price or pickup point a browser sends, check the quote against your own cart.
//
//   import { verifyQuote } from "@logistics-api/client/quotes";
//   const keys = await (await fetch(`${baseUrl}/quote_keys`)).json(); // keep them; fetch again on an unknown kid
//   const check = verifyQuote(quote, { keys, merchantId: "shop.example.com", cart: { weight: 1200, cart_value: 59.9, item_count: 2, tags: [] } });
//   if (!check.valid) refuse(check.message); else charge(check.quote.price);
//
// merchantId is required (dangerouslyAcceptAnyMerchant: true skips that check, for a backend that compares
// quote.merchant_id itself). A quote stays valid for several orders until it expires.
//
// Offline: the signature is Ed25519 with the service's public keys (GET /quote_keys); node:crypto, no network.
export {
  verifyQuote,
  type CartFacts,
  type QuoteCheck,
  type QuoteFacts,
  type QuoteKey,
  type QuoteKeySet,
  type QuotePayload,
  type QuoteProblem,
  type VerifyOptions,
} from "../server/quotes/format.ts";
