// Housekeeping: one sweep deletes finished webhook deliveries past their retention, idempotency keys past
// 24 hours, ended rate-limit windows and expired portal sessions, and keeps everything still in use.
import { sql } from "kysely";
import { pino } from "pino";
import { expect, it } from "vitest";
import { Housekeeping } from "../../server/housekeeping.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { announcement } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
useTestServer(
  (s) => {
    srv = s;
  },
  { rateLimitPerMinute: 1000 },
);

it("deletes what is past its time, in every table it looks after, and keeps the rest", async () => {
  const db = srv.handle.db;
  const m = await srv.merchant("sweep.example.com");
  const ep = await m.POST("/webhook_endpoints/_create", {
    body: { url: "https://erp.sweep.example/hooks", event_types: ["webhook.test"] },
  });
  // Finished 31 days ago, queued 31 days ago (still open), finished today.
  const tests: string[] = [];
  for (let i = 0; i < 3; i++)
    tests.push(
      (await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: ep.data!.id } } })).data!
        .delivery_id,
    );
  await sql`update webhook_deliveries set status = 'succeeded', due_at = null where id in (${tests[0]}, ${tests[2]})`.execute(
    db,
  );
  await sql`update webhook_deliveries set created_at = now() - interval '31 days' where id in (${tests[0]}, ${tests[1]})`.execute(
    db,
  );
  for (const key of ["old-key", "new-key"]) {
    expect(
      (
        await m.POST("/inbound_shipments/_create", {
          params: { header: { "Idempotency-Key": key } },
          body: announcement(),
        })
      ).response.status,
    ).toBe(201);
  }
  await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'old-key'`.execute(db);
  // The request counts of this minute are in the database once the instance has sent them.
  await expect
    .poll(
      async () => (await sql<{ n: number }>`select count(*)::int as n from rate_limit_counters`.execute(db)).rows[0]!.n,
    )
    .toBeGreaterThan(0);
  await sql`insert into rate_limit_counters values ('requests:M-gone.example.com', 7, ${Date.now() - 1000})`.execute(
    db,
  );

  await provisionPortalUser(db, "sweep.example.com", "sweeper@sweep.example.com", "sweeper-password");
  for (const who of ["expired", "live"]) {
    expect(
      (
        await srv.client().POST("/portal_sessions/_create", {
          body: { email: "sweeper@sweep.example.com", password: "sweeper-password" },
        })
      ).response.status,
    ).toBe(201);
    if (who === "expired") await sql`update portal_sessions set expires_at = now() - interval '1 minute'`.execute(db);
  }

  // The sign-ins' count, under the visitor's address, is in the database once the instance has sent it (100 ms after
  // them: the sweep could otherwise run first, and the check below miss it).
  await expect
    .poll(
      async () =>
        (
          await sql<{
            n: number;
          }>`select count(*)::int as n from rate_limit_counters where key = 'requests:V-127.0.0.1'`.execute(db)
        ).rows[0]!.n,
    )
    .toBe(1);

  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(l) });
  const swept = await new Housekeeping({ db, logger, deliveryRetentionDays: 30 }).run();
  expect(swept).toEqual({ deliveries: 1, idempotencyKeys: 1, counters: 1, sessions: 1 });
  expect(
    (await db.selectFrom("portal_sessions").select("expires_at").execute()).map((s) => s.expires_at > new Date()),
  ).toEqual([true]);
  expect(lines.join("")).toContain("housekeeping: deleted webhook deliveries past their retention");

  const left = await db.selectFrom("webhook_deliveries").select("id").where("id", "in", tests).execute();
  expect(left.map((d) => d.id).sort()).toEqual([tests[1], tests[2]].sort());
  expect((await db.selectFrom("idempotency_keys").select("key").execute()).map((k) => k.key)).toEqual(["new-key"]);
  const counters = await sql<{ key: string }>`select key from rate_limit_counters`.execute(db);
  // The sign-ins above were counted too, under the visitor's address.
  expect(counters.rows.map((r) => r.key).sort()).toEqual(["requests:M-sweep.example.com", "requests:V-127.0.0.1"]);
  // A second sweep finds nothing.
  expect(await new Housekeeping({ db, logger, deliveryRetentionDays: 30 }).run()).toEqual({
    deliveries: 0,
    idempotencyKeys: 0,
    counters: 0,
    sessions: 0,
  });
});
