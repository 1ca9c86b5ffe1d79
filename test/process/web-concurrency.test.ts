// WEB_CONCURRENCY on PostgreSQL: several server processes on one port share the work without losing an update; one
// killed is replaced while the others answer; SIGTERM stops them all gracefully.
import { readFileSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { run, SERVER_MAIN, startServerProcess, type ServerProcess } from "./helpers.ts";

/** The server processes the primary started (Linux: its children, from /proc). */
function children(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

/** Pids that logged "listening", in order. */
function listened(output: string): number[] {
  return output
    .split("\n")
    .filter((l) => l.includes('"msg":"listening"'))
    .map((l) => (JSON.parse(l) as { pid: number }).pid);
}

async function until<T>(what: string, f: () => T | undefined, output: () => string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not in time\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("WEB_CONCURRENCY=2 on one PostgreSQL", () => {
  let handle: Awaited<ReturnType<typeof createTestDatabase>>;
  let server: ServerProcess;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await provisionAccount(handle.db, "merchant", "cores.example.com", "cores-secret-1");
    await provisionAccount(handle.db, "operator", "cores-dock", "cores-secret-2");
    server = await startServerProcess({ DATABASE_URL: handle.url!, WEB_CONCURRENCY: "2", LOG_LEVEL: "info" });
  });
  afterAll(async () => {
    await server?.stop();
    await handle?.close();
  });

  it("runs two processes on the port; concurrent arrivals through it are all counted; a killed one is replaced; SIGTERM stops all with exit 0", async () => {
    const out = () => server.proc.output();
    const primary = server.proc.child.pid!;
    const first = await until("two processes listening", () => (listened(out()).length >= 2 ? true : undefined), out);
    expect(first).toBe(true);
    const pids = children(primary);
    expect(pids).toHaveLength(2);
    expect(new Set(listened(out()))).toEqual(new Set(pids));

    const m = server.client("M-cores.example.com", "cores-secret-1");
    const w = server.client("W-cores-dock", "cores-secret-2");
    const created = await m.POST("/inbound_shipments/_create", {
      body: { merchants_ref: "PO-C", sender_name: "A", products: [{ merchants_id: "S", qty: 40 }] },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.shipment_id;
    const arrive = () =>
      w.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: id } },
        body: { arrivals: [{ merchants_id: "S", change: 1 }] },
      });
    const results = await Promise.all(Array.from({ length: 30 }, arrive));
    expect(results.map((r) => r.response.status)).toEqual(Array(30).fill(200));

    // One process killed: the other answers meanwhile, and the primary starts a third.
    process.kill(pids[0]!, "SIGKILL");
    await until("the killed process gone", () => (alive(pids[0]!) ? undefined : true), out);
    const meanwhile = await Promise.all(Array.from({ length: 10 }, arrive));
    expect(meanwhile.map((r) => r.response.status)).toEqual(Array(10).fill(200));
    const third = await until("a new process listening", () => listened(out()).find((p) => !pids.includes(p)), out);
    expect(children(primary).sort()).toEqual([pids[1]!, third].sort());
    expect(out()).toMatch(/"msg":"a server process ended; starting another"/);

    const s = await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
    expect(s.data!.products[0]).toMatchObject({ qty: 40, arrivedQty: 40 });

    const all = children(primary);
    expect(await server.stop()).toBe(0);
    for (const pid of all) expect(alive(pid)).toBe(false);
    expect(out().match(/"msg":"stopped"/g)).toHaveLength(2);
  });

  it("stops with the reason when no process can start (its port is taken), instead of restarting forever", async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", r));
    try {
      const p = run(SERVER_MAIN, [], {
        DATABASE_URL: handle.url!,
        WEB_CONCURRENCY: "2",
        PORT: String((taken.address() as AddressInfo).port),
        SEED_DEMO: "false",
      });
      expect(await p.exited).toBe(1);
      expect(p.output()).toMatch(/"msg":"a server process could not start; stopping"/);
      expect(p.output().match(/could not start/g)).toHaveLength(1);
    } finally {
      taken.close();
    }
  });
});
