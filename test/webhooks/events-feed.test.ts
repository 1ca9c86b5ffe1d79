// GET /events: the merchant's events by cursor, oldest first, the same ids and payloads as webhooks.
import { sql } from "kysely";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { type components, type LogisticsClient, type WebhookEvent } from "../../client/index.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { recordEvent } from "../../server/webhooks/outbox.ts";
import { arrive, createShipment, expectError, expectUnchanged, moveTo } from "../helpers/fixtures.ts";
import type { Receiver } from "../helpers/receiver.ts";
import { useWebhookServer, type TestServer } from "../helpers/server.ts";

type S = components["schemas"];

let srv: TestServer;
let rx: Receiver;
let m: LogisticsClient;
let w: LogisticsClient;
let merchantId: string;
let seq = 0;

useWebhookServer(
  async (s, r) => {
    [srv, rx] = [s, r];
    w = await srv.operator();
  },
  { retrySchedule: [0.05, 0.1], timeoutMs: 2000 },
);
beforeEach(async () => {
  merchantId = `feed-${++seq}.example.com`;
  m = await srv.merchant(merchantId);
  rx.respond = () => 200;
});

async function events(query: { cursor?: string; limit?: number; event_type?: S["FeedEventType"][] } = {}, c = m) {
  const r = await c.GET("/events", { params: { query } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}

/** Walks the feed from `cursor` with pages of `limit`, as a poller does, until it has at least `atLeast` events. */
async function walk(cursor?: string, limit = 2, atLeast = 0) {
  const items: S["FeedEvent"][] = [];
  const deadline = Date.now() + 10_000;
  for (;;) {
    const p = await events({ ...(cursor && { cursor }), limit });
    items.push(...p.items);
    expect(p.items.length).toBeLessThanOrEqual(limit);
    if (p.next_cursor !== null) cursor = p.next_cursor;
    if (!p.has_more && (items.length >= atLeast || Date.now() > deadline)) return { items, cursor };
    if (!p.has_more) await new Promise((r) => setTimeout(r, 50));
  }
}

/** The merchant's feed as stored, to show that a refused request changed nothing. */
const snapshotFeed = () =>
  srv.handle.db
    .selectFrom("webhook_events")
    .select(["id", sql<string>`feed_position::text`.as("p")])
    .where("merchant_id", "=", merchantId)
    .orderBy("id")
    .execute();

const shipmentOf = (e: S["FeedEvent"]) =>
  "shipment" in e.payload ? e.payload.shipment.id : "shipment_id" in e.payload ? e.payload.shipment_id : undefined;

/** A shipment taken through arrivals to processed: 1 items_arrived, 3 status_changed, 1 arrived_at_warehouse, 1 processed. */
async function history() {
  const id = await createShipment(m);
  expect((await moveTo(w, id, { status: "arrived_at_warehouse" })).response.status).toBe(200);
  expect(
    (
      await arrive(w, id, [
        { merchants_id: "SKU-1001", change: 10 },
        { merchants_id: "SKU-1002", change: 5 },
      ])
    ).response.status,
  ).toBe(200);
  expect((await moveTo(w, id, { status: "processed" })).response.status).toBe(200);
  return id;
}

describe("GET /events", () => {
  it("is empty with a null cursor for a merchant without events", async () => {
    expect(await events()).toEqual({ items: [], next_cursor: null, has_more: false });
  });

  it("lists every event of the merchant oldest first, page by page, and resumes from the last cursor", async () => {
    const id = await history();
    const first = await walk(undefined, 2, 6);
    const types = first.items.map((e) => e.event_type);
    expect(types.filter((t) => t === "inbound_shipment.items_arrived")).toHaveLength(1);
    expect(types).toContain("inbound_shipment.arrived_at_warehouse");
    expect(types).toContain("inbound_shipment.processed");
    expect(types.filter((t) => t === "inbound_shipment.status_changed").length).toBeGreaterThanOrEqual(2);
    expect(new Set(first.items.map((e) => e.event_id)).size).toBe(first.items.length);
    // Oldest first: the event times never go backwards.
    const ts = first.items.map((e) => Date.parse(e.ts));
    expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    for (const e of first.items) expect(shipmentOf(e)).toBe(id);
    const processed = first.items.find((e) => e.event_type === "inbound_shipment.processed")!;
    expect(processed.event_type === "inbound_shipment.processed" && processed.payload.shipment.status).toBe(
      "processed",
    );

    // At the end the cursor stays usable: nothing new, then exactly what happened since.
    expect(first.cursor).toEqual(expect.any(String));
    expect(await events({ cursor: first.cursor })).toEqual({ items: [], next_cursor: first.cursor, has_more: false });
    const later = await createShipment(m);
    await moveTo(w, later, { status: "cancelled" });
    const second = await walk(first.cursor, 1, 1);
    expect(second.items.map((e) => [e.event_type, shipmentOf(e)])).toEqual([
      ["inbound_shipment.status_changed", later],
    ]);
    // The whole feed is the two walks together.
    expect((await walk(undefined, 100, 7)).items).toEqual([...first.items, ...second.items]);
  });

  it("returns what a stopped endpoint missed, with the event ids and payloads its deliveries carry", async () => {
    const r = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url(`/feed-${seq}`), event_types: ["inbound_shipment.items_arrived"] },
    });
    expect(r.response.status).toBe(201);
    const ep = r.data!;
    const before = await walk();
    const id = await createShipment(m);
    await arrive(w, id, [{ merchants_id: "SKU-1001", change: 2 }]);
    const [delivered] = await rx.waitFor(1, { path: `/feed-${seq}` });
    const event = verifyWebhook(ep.secret, delivered!.headers, delivered!.body) as WebhookEvent;

    // The endpoint goes away; arrivals go on.
    expect(
      (
        await m.POST("/webhook_endpoints/{webhook_id}", {
          params: { path: { webhook_id: ep.id } },
          body: { enabled: false },
        })
      ).response.status,
    ).toBe(200);
    await arrive(w, id, [{ merchants_id: "SKU-1002", change: 1 }]);
    await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]);

    const caught = await walk(before.cursor, 2, 4);
    const arrivals = caught.items.filter((e) => e.event_type === "inbound_shipment.items_arrived");
    expect(arrivals).toHaveLength(3);
    const { webhook_id: _w, retry_count: _r, ...envelope } = event;
    expect(arrivals[0]).toEqual(envelope);
    expect(
      arrivals
        .slice(1)
        .map(
          (e) =>
            e.event_type === "inbound_shipment.items_arrived" &&
            e.payload.products.map((p) => [p.merchants_id, p.arrivedQty]),
        ),
    ).toEqual([[["SKU-1002", 1]], [["SKU-1001", 3]]]);
  });

  it("filters by event type and never shows test events or another merchant's events", async () => {
    const r = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url(`/t-${seq}`), event_types: ["inbound_shipment.items_arrived"] },
    });
    await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: r.data!.id } } });
    await history();
    const all = await walk(undefined, 100, 6);
    expect(all.items.some((e) => (e.event_type as string) === "webhook.test")).toBe(false);
    const only = await events({
      event_type: ["inbound_shipment.processed", "inbound_shipment.items_arrived"],
      limit: 100,
    });
    expect(only.items.map((e) => e.event_type).sort()).toEqual([
      "inbound_shipment.items_arrived",
      "inbound_shipment.processed",
    ]);

    const other = await srv.merchant(`other-${seq}.example.com`);
    expect(await events({}, other)).toEqual({ items: [], next_cursor: null, has_more: false });
    // Another merchant's cursor does not reveal anything either: positions are per merchant, and the event it
    // names is not this merchant's, so it is of another history, to restart from this feed's start.
    const foreign = await other.GET("/events", { params: { query: { cursor: all.cursor! } } });
    expectError(foreign, 409, "cursor_from_other_history");
    expect(foreign.error).toMatchObject({ restart_cursor: Buffer.from("e0").toString("base64url") });
    expect(
      (await events({ cursor: (foreign.error as unknown as { restart_cursor: string }).restart_cursor }, other)).items,
    ).toEqual([]);
  });

  it("refuses bad input with the exact error and changes nothing", async () => {
    await history();
    await createShipment(m);
    const listCursor = (await m.GET("/inbound_shipments", { params: { query: { limit: 1 } } })).data!.next_cursor!;
    expect(listCursor).toEqual(expect.any(String));
    const bad: [Record<string, unknown>, string][] = [
      [{ cursor: "not-a-cursor" }, "/query/cursor"],
      [{ cursor: listCursor }, "/query/cursor"],
      [{ cursor: Buffer.from(`f${"9".repeat(20)}.${"a".repeat(24)}`).toString("base64url") }, "/query/cursor"],
      [{ cursor: "a+b" }, "/query/cursor"],
      [{ limit: 0 }, "/query/limit"],
      [{ limit: 101 }, "/query/limit"],
      [{ event_type: ["webhook.test"] }, "/query/event_type/0"],
      [{ event_type: ["nope"] }, "/query/event_type/0"],
      [{ since: "2016-01-01" }, "/query/since"],
    ];
    for (const [query, path] of bad) {
      const r = await expectUnchanged(srv, () => m.GET("/events", { params: { query: query as never } }));
      expectError(r, 400, "validation_failed", [path]);
    }
    // Warehouse staff have no events feed of their own.
    expectError(await w.GET("/events", {}), 403, "access_denied");
    expectError(await srv.client(`M-${merchantId}`, "wrong").GET("/events", {}), 401, "unauthorized");
  });

  it("a cursor issued before feed positions (by transaction id) goes on from where it stood", async () => {
    await history();
    const all = await walk(undefined, 100, 6);
    const third = all.items[2]!;
    const { txid } = await srv.handle.db
      .selectFrom("webhook_events")
      .select(sql<string>`txid::text`.as("txid"))
      .where("id", "=", third.event_id)
      .executeTakeFirstOrThrow();
    const legacy = Buffer.from(`f${txid}.${third.event_id}`).toString("base64url");
    const rest = await walk(legacy, 100, 1);
    // The events of later transactions than the third's, and its own transaction's were shown with it.
    const later = all.items.slice(3).map((e) => e.event_id);
    expect(later).toEqual(expect.arrayContaining(rest.items.map((e) => e.event_id)));
    expect(rest.items.map((e) => e.event_id)).toEqual(later.slice(later.length - rest.items.length));
    expect(rest.cursor).toBe(all.cursor);
  });

  it("after a rewind of the feed (a restore), a cursor from the lost future is refused with where to restart", async () => {
    await history();
    const kept = await walk(undefined, 100, 6);
    const ids = kept.items.map((e) => e.event_id);
    await history();
    const future = await walk(kept.cursor, 100, 6);
    // What a restore of a backup taken after the first six events does to the feed: the rest is gone, and the
    // positions after the sixth are handed out again.
    const db = srv.handle.db;
    const lost = future.items.map((e) => e.event_id);
    await db.deleteFrom("webhook_deliveries").where("event_id", "in", lost).execute();
    await db.deleteFrom("webhook_events").where("id", "in", lost).execute();
    await db
      .updateTable("webhook_feed_positions")
      .set({ last_position: "6" })
      .where("merchant_id", "=", merchantId)
      .execute();
    // Ids begin with their second: the new history's events are created after every event the cursor saw.
    await new Promise((r) => setTimeout(r, 1100));
    await history();
    await events({ limit: 1 }); // the new events take their positions
    const before = await snapshotFeed();
    const r = await m.GET("/events", { params: { query: { cursor: future.cursor! } } });
    expectError(r, 409, "cursor_from_other_history");
    const restart = (r.error as unknown as { restart_cursor: string }).restart_cursor;
    expect(restart).toBe(kept.cursor);
    expect(await snapshotFeed()).toEqual(before);
    const resumed = await walk(restart, 100, 6);
    expect(resumed.items).toHaveLength(6);
    expect(resumed.items.map((e) => e.event_id)).not.toEqual(expect.arrayContaining([ids[5], lost[0]]));
    // Cursors of the history both share, and unmarked ones, are accepted.
    expect((await walk(kept.cursor, 100, 6)).items).toEqual(resumed.items);
    const unmarked = Buffer.from("e6").toString("base64url");
    expect((await walk(unmarked, 100, 6)).items).toEqual(resumed.items);
  });

  it("a cursor held across the pruning of every old event still sees what happens next", async () => {
    await history();
    const before = await walk(undefined, 100, 6);
    // What retention does after 30 days: the events and their deliveries go.
    const db = srv.handle.db;
    const ids = before.items.map((e) => e.event_id);
    await db.deleteFrom("webhook_deliveries").where("event_id", "in", ids).execute();
    await db.deleteFrom("webhook_events").where("id", "in", ids).execute();
    await history();
    const after = await walk(before.cursor, 100, 6);
    expect(after.items).toHaveLength(6);
    expect(after.items.map((e) => e.event_id)).not.toEqual(expect.arrayContaining([ids[0]]));
  });

  // Two transactions at once need a server database: PGlite runs one connection (nothing to race there).
  if (process.env.TEST_DB === "postgres") {
    it("never lets a cursor pass an event whose transaction commits late, and does not wait for it", async () => {
      const id = await createShipment(m);
      const start = await walk();
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let recorded!: () => void;
      const inserted = new Promise<void>((r) => (recorded = r));
      // A transaction records an event and stays open...
      const slow = inTransaction(srv.handle.db, async (trx) => {
        await recordEvent(trx, "inbound_shipment.status_changed", merchantId, new Date(), {
          shipment_id: id,
          merchants_ref: "PO-2016-0042",
          from_status: "initial",
          status: "initial",
        });
        recorded();
        await held;
      });
      await inserted;
      // ...while a later one commits: the feed shows the committed one at once, not the open one.
      await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]);
      const during = await walk(start.cursor, 10, 1);
      const isHeld = (e: S["FeedEvent"]) =>
        e.event_type === "inbound_shipment.status_changed" && e.payload.from_status === e.payload.status;
      expect(during.items.map((e) => e.event_type)).toContain("inbound_shipment.items_arrived");
      expect(during.items.filter(isHeld)).toEqual([]);
      release();
      await slow;
      // The late event comes after the cursor, not behind it: a poller meets it on its next page.
      const after = await walk(during.cursor, 10, 1);
      expect(after.items).toHaveLength(1);
      expect(after.items[0]).toMatchObject({
        event_type: "inbound_shipment.status_changed",
        payload: { from_status: "initial", status: "initial" },
      });
    });

    it("an open transaction in another database of the cluster, or of another merchant here, delays nothing", async () => {
      const id = await createShipment(m);
      const start = await walk();
      // A write transaction elsewhere in the cluster, left open: it holds back pg_snapshot_xmin for everyone.
      const elsewhere = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await elsewhere.connect();
      await elsewhere.query("begin");
      await elsewhere.query("select pg_current_xact_id()");
      // And another merchant's event, recorded here and not yet committed.
      await srv.merchant(`other-${merchantId}`);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let recorded!: () => void;
      const inserted = new Promise<void>((r) => (recorded = r));
      const other = inTransaction(srv.handle.db, async (trx) => {
        await recordEvent(trx, "inbound_shipment.status_changed", `other-${merchantId}`, new Date(), {
          shipment_id: id,
          merchants_ref: "PO-OTHER",
          from_status: "initial",
          status: "initial",
        });
        recorded();
        await held;
      });
      try {
        await inserted;
        const began = Date.now();
        await arrive(w, id, [{ merchants_id: "SKU-1001", change: 1 }]);
        const during = await walk(start.cursor, 10, 1);
        expect(during.items.map((e) => e.event_type)).toContain("inbound_shipment.items_arrived");
        expect(Date.now() - began).toBeLessThan(5_000);
      } finally {
        release();
        await other;
        await elsewhere.query("rollback");
        await elsewhere.end();
      }
    });
  }
});
