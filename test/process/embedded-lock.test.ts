// The embedded database's lock (server/db/lock-owner.ts) after a crash: a server killed with `kill -9` whose
// parent has not reaped it (a zombie, as under a slow init) no longer holds the directory, and a server started
// right after it starts and serves; a lock naming a live process is still refused with the usual message, while
// one whose pid now belongs to a process started at another time is taken over.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { openEmbedded } from "../../server/db/database.ts";
import { DEMO } from "../../server/demo.ts";
import { SERVER_MAIN, freePort, startServerProcess, waitReady, type Proc } from "./helpers.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-lock-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The fields of /proc/<pid>/stat from the state (field 3) on. */
const stat = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
};
const startTimeOf = (pid: number) => stat(pid)[19]!;

/** A migrated database directory (the test set-up's template): a new one would spend half a minute in initdb. */
function database(name: string): string {
  const db = path.join(dir, name);
  cpSync(inject("pgliteTemplate"), db, { recursive: true });
  return db;
}

function spawnTracked(command: string, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** A live process that has nothing to do with the database. */
async function unrelatedProcess(): Promise<number> {
  const p = spawnTracked("sleep", ["600"]);
  await new Promise((r) => p.child.once("spawn", r));
  return p.child.pid!;
}

// Two server starts (one with demo data), about 50 s on two busy cores: a limit of its own.
it(
  "when a killed server is left unreaped (a zombie), a server started right after it starts and serves",
  { timeout: 180_000 },
  async () => {
    const env = { DATABASE_URL: "", PGLITE_DIR: database("db"), SEED_DEMO: "true", LOG_LEVEL: "warn" };
    const port = await freePort();
    // The shell starts the server, prints its pid and becomes `sleep`, which never waits for a child: the server,
    // once killed, stays a zombie for as long as this parent lives.
    const parent = spawnTracked(
      "/bin/sh",
      ["-c", `"${process.execPath}" "${SERVER_MAIN}" & echo "pid=$!"; exec sleep 600`],
      { ...env, PORT: String(port) },
    );
    // Seeding the demo data on a busy machine can take longer than the helpers' usual 30 s.
    await waitReady(`http://127.0.0.1:${port}`, parent, 120_000);
    const pid = Number(/pid=(\d+)/.exec(parent.output())![1]);
    expect(readFileSync(`${env.PGLITE_DIR}.lock`, "utf8")).toBe(`${pid} ${startTimeOf(pid)}`);

    process.kill(pid, "SIGKILL");
    const until = Date.now() + 10_000;
    while (stat(pid)[0] !== "Z" && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    // Dead but not reaped: the pid still answers kill(pid, 0), which the old lock took for a live owner.
    expect(stat(pid)[0]).toBe("Z");
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(existsSync(`${env.PGLITE_DIR}.lock`)).toBe(true);

    const restarted = await startServerProcess(env);
    try {
      const demo = restarted.client(`M-${DEMO.merchantId}`, DEMO.merchantSecret);
      const created = await demo.POST("/inbound_shipments/_create", {
        body: { merchants_ref: "PO-after-crash", sender_name: "A", products: [{ merchants_id: "S", qty: 1 }] },
      });
      expect(created.response.status).toBe(201);
      const read = await demo.GET("/inbound_shipments/{shipment_id}", {
        params: { path: { shipment_id: created.data!.shipment_id } },
      });
      expect(read.data).toMatchObject({ merchants_ref: "PO-after-crash" });
      // The zombie is still there, and the lock now names the new server.
      expect(stat(pid)[0]).toBe("Z");
      const newPid = restarted.proc.child.pid!;
      expect(readFileSync(`${env.PGLITE_DIR}.lock`, "utf8")).toBe(`${newPid} ${startTimeOf(newPid)}`);
    } finally {
      expect(await restarted.stop()).toBe(0);
      parent.child.kill("SIGKILL");
      await parent.exited;
    }
  },
);

it("a lock naming a live process is refused with the usual message, and left as it was", async () => {
  const db = database("in-use");
  const pid = await unrelatedProcess();
  // Both forms: a lock of this release (pid and start time) and one written before start times were recorded.
  for (const text of [`${pid} ${startTimeOf(pid)}`, String(pid)]) {
    writeFileSync(`${db}.lock`, text);
    await expect(openEmbedded(db)).rejects.toThrow(
      `The embedded database ${db} is in use by process ${pid}. Stop it first, or set DATABASE_URL to use PostgreSQL.`,
    );
    expect(readFileSync(`${db}.lock`, "utf8")).toBe(text);
  }
});

it("a lock whose pid now belongs to a process started at another time is taken over", async () => {
  const db = database("reused");
  const pid = await unrelatedProcess();
  // The lock's owner started one tick before the process that has its pid now: the pid was reused.
  writeFileSync(`${db}.lock`, `${pid} ${Number(startTimeOf(pid)) - 1}`);
  const h = await openEmbedded(db);
  try {
    expect(readFileSync(`${db}.lock`, "utf8")).toBe(`${process.pid} ${startTimeOf(process.pid)}`);
  } finally {
    await h.close();
  }
  expect(existsSync(`${db}.lock`)).toBe(false);
});
