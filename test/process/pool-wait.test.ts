// Waiting for a free connection is bounded apart from opening one (server/db/database.ts): a request queued behind
// busy connections for longer than a connection may take to open still gets its turn, while a database that does
// not answer a new connection still fails within the connect time (503 unavailable), not the queue's.
import net from "node:net";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../server/db/availability.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { writes } from "../../server/db/statement-ways.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { createTestDatabase } from "../helpers/database.ts";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let server: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  // Two connections, none shared (a pool under 4 shares none): the third request must queue.
  server = await openDatabase({
    databaseUrl: handle.url!,
    pgliteDir: "",
    poolSize: 2,
    connectTimeoutMs: 300,
    statementTimeoutMs: 4_000,
  });
});
afterAll(async () => {
  await server?.close();
  await handle?.close();
});

it("a request queued behind busy connections for longer than the connect time is served, not refused", async () => {
  // Each busy transaction holds its connection for 1.2 s, four times the connect time.
  const busy = Array.from({ length: 2 }, () =>
    inTransaction(server.db, (trx) => sql`select pg_sleep(1.2)`.withPlugin(writes).execute(trx)),
  );
  await new Promise((r) => setTimeout(r, 100));
  const started = performance.now();
  const queued = await inTransaction(server.db, (trx) => sql<{ n: number }>`select 7 as n`.execute(trx));
  expect(queued.rows[0]!.n).toBe(7);
  expect(performance.now() - started).toBeGreaterThan(900); // it did wait for a busy one
  await Promise.all(busy);
});

it("a database that accepts the connection and never answers fails within the connect time, as unavailable", async () => {
  const silent = net.createServer(() => {}); // takes the TCP connection, never says a word
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  const { port } = silent.address() as AddressInfo;
  const mute = await openDatabase({
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`,
    pgliteDir: "",
    poolSize: 2,
    connectTimeoutMs: 300,
    statementTimeoutMs: 4_000,
  });
  try {
    const started = performance.now();
    const err = await inTransaction(mute.db, (trx) => sql`select 1`.execute(trx)).catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(isDatabaseUnavailable(err), String(err)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3_000); // the connect time, far below the queue's 4.3 s
  } finally {
    await mute.close();
    silent.close();
  }
});
