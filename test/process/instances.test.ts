// Several server processes on one PostgreSQL share the work without losing an update.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { configure, list, order, orderLine, SETTINGS } from "../helpers/shipping.ts";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";

describe("two instances on one PostgreSQL", () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let servers: ServerProcess[] = [];
  const clients: { m: LogisticsClient; w: LogisticsClient }[] = [];

  beforeAll(async () => {
    handle = await createTestDatabase();
    const url = handle.url!;
    await provisionAccount(handle.db, "merchant", "multi.example.com", "multi-secret-1");
    await provisionAccount(handle.db, "operator", "multi-dock", "multi-secret-2");
    await provisionAccount(handle.db, "merchant", "guessed.example.com", "guessed-secret-1");
    servers = await Promise.all(
      [0, 1].map(() => startServerProcess({ DATABASE_URL: url, LOGIN_FAILURES_PER_ACCOUNT: "6" })),
    );
    for (const s of servers)
      clients.push({
        m: s.client("M-multi.example.com", "multi-secret-1"),
        w: s.client("W-multi-dock", "multi-secret-2"),
      });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await handle?.close();
  });

  it("concurrent arrivals through both instances are all counted", async () => {
    const created = await clients[0]!.m.POST("/inbound_shipments/_create", {
      body: { merchants_ref: "PO-M", sender_name: "A", products: [{ merchants_id: "S", qty: 40 }] },
    });
    const id = created.data!.shipment_id;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        clients[i % 2]!.w.POST("/inbound_shipments/{shipment_id}/arrivals", {
          params: { path: { shipment_id: id } },
          body: { arrivals: [{ merchants_id: "S", change: 1 }] },
        }),
      ),
    );
    expect(
      results.map((r) => r.response.status),
      JSON.stringify(results.find((r) => r.response.status !== 200)?.error),
    ).toEqual(Array(40).fill(200));
    const s = await clients[1]!.m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
    expect(s.data!.products[0]).toMatchObject({ qty: 40, arrivedQty: 40 });
    expect(s.data!.products[0]!.arrivals).toHaveLength(40);
    expect(s.data!.status).toBe("processing");
  });

  it("an idempotent create retried on the other instance is answered once", async () => {
    const body = { merchants_ref: "PO-I", sender_name: "A", products: [{ merchants_id: "S", qty: 1 }] };
    const [a, b] = await Promise.all(
      clients.map((c) =>
        c.m.POST("/inbound_shipments/_create", { params: { header: { "Idempotency-Key": "multi-1" } }, body }),
      ),
    );
    expect(a!.data!.shipment_id).toBe(b!.data!.shipment_id);
    const list = await clients[0]!.m.GET("/inbound_shipments", { params: { query: { merchants_ref: "PO-I" } } });
    expect(list.data!.items).toHaveLength(1);
  });

  it("a quote key rotated with --now on one instance is published and accepted by the other within a second", async () => {
    const SHOP = "https://rotation.example";
    const m = clients[0]!.m;
    await configure(m, SETTINGS, [list("letter"), list("home"), list("pickup")]);
    const pk = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
    const pages = servers.map((s) =>
      createLogisticsClient({ baseUrl: `${s.origin}/2015-01-01`, publishableKey: pk, headers: { Origin: SHOP } }),
    );
    const query = { postalcode: "00100", country: "FI" as const, weight: 1200, cart_value: 59.8, item_count: 2 };
    const homeQuote = async (i: number) => {
      const r = await pages[i]!.GET("/shipping_options", { params: { query } });
      return (r.data!.options.home as { quote: string }).quote;
    };
    const kidOf = (quote: string) =>
      (JSON.parse(Buffer.from(quote.split(".")[0]!, "base64url").toString()) as { kid: string }).kid;
    const published = async (i: number) =>
      (
        (await (
          await fetch(`${servers[i]!.origin}/2015-01-01/quote_keys`)
        ).json()) as components["schemas"]["QuoteKeySet"]
      ).keys.map((k) => k.kid);
    const before = await published(1);
    expect(before).toContain(kidOf(await homeQuote(1)));

    const rotated = await cli(["rotate-quote-key", "--now"], { DATABASE_URL: handle.url! });
    expect(rotated.code, rotated.output).toBe(0);
    const rotatedAt = Date.now();
    const kid = /Added quote signing key ([0-9a-f]{24})/.exec(rotated.output)![1]!;
    /**
     * `read` again until `ok`, for 3 s at most; how long after the rotation the read that saw it was sent (the
     * machine may be slow to answer: what counts is what the instance knew when asked).
     */
    const soon = async <T>(read: () => Promise<T>, ok: (t: T) => boolean): Promise<[T, number]> => {
      for (;;) {
        const sent = Date.now() - rotatedAt;
        const value = await read();
        if (ok(value) || sent > 3000) return [value, sent];
      }
    };
    // Instance 0 signs with the new key, instance 1 publishes it: each as soon as it heard of the rotation.
    const [[quote, signedAfter], [seen, publishedAfter]] = await Promise.all([
      soon(
        () => homeQuote(0),
        (q) => kidOf(q) === kid,
      ),
      soon(
        () => published(1),
        (keys) => keys.includes(kid),
      ),
    ]);
    expect(kidOf(quote)).toBe(kid);
    expect(seen).toContain(kid);
    expect(signedAfter).toBeLessThan(1000);
    expect(publishedAfter).toBeLessThan(1000);
    const placed = await clients[1]!.m.POST("/orders/_create", {
      body: order({
        customer: { postalcode: "00100", country: "FI" },
        products: [orderLine({ qty: 2, unit_price: 29.9, weight_g: 600 })],
        quote,
      }),
    });
    expect(placed.response.status, JSON.stringify(placed.error)).toBe(201);
  });

  it("failed sign-ins are counted for both together: 3 wrong secrets on each reach LOGIN_FAILURES_PER_ACCOUNT=6, then both refuse the right one", async () => {
    const as = (i: number, secret: string) =>
      servers[i]!.client("M-guessed.example.com", secret).GET("/inbound_shipments");
    for (const i of [0, 1, 0, 1, 0, 1]) expect((await as(i, "wrong-secret")).response.status).toBe(401);
    for (const i of [0, 1]) {
      const r = await as(i, "guessed-secret-1");
      expect(r.response.status).toBe(429);
      expect(r.error).toMatchObject({ code: "rate_limited" });
    }
  });
});
