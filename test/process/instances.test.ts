// Several server processes on one PostgreSQL share the work without losing an update.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startServerProcess, type ServerProcess } from "./helpers.ts";

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
