// The server's one clock (server/shared/clock.ts): a quote is signed at the clock's "now" and checked against it,
// so tests of what depends on the day and the hour (delivery estimates) can set the instant they are about.
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import type { QuotePayload } from "../../client/quotes.ts";
import { TestClock } from "../helpers/clock.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, order, orderLine, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
const SHOP = "https://shop.clock.example";
const clock = new TestClock("2026-12-01T10:00:00+02:00");

let srv: TestServer;
let m: LogisticsClient;
let page: LogisticsClient;

useTestServer(
  async (s) => {
    srv = s;
    await loadDemo(srv);
    m = await srv.merchant();
    await configure(m, SETTINGS, [list("home")]);
    const key = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!;
    page = createLogisticsClient({ baseUrl: srv.baseUrl, publishableKey: key.key, headers: { Origin: SHOP } });
  },
  { now: clock.now },
);

const decode = (quote: string) => JSON.parse(Buffer.from(quote.split(".")[1]!, "base64url").toString()) as QuotePayload;

async function homeQuote(): Promise<string> {
  const r = await page.GET("/shipping_options", {
    params: { query: { postalcode: "20780", country: "FI", weight: 210, cart_value: 19.9, item_count: 1 } },
  });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return (r.data!.options.home as { quote: string }).quote;
}

const ORDER = order({ customer: { postalcode: "20780", country: "FI" }, products: [orderLine()] });

describe("the server's clock", () => {
  it("When the clock says 1 Dec 2026 10:00 in Helsinki, then a quote is signed at that instant and valid an hour", async () => {
    clock.set("2026-12-01T10:00:00+02:00");
    const q = decode(await homeQuote());
    // 2026-12-01T08:00:00Z, written out by hand.
    expect(q.iat).toBe(1796112000);
    expect(q.exp).toBe(1796112000 + 3600);
  });

  it("When the clock passes a quote's expiry, then an order placed with it is refused as expired and nothing is stored", async () => {
    clock.set("2026-12-01T10:00:00+02:00");
    const quote = await homeQuote();
    clock.advance(3599);
    const fresh = await m.POST("/orders/_create", { body: { ...ORDER, quote } });
    expect(fresh.response.status, JSON.stringify(fresh.error)).toBe(201);
    clock.advance(1);
    const late = await expectUnchanged(srv, () => m.POST("/orders/_create", { body: { ...ORDER, quote } }));
    expectError(late, 400, "validation_failed", ["/body/quote"]);
    expect((late.error as S["Error"]).details?.[0]).toMatchObject({ code: "quote_expired" });
  });
});
