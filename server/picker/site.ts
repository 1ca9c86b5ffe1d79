// The checkout picker's scripts (built by `npm run build` into dist/picker), served for shops' pages on any origin:
// /picker.js (a classic <script>, which needs no CORS) and, when the operator set a map tile URL, /picker-map.js
// (the map, an ES module that picker.js imports when a shopper opens the map: CORS for every origin). The map's
// settings are written into picker.js over its placeholder (client/picker/map-switch.ts), so the picker knows them
// without a request of its own. With SEED_DEMO, a demo shop page at /demo/checkout shows it working with the demo
// merchant's publishable key.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Router, type Response } from "express";
import { fromRoot } from "../shared/paths.ts";
import { DEMO_PUBLISHABLE_KEY } from "../publishable-keys/demo.ts";

/** The operator's map (PICKER_MAP_TILE_URL, PICKER_MAP_ATTRIBUTION); none, no map. */
export interface PickerMap {
  tileUrl: string;
  attribution: string;
}

/** What picker.js holds where the server writes the map's settings (client/picker/map-switch.ts). */
export const MAP_PLACEHOLDER = '"__LOGISTICS_PICKER_MAP__"';

const demoCsp = (map: PickerMap | undefined) =>
  `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self'${map ? ` ${tileSource(map.tileUrl)}` : ""}; frame-ancestors 'none'; base-uri 'none'; object-src 'none'`;

/** The CSP source of a tile URL template's server: `https://*.tile.example` when its host starts with `{s}.`. */
export function tileSource(template: string): string {
  const url = new URL(template.replace(/\{[szxyr]\}/g, "0"));
  return template.includes("//{s}.") ? `${url.protocol}//*.${url.host.slice(2)}` : url.origin;
}

export function pickerSite(opts: { dir?: string; demo?: boolean; map?: PickerMap } = {}): Router {
  const dir = opts.dir ?? fromRoot("dist/picker");
  const { map } = opts;
  const settings = map && JSON.stringify(JSON.stringify({ tiles: map.tileUrl, attribution: map.attribution }));
  const r = Router();
  r.get(
    "/picker.js",
    script(path.join(dir, "picker.js"), (bytes) =>
      settings ? Buffer.from(bytes.toString("utf8").replace(MAP_PLACEHOLDER, settings)) : bytes,
    ),
  );
  // picker-map.js is imported as a module, which a page of another origin may only do with CORS.
  if (map)
    r.get("/picker-map.js", script(path.join(dir, "picker-map.js"), undefined, { "Access-Control-Allow-Origin": "*" }));
  if (opts.demo) {
    r.get("/demo/checkout", (_req, res) => {
      res.set({ "Content-Security-Policy": demoCsp(map), "Cache-Control": "no-cache" });
      res.type("html").send(DEMO_PAGE);
    });
    r.get("/demo/checkout.js", (_req, res) => {
      res.set({ "Cache-Control": "no-cache" });
      res.type("text/javascript").send(DEMO_SCRIPT);
    });
  }
  return r;
}

/** A built script, read again when its file changes, `edit`ed once per read. */
function script(file: string, edit: (bytes: Buffer) => Buffer = (b) => b, headers: Record<string, string> = {}) {
  let cached: { mtimeMs: number; bytes: Buffer } | undefined;
  return (_req: unknown, res: Response) => {
    if (!existsSync(file)) {
      return void res
        .status(503)
        .type("text/plain")
        .send("The picker is not built: run `npm run build` (npm start does).");
    }
    const { mtimeMs } = statSync(file);
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, bytes: edit(readFileSync(file)) };
    res.set({
      "Content-Type": "text/javascript; charset=utf-8",
      // Short: a shop's pages pick up a new release within minutes, with no version in the URL to change.
      "Cache-Control": "public, max-age=300",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "cross-origin",
      ...headers,
    });
    res.send(cached.bytes);
  };
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
