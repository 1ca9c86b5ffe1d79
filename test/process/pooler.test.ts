// Behind PgBouncer in transaction mode (issue 30), as managed PostgreSQL services run it: a server told so
// (DATABASE_POOL_MODE=transaction) answers the API, delivers webhooks and survives the pooler's restart; its time
// limits hold inside and outside transactions; LISTEN goes to a direct URL or becomes polling. A server not told
// so stops at start and names the setting. PostgreSQL only: the pooler is PostgreSQL's.
import { Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookEvent } from "../../client/index.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { announceCacheChange } from "../../server/db/cache-signal.ts";
import { RoutedDialect } from "../../server/db/dialect.ts";
import { openDatabase, POLL_INSTEAD_OF_LISTEN_MS, type DatabaseHandle } from "../../server/db/database.ts";
import { transactionModePool } from "../../server/db/pooler.ts";
import type { Database } from "../../server/db/schema.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startPgBouncer, type PgBouncer } from "../helpers/pgbouncer.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { run, SERVER_MAIN, freePort, startServerProcess, type ServerProcess } from "./helpers.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let bouncer: PgBouncer;
let pooledUrl: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  bouncer = await startPgBouncer(handle.url!, 3);
  pooledUrl = bouncer.through(handle.url!);
  await provisionAccount(handle.db, "merchant", "pooled.example.com", "pooled-secret-1");
  await provisionAccount(handle.db, "operator", "pooled-dock", "pooled-secret-2");
});
afterAll(async () => {
  await bouncer?.stop();
  await handle?.close();
});

describe("the database handle through a transaction-mode pooler", () => {
  const opened: DatabaseHandle[] = [];
  const open = async (extra: { statementTimeoutMs?: number; listenUrl?: string } = {}) => {
    const notices: string[] = [];
    const h = await openDatabase({
      databaseUrl: pooledUrl,
      pgliteDir: "",
      poolMode: "transaction",
      poolSize: 8,
      onNotice: (m) => notices.push(m),
      ...extra,
    });
    opened.push(h);
    return { h, notices };
  };
  afterAll(async () => {
    await Promise.all(opened.map((h) => h.close()));
  });

  it("runs many statements of many shapes at once on few server connections (nothing prepared by name)", async () => {
    const { h } = await open();
    // 3 server connections, 8 clients, 40 different statement texts, each run 3 times: a statement prepared by
    // name on one server connection would be missing on another.
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        sql<{ n: number }>`select ${i}::int + ${sql.raw(String(i % 40))} as n`.execute(h.db),
      ),
    );
    expect(results.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 120 }, (_, i) => i + (i % 40)));
  });

  it("sets each transaction's own limits with its BEGIN, whatever the session's or the role's are", async () => {
    // A direct pool (no pooler, no role defaults touched): only the SET LOCAL riding on BEGIN can give 250 ms.
    const pool = new pg.Pool({ connectionString: handle.url!, max: 1 });
    const db = new Kysely<Database>({
      dialect: new RoutedDialect(transactionModePool(pool, { statementTimeoutMs: 250, idleInTransactionMs: 700 })),
    });
    try {
      const setting = (name: string) => sql<{ v: string }>`select current_setting(${name}) as v`;
      const inside = await db.transaction().execute(async (trx) => ({
        statement: (await setting("statement_timeout").execute(trx)).rows[0]!.v,
        idle: (await setting("idle_in_transaction_session_timeout").execute(trx)).rows[0]!.v,
      }));
      expect(inside).toEqual({ statement: "250ms", idle: "700ms" });
      const outside = (await setting("statement_timeout").execute(db)).rows[0]!.v;
      expect(outside).not.toBe("250ms");
    } finally {
      await db.destroy();
    }
  });

  it("holds the statement time limit inside a transaction and outside one", async () => {
    const { h, notices } = await open({ statementTimeoutMs: 300 });
    expect(notices.join("\n")).toContain("statement_timeout 300ms");
    const inside = await h.db
      .transaction()
      .execute(
        async (trx) =>
          (await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(trx)).rows[0]!.t,
      );
    expect(inside).toBe("300ms");
    const slowInside = await h.db
      .transaction()
      .execute((trx) => sql`select pg_sleep(3)`.execute(trx))
      .catch((e: { code?: string }) => e.code);
    expect(slowInside).toBe("57014"); // canceled by the statement timeout
    // Outside a transaction, the role's defaults hold: seen through a second pooler whose server connections
    // are all new, by a handle that finds them set and sets nothing itself.
    const fresh = await startPgBouncer(handle.url!, 2);
    try {
      const other = await openDatabase({
        databaseUrl: fresh.through(handle.url!),
        pgliteDir: "",
        poolMode: "transaction",
        statementTimeoutMs: 300,
        onNotice: (m) => notices.push(`other: ${m}`),
      });
      opened.push(other);
      expect(notices.filter((n) => n.startsWith("other: set"))).toEqual([]);
      const slowOutside = await sql`select pg_sleep(3)`.execute(other.db).catch((e: { code?: string }) => e.code);
      expect(slowOutside).toBe("57014");
    } finally {
      await fresh.stop();
    }
    // Every server connection the pooler opens from now on has them: the role's defaults in this database.
    const { rows } = await sql<{ setconfig: string[] }>`
      select setconfig from pg_db_role_setting s join pg_database d on d.oid = s.setdatabase
      where d.datname = current_database() and s.setrole = (select oid from pg_roles where rolname = current_user)`.execute(
      h.db,
    );
    expect(rows[0]!.setconfig).toEqual(
      expect.arrayContaining(["statement_timeout=300ms", "idle_in_transaction_session_timeout=600ms"]),
    );
  });

  it("polls instead of LISTEN without a direct URL, and says so; with one, hears a change at once", async () => {
    const polled = await open();
    expect(polled.notices.join("\n")).toContain("DATABASE_LISTEN_URL");
    let calls = 0;
    const stopPolling = await polled.h.listen("caches_changed", () => calls++);
    await new Promise((r) => setTimeout(r, POLL_INSTEAD_OF_LISTEN_MS * 2.5));
    await stopPolling();
    expect(calls).toBeGreaterThanOrEqual(3); // at once, then every second

    const direct = await open({ listenUrl: handle.url! });
    expect(direct.notices.join("\n")).not.toContain("DATABASE_LISTEN_URL");
    let heard = 0;
    const stop = await direct.h.listen("caches_changed", () => heard++);
    const before = heard;
    const t0 = performance.now();
    await direct.h.db.transaction().execute((trx) => announceCacheChange(trx));
    await expect.poll(() => heard, { timeout: 2_000, interval: 10 }).toBeGreaterThan(before);
    expect(performance.now() - t0).toBeLessThan(POLL_INSTEAD_OF_LISTEN_MS);
    await stop();
  });
});

describe("the server through a transaction-mode pooler", () => {
  let rx: Receiver;
  let srv: ServerProcess;

  beforeAll(async () => {
    rx = await startReceiver();
    srv = await startServerProcess({
      DATABASE_URL: pooledUrl,
      DATABASE_POOL_MODE: "transaction",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_RETRY_SCHEDULE: "0.05,0.1",
    });
  });
  afterAll(async () => {
    await srv?.stop();
    await rx?.close();
  });

  it("says at start that it polls instead of listening", () => {
    expect(srv.proc.output()).toContain("without DATABASE_LISTEN_URL");
  });

  it("answers the API and delivers its webhooks", async () => {
    const m = srv.client("M-pooled.example.com", "pooled-secret-1");
    const w = srv.client("W-pooled-dock", "pooled-secret-2");
    const ep = await m.POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/pooled"), event_types: ["inbound_shipment.items_arrived"] },
    });
    expect(ep.response.status).toBe(201);
    const created = await m.POST("/inbound_shipments/_create", {
      body: { merchants_ref: "PO-POOL", sender_name: "A", products: [{ merchants_id: "S", qty: 20 }] },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.shipment_id;
    // More requests at once than the pooler has server connections.
    const arrivals = await Promise.all(
      Array.from({ length: 20 }, () =>
        w.POST("/inbound_shipments/{shipment_id}/arrivals", {
          params: { path: { shipment_id: id } },
          body: { arrivals: [{ merchants_id: "S", change: 1 }] },
        }),
      ),
    );
    expect(arrivals.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    const read = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
    expect(read.data!.products[0]).toMatchObject({ qty: 20, arrivedQty: 20 });
    const got = await rx.waitFor(20, { path: "/pooled", timeoutMs: 20_000 });
    const events = got.map((r) => verifyWebhook(ep.data!.secret, r.headers, r.body) as WebhookEvent);
    expect(new Set(events.map((e) => e.event_id)).size).toBe(20);
  });

  it("answers 503 while the pooler is gone, and recovers by itself when it is back", async () => {
    const m = srv.client("M-pooled.example.com", "pooled-secret-1");
    await bouncer.kill();
    try {
      const during = await m.GET("/inbound_shipments");
      expect(during.response.status).toBe(503);
      expect(during.error).toMatchObject({ code: "unavailable" });
    } finally {
      await bouncer.start();
    }
    await expect
      .poll(async () => (await m.GET("/inbound_shipments")).response.status, { timeout: 15_000, interval: 200 })
      .toBe(200);
  });
});

it("a server not told of the pooler stops at start and names DATABASE_POOL_MODE", async () => {
  const port = await freePort();
  const p = run(SERVER_MAIN, [], { SEED_DEMO: "false", DATABASE_URL: pooledUrl, PORT: String(port) });
  const code = await p.exited;
  expect(code).not.toBe(0);
  expect(p.output()).toContain("DATABASE_POOL_MODE=transaction");
});
