// The receiving label in a real browser: a shop's staff member opens a shipment in the portal, follows its label
// link (A6, and A4 on a sheet) to the API's printable page in a tab of its own, and the page's screenshot is read by
// a barcode decoder (zxing-wasm, from the picture's pixels: the bars, not the text under them), which gives the
// shipment's id back. In Finnish too; at desktop and phone widths; axe-core on both pages; screenshots in
// .tmp/screenshots/<db>/portal-label-*.png and label-*.png.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { expectAccessible } from "../helpers/browser.ts";
import { announcement, createShipment } from "../helpers/fixtures.ts";
import {
  checkScreen,
  expectNoSideScroll,
  expectPlainWords,
  openPortal,
  portalUser,
  SHOTS,
  signIn,
  startPortalRig,
  WIDTHS,
  type PortalRig,
} from "../helpers/portal.ts";

const MERCHANT = "label-shop.example.com";
const USER = { email: "staff@label-shop.example.com", password: "label-shop-password" };

let rig: PortalRig;
let m: LogisticsClient;
let id: string;

// The decoder's WebAssembly from the package's own files (no download).
const require = createRequire(import.meta.url);
prepareZXingModule({
  overrides: { wasmBinary: readFileSync(require.resolve("zxing-wasm/reader/zxing_reader.wasm")).buffer },
});

beforeAll(async () => {
  rig = await startPortalRig();
  m = await portalUser(rig, MERCHANT, USER.email, USER.password);
  id = await createShipment(
    m,
    announcement({ merchants_ref: "PO-LABEL-7", sender_name: "Nordic Threads Oy", expected_at_wh: "2026-12-03" }),
  );
}, 120_000);
afterAll(async () => {
  await rig?.close();
});

/** The Code 128 symbols a screenshot shows, read from its pixels. */
async function barcodesIn(png: Buffer): Promise<string[]> {
  const found = await readBarcodes(new Blob([new Uint8Array(png)]), { formats: ["Code128"], tryHarder: true });
  return found.map((b) => b.text);
}

/** Follows one of the shipment page's label links to its tab; the label's page, loaded. */
async function openLabel(page: Page, name: string): Promise<Page> {
  const [label] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("link", { name, exact: true }).click(),
  ]);
  await label.waitForLoadState("load");
  return label;
}

describe("the receiving label", () => {
  // At both widths: the label page is laid out for the screen it opens on, and its barcode must read back at each.
  it.each(WIDTHS)("at %i px: from the shipment's page to a label whose barcode reads back as its id", async (width) => {
    // A screen of twice the density, as a phone's (or a scanner's camera sees the printed bars).
    const portal = await openPortal(rig, width, { hash: `/shipments/${id}`, deviceScaleFactor: 2 });
    await signIn(portal.page, USER.email, USER.password);
    await portal.page.evaluate((to) => (window.location.hash = to), `/shipments/${id}`);
    const section = portal.page.getByRole("region", { name: "Receiving label" });
    await section.waitFor();
    await expectPlainWords(portal.page);
    await checkScreen(portal.page, `label-link`);

    for (const [name, size] of [
      ["Label for a parcel (A6)", "a6"],
      ["Label on a sheet (A4)", "a4"],
    ] as const) {
      const label = await openLabel(portal.page, name);
      expect(label.url()).toBe(`${rig.srv.baseUrl}/inbound_shipments/${id}/label?size=${size}&lang=en`);
      await expect.poll(() => label.title()).toBe("Receiving label PO-LABEL-7");
      const text = await label.locator("body").innerText();
      for (const shown of [
        "label-shop.example.com",
        "PO-LABEL-7",
        "Nordic Threads Oy",
        "3 December 2026",
        "2 products, 15 items",
      ])
        expect(text, size).toContain(shown);
      await expectAccessible(label);
      await expectNoSideScroll(label);
      const png = await label.screenshot({ path: `${SHOTS}/label-${size}-${width}.png`, fullPage: true });
      expect(await barcodesIn(png), `${size} at ${width} px`).toEqual([id]);
      await label.close();
    }
    expect(portal.errors).toEqual([]);
    await portal.close();
  });

  it("speaks the portal's language: Finnish words on a Finnish browser's label, the same barcode", async () => {
    const portal = await openPortal(rig, 1280, { locale: "fi-FI", hash: `/shipments/${id}`, deviceScaleFactor: 2 });
    await signIn(portal.page, USER.email, USER.password);
    await portal.page.evaluate((to) => (window.location.hash = to), `/shipments/${id}`);
    await portal.page.getByRole("region", { name: "Vastaanottotarra" }).waitFor();
    const label = await openLabel(portal.page, "Tarra paketille (A6)");
    const text = await label.locator("body").innerText();
    for (const shown of [
      "Vastaanottotarra",
      "Kauppias",
      "Odotetaan varastoon",
      "3. joulukuuta 2026",
      "2 tuotetta, 15 kpl",
    ])
      expect(text).toContain(shown);
    const png = await label.screenshot({ path: `${SHOTS}/label-a6-fi.png`, fullPage: true });
    expect(await barcodesIn(png)).toEqual([id]);
    expect(portal.errors).toEqual([]);
    await portal.close();
  });
});
