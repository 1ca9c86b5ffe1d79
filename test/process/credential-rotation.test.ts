// A rotated API secret stops working on every instance at once (issue 55 item 4): verified credentials are kept
// 60 s per instance, and the CLI's new secret announces itself on the cache channel (db/cache-signal.ts) that every
// instance listens to, so a second instance that had the old secret cached refuses it within a second.
// PostgreSQL only: two processes share one database.
import { afterAll, beforeAll, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";

const MERCHANT = "rotating.example.com";
let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let servers: ServerProcess[] = [];

beforeAll(async () => {
  handle = await createTestDatabase();
  await provisionAccount(handle.db, "merchant", MERCHANT, "old-secret-1");
  servers = await Promise.all([0, 1].map(() => startServerProcess({ DATABASE_URL: handle.url! })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await handle?.close();
});

const status = async (s: ServerProcess, secret: string) =>
  (await s.client(`M-${MERCHANT}`, secret).GET("/inbound_shipments", { params: { query: { limit: 1 } } })).response
    .status;

it("after the CLI rotates a merchant's secret, the old one is refused within a second on both instances", async () => {
  // Both instances have verified (and kept) the old secret.
  for (const s of servers) {
    expect(await status(s, "old-secret-1")).toBe(200);
    expect(await status(s, "old-secret-1")).toBe(200);
  }
  const rotated = await cli(["merchant", "create", MERCHANT, "--secret", "new-secret-2"], {
    DATABASE_URL: handle.url!,
  });
  expect(rotated.code, rotated.output).toBe(0);
  const committed = performance.now();
  // Each instance asked over and over with the old secret at once, until it refuses it.
  const refusedAfter = await Promise.all(
    servers.map(async (s) => {
      let code = await status(s, "old-secret-1");
      while (code === 200 && performance.now() - committed < 5_000) {
        await new Promise((r) => setTimeout(r, 20));
        code = await status(s, "old-secret-1");
      }
      expect(code).toBe(401);
      return Math.round(performance.now() - committed);
    }),
  );
  console.log(`old secret refused after ${refusedAfter.join(" and ")} ms (from the CLI's exit)`);
  expect(Math.max(...refusedAfter)).toBeLessThan(1_000);
  for (const s of servers) expect(await status(s, "new-secret-2")).toBe(200);
});
