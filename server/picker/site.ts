// The checkout picker's script (built by `npm run build` into dist/picker), served at /picker.js for shops' pages
// on any origin (a classic <script>, which needs no CORS), and with SEED_DEMO a demo shop page at /demo/checkout
// that shows it working with the demo merchant's publishable key.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Router } from "express";
import { fromRoot } from "../shared/paths.ts";
import { DEMO_PUBLISHABLE_KEY } from "../publishable-keys/demo.ts";

const DEMO_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

export function pickerSite(opts: { dir?: string; demo?: boolean } = {}): Router {
  const file = path.join(opts.dir ?? fromRoot("dist/picker"), "picker.js");
  let cached: { mtimeMs: number; bytes: Buffer } | undefined;
  const r = Router();
  r.get("/picker.js", (_req, res) => {
    if (!existsSync(file)) {
      return void res
        .status(503)
        .type("text/plain")
        .send("The picker is not built: run `npm run build` (npm start does).");
    }
    const { mtimeMs } = statSync(file);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, bytes: readFileSync(file) };
    res.set({
      "Content-Type": "text/javascript; charset=utf-8",
      // Short: a shop's pages pick up a new release within minutes, with no version in the URL to change.
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "cross-origin",
    });
    res.send(cached.bytes);
  });
  if (opts.demo) {
    r.get("/demo/checkout", (_req, res) => {
      res.set({ "Content-Security-Policy": DEMO_CSP, "Cache-Control": "no-cache" });
      res.type("html").send(DEMO_PAGE);
    });
    r.get("/demo/checkout.js", (_req, res) => {
      res.set({ "Cache-Control": "no-cache" });
      res.type("text/javascript").send(DEMO_SCRIPT);
    });
  }
  return r;
}

const DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo shop checkout</title>
<style>
  body { font-family: Georgia, serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  logistics-shipping-picker { --logistics-accent: #7a3e00; --logistics-radius: 0; }
  pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; padding: 1rem; font-size: .8rem; }
</style>
</head>
<body>
<main>
<h1>Demo shop: checkout</h1>
<p>A shop's checkout page with the shipping picker of the demo merchant (demo.example.com), its prices and the
demo pickup points. The page pastes five lines (see <a href="/docs">the docs</a>, "Checkout picker"); the choice
arrives as an event with a signed quote, which the shop's backend checks before it trusts the price.</p>
<script src="/picker.js"></script>
<logistics-shipping-picker key="${DEMO_PUBLISHABLE_KEY}" postalcode="20780" country="FI" weight="1200" cart-value="59.80" item-count="2"></logistics-shipping-picker>
<h2>What the page received</h2>
<pre id="picked">Nothing chosen yet.</pre>
</main>
<script src="/demo/checkout.js"></script>
</body>
</html>
`;

const DEMO_SCRIPT = `document.addEventListener("logistics-pick", (e) => {
  if (!e.detail) {
    document.getElementById("picked").textContent = "Nothing chosen: the choice was cleared (another postal code or cart).";
    return;
  }
  const { quote, ...choice } = e.detail;
  const payload = JSON.parse(atob(quote.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
  document.getElementById("picked").textContent =
    JSON.stringify({ method: choice.method, pickup_point: choice.pickup_point && choice.pickup_point.name, price: choice.price }, null, 2) +
    "\\n\\nThe quote says (the shop's backend checks its signature and facts with verifyQuote):\\n" +
    JSON.stringify(payload, null, 2);
});
`;
