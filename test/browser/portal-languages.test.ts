// One language per page (issue 56): each portal page, opened in Finnish and in Swedish (chosen with the portal's
// language switch), shows no English word of the English words catalogue. The rule, made precise:
// - an English word is a word (a run of letters) of the English catalogue's texts that neither the Finnish nor the
//   Swedish catalogue uses, nor the platform's names of countries in them (so "Posti", "Status" or "Webhooks",
//   which the languages share, and the "of" of "Isle of Man" in Swedish, never count);
// - what the page shows is its text and the names and hints a person reads or hears (aria-label, placeholder, title,
//   alt, the column names a phone shows beside each cell), with three things left out: what this test itself stored
//   (the shop's name, an email, a shipment's reference: a person's data is in no language), code shown as code
//   (<code>, <pre>: a webhook's JSON, a snippet), what is marked as another language (lang="en" on "English" in
//   the language switch) and what is marked as not to be translated (translate="no": the time zone database's
//   names of zones, "America/Tell_City");
// - the page is in the language the switch chose (<html lang>), its title too.
// One signed-in browser for the file, at one width: the words do not change with the width.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CATALOGUES, type Lang } from "../../portal/src/words/index.ts";
import { announcement, arrive, createShipment } from "../helpers/fixtures.ts";
import { openPortal, portalUser, startPortalRig, type PortalRig } from "../helpers/portal.ts";

const MERCHANT = "kauppa.esimerkki.fi";
const USER = { email: "maija@kauppa.esimerkki.fi", password: "portal-languages-pw" };
const ENDPOINT = "http://127.0.0.1:9/vastaanotto";
const PRICE_LIST = {
  name: "Noutohinnasto",
  method: "pickup" as const,
  currency: "EUR" as const,
  tax: 25.5,
  fallback_price: 5.9,
  pricing_rules: [
    {
      description: "Raskas",
      criteria: [{ fact: "order.total_weight" as const, op: ">" as const, value: 10000 }],
      price: 7.9,
    },
  ],
  modification_rules: [
    {
      description: "Kanta-asiakas",
      criteria: [{ fact: "order.tags" as const, op: "contains" as const, value: "vip" }],
      adjust: "multiply" as const,
      amount: 0.9,
    },
  ],
};
/** The warehouse system that records an arrival: the shipment page names it by its id. */
const OPERATOR = "varasto-1";
const KEY = { name: "Verkkokauppa", origins: ["https://kauppa.esimerkki.fi"] };
const SHIPMENT = announcement({
  merchants_ref: "OT-2026-117",
  sender_name: "Tukku Oy",
  products: [
    { merchants_id: "KAHVI-500", name: "Kahvi 500 g", gtin: "6410405082657", qty: 10 },
    { merchants_id: "TEE-20", name: "", gtin: "", qty: 5, purchasePrice: 2.5 },
  ],
});
/** Everything this test stores, which the pages show as it was given. */
const DATA = [
  MERCHANT,
  USER.email,
  ENDPOINT,
  OPERATOR,
  KEY.name,
  PRICE_LIST.name,
  ...PRICE_LIST.pricing_rules.map((r) => r.description),
  ...PRICE_LIST.modification_rules.map((r) => r.description),
  ...KEY.origins,
  SHIPMENT.merchants_ref,
  SHIPMENT.sender_name,
  ...SHIPMENT.products.flatMap((p) => [p.merchants_id, p.name ?? ""]),
].filter(Boolean);

let rig: PortalRig;
let routes: Record<string, string>;

beforeAll(async () => {
  rig = await startPortalRig({ webhooks: { allowPrivateNetworks: true, retrySchedule: [] } });
  const m = await portalUser(rig, MERCHANT, USER.email, USER.password);
  const shipment = await createShipment(m, SHIPMENT);
  await arrive(await rig.srv.operator(OPERATOR), shipment, [{ merchants_id: "KAHVI-500", change: 4 }]);
  expect((await m.POST("/publishable_keys/_create", { body: KEY })).response.status).toBe(201);
  const list = await m.POST("/merchant/price_lists/_create", { body: PRICE_LIST });
  expect(list.response.status, JSON.stringify(list.error)).toBe(201);
  const ep = await m.POST("/webhook_endpoints/_create", { body: { url: ENDPOINT, event_types: ["webhook.test"] } });
  expect(ep.response.status).toBe(201);
  const test = await m.POST("/webhook_endpoints/{webhook_id}/_test", {
    params: { path: { webhook_id: ep.data!.id } },
  });
  expect(test.response.status).toBeLessThan(300);
  const deliveries = await m.GET("/webhook_endpoints/{webhook_id}/deliveries", {
    params: { path: { webhook_id: ep.data!.id } },
  });
  const delivery = deliveries.data!.items[0]!.id;
  routes = {
    shipments: "/shipments",
    announce: "/shipments/new",
    shipment: `/shipments/${shipment}`,
    edit: `/shipments/${shipment}/edit`,
    webhooks: "/webhooks",
    endpoint: `/webhooks/${ep.data!.id}`,
    delivery: `/webhooks/${ep.data!.id}/deliveries/${delivery}`,
    password: "/password",
    checkout: "/checkout",
    users: "/users",
    pricing: "/pricing",
  };
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

/** The words of a text, lower case. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/\p{L}+/gu) ?? [];

/** Every text of a catalogue: its strings, and what its sentences say around a number and a name. */
function textsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "function") {
    for (const args of [
      [2, "2", "2"],
      ["2", 2, "2"],
      [1, "2", "2"],
    ]) {
      try {
        const said: unknown = (value as (...a: unknown[]) => unknown)(...args);
        textsOf(said, out);
      } catch {
        // A sentence that needs another kind of argument: its other forms are read.
      }
    }
  } else if (Array.isArray(value)) for (const v of value) textsOf(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) textsOf(v, out);
  return out;
}

/** The countries a shop may deliver to (the spec's CountryCode), which the pages name in the platform's words. */
const COUNTRIES: string[] = JSON.parse(readFileSync("generated/openapi.json", "utf8")).components.schemas.CountryCode
  .enum;
/** A language's words: its catalogue's, and the platform's names of countries in it ("Isle of Man" is Swedish too). */
const vocabulary = (lang: Lang) => {
  const names = new Intl.DisplayNames([lang], { type: "region" });
  return new Set([...textsOf(CATALOGUES[lang]), ...COUNTRIES.map((c) => names.of(c) ?? "")].flatMap(wordsOf));
};
const [EN, FI, SV] = (["en", "fi", "sv"] as const).map(vocabulary);
/** The English catalogue's words that neither other language uses. */
const ENGLISH = new Set([...EN!].filter((w) => !FI!.has(w) && !SV!.has(w)));

/** What a person reads or hears on the page, as the rule above says. */
function shown(page: Page): Promise<string> {
  return page.evaluate(() => {
    const pageLang = document.documentElement.lang;
    const parts: string[] = [];
    const visit = (el: Element) => {
      if (el.matches("code, pre, script, style, template, [translate=no]")) return;
      const lang = el.getAttribute("lang");
      if (lang && el !== document.documentElement && lang.split("-")[0] !== pageLang) return;
      for (const a of ["aria-label", "placeholder", "title", "alt", "data-label"]) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
      for (const n of el.childNodes) {
        if (n.nodeType === Node.TEXT_NODE) parts.push(n.textContent ?? "");
        else if (n.nodeType === Node.ELEMENT_NODE) visit(n as Element);
      }
    };
    visit(document.body);
    parts.push(document.title);
    return parts.join("\n");
  });
}

/** The English words on the page now (each once, in order). */
async function englishOn(page: Page): Promise<string[]> {
  let text = await shown(page);
  for (const d of DATA) text = text.split(d).join(" ");
  return [...new Set(wordsOf(text).filter((w) => ENGLISH.has(w)))];
}

/** The page at `route` once it has loaded what it shows. */
async function open(page: Page, route: string) {
  await page.evaluate((r) => (window.location.hash = r), route);
  await page.locator("h1").first().waitFor();
  await page.waitForFunction(() => document.querySelectorAll("[aria-busy=true]").length === 0);
}

it("the rule has English words to look for, and none that Finnish or Swedish use", () => {
  expect(ENGLISH.size).toBeGreaterThan(500);
  for (const w of ["shipments", "webhooks", "loading", "posti", "status"])
    expect(ENGLISH.has(w), w).toBe(w === "shipments" || w === "loading");
});

it("shows each portal page in Finnish and in Swedish with no English word on it", { timeout: 180_000 }, async () => {
  const { page, errors, close } = await openPortal(rig, 1280, { as: USER });
  const found: Record<string, string[]> = {};
  const expected: Record<string, string[]> = {};
  for (const lang of ["fi", "sv"] as const) {
    await page.locator("select.language").selectOption(lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang);
    for (const [name, route] of Object.entries(routes)) {
      await open(page, route);
      found[`${lang} ${name}`] = await englishOn(page);
      expected[`${lang} ${name}`] = [];
    }
  }
  expect(found).toEqual(expected);
  // Not an empty look: the pages were read, in their language.
  expect(await shown(page)).toContain(CATALOGUES.sv.common.signOut);
  await page.locator("select.language").selectOption("en");
  expect(errors).toEqual([]);
  await close();
});

it("the sign-in page in a Finnish or Swedish browser has no English word on it", async () => {
  for (const locale of ["fi-FI", "sv-FI"]) {
    const { page, errors, close } = await openPortal(rig, 1280, { locale });
    await page.locator("form").waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.slice(0, 2));
    expect({ [locale]: await englishOn(page) }).toEqual({ [locale]: [] });
    expect(errors).toEqual([]);
    await close();
  }
});
