// A shipment's arrivals on its open page in the merchant portal (issue 50 item 5): while a shop's staff member has
// the page open, arrivals the warehouse records through the API (a warehouse user at a station, and a warehouse
// system with the shared W-... credentials, with a correction) appear without a reload, each with who recorded it
// and when, in the page's language; the status and its timeline follow. The page's clock is Playwright's, so the
// test moves the page's poll on instead of waiting for it. At 1280 px in English and at 360 px in Finnish (chosen
// with the language switch); axe-core, no sideways scroll; screenshots in
// .tmp/screenshots/<db>/portal-arrivals-*.png.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { LIVE_POLL_MS } from "../../portal/src/pages/shipments/live.ts";
import { provisionWarehouseUser } from "../../server/warehouse/users.ts";
import { announcement, arrive, createShipment, getShipment } from "../helpers/fixtures.ts";
import {
  checkScreen,
  expectPlainWords,
  openPortal,
  portalUser,
  startPortalRig,
  type PortalRig,
} from "../helpers/portal.ts";
import { stationSignIn, type StationUser } from "../helpers/station.ts";

const MERCHANT = "live-arrivals.example.com";
const USER = { email: "staff@live-arrivals.example.com", password: "live-arrivals-pw" };
const RECEIVER = { email: "maija@live-arrivals-wh.example.com", password: "maija-station-1", name: "Maija Virtanen" };
const SYSTEM = "live-arrivals-wms";

let rig: PortalRig;
let m: LogisticsClient;
let wms: LogisticsClient;
let maija: StationUser;

beforeAll(async () => {
  rig = await startPortalRig();
  m = await portalUser(rig, MERCHANT, USER.email, USER.password);
  wms = await rig.srv.operator(SYSTEM);
  await provisionWarehouseUser(rig.srv.handle.db, RECEIVER.email, RECEIVER.password, { name: RECEIVER.name });
  maija = await stationSignIn(rig.srv, RECEIVER.email, RECEIVER.password);
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

/** The arrivals table's rows as their cells' text (on a phone the header row is hidden: rows with cells only). */
const rowsOf = (page: Page, title: string) =>
  page
    .getByRole("table", { name: title })
    .getByRole("row")
    .filter({ has: page.getByRole("cell") })
    .evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent)));

/** What the test reads on the page, in each language it opens (the catalogue's words, written out). */
const WORDS = {
  en: {
    title: "Arrivals",
    none: "Nothing has arrived yet.",
    live: "New arrivals show here as the warehouse records them.",
    status: "Being received",
    received: /^Being received\b/,
    correction: "-1 (correction)",
    system: `Warehouse system ${SYSTEM}`,
    timeline: "Status timeline",
  },
  fi: {
    title: "Saapuneet",
    none: "Mitään ei ole vielä saapunut.",
    live: "Uudet saapumiset näkyvät tässä sitä mukaa kuin varasto kirjaa ne.",
    status: "Vastaanotetaan",
    received: /^Vastaanotetaan\b/,
    correction: "\u22121 (korjaus)", // Finnish writes a minus sign
    system: `Varaston järjestelmä ${SYSTEM}`,
    timeline: "Tilan muutokset",
  },
};

/** An arrival's time yesterday (UTC), minutes apart: the rows' order and each row's own time are then certain. */
const at = (h: number, min: number) =>
  `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)}T${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}:00+00:00`;

// At both widths, each in its own language: on a phone the arrivals table becomes a stack of cards, read row by row.
describe("a shipment's arrivals on its open page", () => {
  it.each([
    [1280, "en", "en-GB"],
    [360, "fi", "fi-FI"],
  ] as const)(
    "at %i px in %s: arrivals recorded through the API appear without a reload, with who recorded each and when",
    async (width, language, locale) => {
      const ref = `PO-LIVE-${width}`;
      const id = await createShipment(m, announcement({ merchants_ref: ref }));
      const portal = await openPortal(rig, width, { as: USER, clock: true, hash: `/shipments/${id}` });
      const { page, errors } = portal;
      if (language !== "en") await page.getByLabel("Language").selectOption(language);
      const say = WORDS[language];
      await page.getByRole("heading", { level: 1, name: ref, exact: true }).waitFor();
      await page.getByText(say.none).waitFor();
      expect(await page.getByText(say.live).count()).toBe(1);
      // A mark in this document: still there at the end, so nothing reloaded the page.
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

      // The warehouse records: Maija at a station (2, then a carton of 5), the warehouse's system a correction.
      const p = { params: { path: { shipment_id: id } } };
      const ok = async (r: Promise<{ response: Response }>) => expect((await r).response.status).toBe(200);
      await ok(
        maija.client.POST("/inbound_shipments/{shipment_id}/arrivals", {
          ...p,
          body: { ts: at(9, 5), arrivals: [{ merchants_id: "SKU-1001", change: 2 }] },
        }),
      );
      await page.clock.runFor(LIVE_POLL_MS);
      await expect.poll(() => rowsOf(page, say.title).then((r) => r.length)).toBe(1);
      await ok(
        maija.client.POST("/inbound_shipments/{shipment_id}/arrivals", {
          ...p,
          body: { ts: at(9, 12), arrivals: [{ merchants_id: "SKU-1002", change: 5 }] },
        }),
      );
      await ok(arrive(wms, id, [{ merchants_id: "SKU-1001", change: -1 }], at(9, 30)));
      await page.clock.runFor(LIVE_POLL_MS);
      await expect.poll(() => rowsOf(page, say.title).then((r) => r.length)).toBe(3);

      // Each row as the API has it: when (in the page's language), what, how many, and who.
      const shipment = await getShipment(m, id);
      const entries = shipment.products
        .flatMap((l) => l.arrivals.map((a) => ({ ...a, name: l.product.name })))
        .sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
      const when = await page.evaluate(
        ({ ts, locale }) =>
          ts.map((t) =>
            new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(t)),
          ),
        { ts: entries.map((e) => e.ts), locale },
      );
      expect(await rowsOf(page, say.title)).toEqual([
        [when[0], "Blue T-shirt M", "+2", RECEIVER.name],
        [when[1], "Blue T-shirt L", "+5", RECEIVER.name],
        [when[2], "Blue T-shirt M", say.correction, say.system],
      ]);
      // The status and its timeline follow the first arrival without a reload.
      await expect.poll(() => page.locator("dl.facts dd").first().textContent()).toBe(say.status);
      await expect
        .poll(() => page.getByRole("list", { name: say.timeline }).getByRole("listitem").allTextContents())
        .toEqual([expect.any(String), expect.stringMatching(say.received)]);
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
      await checkScreen(page, `arrivals-${language}`);
      await expectPlainWords(page);
      expect(errors).toEqual([]);
      await portal.close();
    },
    120_000,
  );
});
