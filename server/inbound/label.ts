// The receiving label a merchant sends to its supplier: the shipment's id as a Code 128 barcode (what the
// warehouse's station scans to open the shipment, drawn by bwip-js as SVG) and in text, with the merchant, the
// reference, the expected date and what is announced, as a page to print on A6 or A4. Plain words in English,
// Finnish or Swedish; no script, its one style sheet allowed by its digest.
import { createHash } from "node:crypto";
import escapeHtml from "escape-html";
import type { InboundShipment } from "../../generated/api.ts";
import type { ValidatedQuery } from "../shared/contract.ts";

type Lang = NonNullable<ValidatedQuery<"getInboundShipmentLabel">["lang"]>;
type Size = NonNullable<ValidatedQuery<"getInboundShipmentLabel">["size"]>;

interface LabelWords {
  title: string;
  barcode: (id: string) => string;
  merchant: string;
  reference: string;
  sender: string;
  expected: string;
  notGiven: string;
  announced: string;
  lines: (n: number) => string;
  items: (n: number) => string;
  attach: string;
  locale: string;
}

const WORDS: Record<Lang, LabelWords> = {
  en: {
    title: "Receiving label",
    barcode: (id) => `Barcode of shipment ${id}`,
    merchant: "Merchant",
    reference: "Reference",
    sender: "Sender",
    expected: "Expected at the warehouse",
    notGiven: "Not given",
    announced: "Announced",
    lines: (n) => `${n} ${n === 1 ? "product" : "products"}`,
    items: (n) => `${n} ${n === 1 ? "item" : "items"}`,
    attach: "Attach this label to the delivery. The warehouse scans the barcode when the goods arrive.",
    locale: "en-GB",
  },
  fi: {
    title: "Vastaanottotarra",
    barcode: (id) => `Lähetyksen ${id} viivakoodi`,
    merchant: "Kauppias",
    reference: "Viite",
    sender: "Lähettäjä",
    expected: "Odotetaan varastoon",
    notGiven: "Ei ilmoitettu",
    announced: "Ilmoitettu",
    lines: (n) => `${n} ${n === 1 ? "tuote" : "tuotetta"}`,
    items: (n) => `${n} kpl`,
    attach: "Kiinnitä tämä tarra lähetykseen. Varasto lukee viivakoodin, kun tavarat saapuvat.",
    locale: "fi-FI",
  },
  sv: {
    title: "Mottagningsetikett",
    barcode: (id) => `Streckkod för försändelse ${id}`,
    merchant: "Handlare",
    reference: "Referens",
    sender: "Avsändare",
    expected: "Väntas till lagret",
    notGiven: "Inte angivet",
    announced: "Aviserat",
    lines: (n) => `${n} ${n === 1 ? "produkt" : "produkter"}`,
    items: (n) => `${n} st.`,
    attach: "Fäst den här etiketten på leveransen. Lagret läser streckkoden när varorna kommer.",
    locale: "sv-SE",
  },
};

const PAPER: Record<Size, { page: string; width: string; bars: string; text: string }> = {
  a6: { page: "A6", width: "93mm", bars: "22mm", text: "10pt" },
  a4: { page: "A4", width: "180mm", bars: "40mm", text: "14pt" },
};

const styleOf = (size: Size) => {
  const p = PAPER[size];
  return `@page{size:${p.page};margin:6mm}
*{box-sizing:border-box}
body{margin:0;font:${p.text}/1.35 system-ui,sans-serif;color:#000;background:#fff}
main{width:${p.width};max-width:100%;margin:0 auto;padding:2mm 0}
h1{font-size:1.3em;margin:0 0 2mm}
.bars{display:block;width:100%;height:${p.bars}}
.code{font:1.15em/1.2 ui-monospace,monospace;letter-spacing:.08em;text-align:center;margin:1mm 0 3mm;word-break:break-all}
dl{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,3fr);gap:1mm 4mm;margin:0 0 3mm}
dt{font-weight:600}dd{margin:0;overflow-wrap:break-word}
p{margin:0}
@media screen{main{padding:3mm}}`;
};

/** Each size's style sheet and its digest, which the page's Content-Security-Policy allows (and nothing else). */
const STYLES = Object.fromEntries(
  (Object.keys(PAPER) as Size[]).map((size) => {
    const css = styleOf(size);
    return [size, { css, hash: createHash("sha256").update(css).digest("base64") }];
  }),
) as Record<Size, { css: string; hash: string }>;

export const labelHeaders = (size: Size) => ({
  "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${STYLES[size].hash}'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "private, no-cache",
});

// bwip-js is loaded when the first label is asked for, not at every start of the server.
let barcodes: Promise<typeof import("bwip-js/node")> | undefined;

/** The Code 128 bars of `text` as SVG, stretched to the box CSS gives it, with a quiet zone on both sides. */
async function code128(text: string, label: string): Promise<string> {
  const bwip = await (barcodes ??= import("bwip-js/node"));
  const svg = bwip.toSVG({ bcid: "code128", text, height: 10, paddingwidth: 10, includetext: false });
  return svg.replace(
    "<svg ",
    `<svg class="bars" preserveAspectRatio="none" shape-rendering="crispEdges" role="img" aria-label="${escapeHtml(label)}" `,
  );
}

/** The label's page: `size` a6 (the default) or a4, `lang` en (the default), fi or sv. */
export async function renderLabel(
  s: InboundShipment,
  merchantId: string,
  query: ValidatedQuery<"getInboundShipmentLabel">,
): Promise<{ html: string; headers: Record<string, string> }> {
  const size = query.size ?? "a6";
  const w = WORDS[query.lang ?? "en"];
  const items = s.products.reduce((sum, l) => sum + l.qty, 0);
  const day = (date: string) =>
    new Intl.DateTimeFormat(w.locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${query.lang ?? "en"}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(w.title)} ${e(s.merchants_ref)}</title>
<style>${STYLES[size].css}</style></head>
<body><main>
<h1>${e(w.title)}</h1>
${await code128(s.id, w.barcode(s.id))}
<p class="code">${e(s.id)}</p>
<dl>
<dt>${e(w.merchant)}</dt><dd>${e(merchantId)}</dd>
<dt>${e(w.reference)}</dt><dd>${e(s.merchants_ref)}</dd>
<dt>${e(w.sender)}</dt><dd>${e(s.sender_name)}</dd>
<dt>${e(w.expected)}</dt><dd>${e(s.expected_at_wh ? day(s.expected_at_wh) : w.notGiven)}</dd>
<dt>${e(w.announced)}</dt><dd>${e(`${w.lines(s.products.length)}, ${w.items(items)}`)}</dd>
</dl>
<p>${e(w.attach)}</p>
</main></body>
</html>
`;
  return { html, headers: labelHeaders(size) };
}
