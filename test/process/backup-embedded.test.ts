// Backups and restores of the embedded database (issue 30), as docs/operating.md gives them: `npm run cli --
// backup` while the server runs and writes (the server takes it), `restore` refused while it runs, then
// restored and served; a backup holds every write acknowledged before it began and none sent after it ended.
// PGlite only (test/process/backup-postgres.test.ts has PostgreSQL's recipe).
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { DEMO } from "../../server/demo.ts";
import { expectRestoredAsOf, writeLoad } from "../helpers/write-load.ts";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-backup-"));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

// Two server starts and six CLI runs (each a process compiling the server's modules): about 45 s alone on two
// cores, more beside the suite's other files, so it has a limit of its own.
it(
  "embedded: backup while the server runs and writes, restore refused while it runs, then restored and served",
  { timeout: 180_000 },
  async () => {
    const env = { DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
    // A copy of the suite's migrated template, as start-and-cli's: a new directory's initialisation is not what
    // this test is about (test/process/owner-only-files.test.ts and start-and-cli's `npm start` make new ones).
    cpSync(inject("pgliteTemplate"), env.PGLITE_DIR, { recursive: true });
    let srv: ServerProcess | undefined = await startServerProcess({ ...env, SEED_DEMO: "true" });
    cleanups.push(async () => srv?.stop());
    const demo = (s: ServerProcess) => s.client(`M-${DEMO.merchantId}`, DEMO.merchantSecret);
    const load = writeLoad(demo(srv));
    await load.more(10);
    const from = performance.now();
    const backup = await cli(["backup", path.join(dir, "one.tgz")], env);
    const to = performance.now();
    await load.more(15);
    await load.stop();
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain("taken by the running server");
    expect(backup.output).toContain(`keep ${path.join(dir, "db")}.main-key apart from it`);

    // Not over a running server, nor over an existing file.
    const refused = await cli(["restore", path.join(dir, "one.tgz")], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("is in use by process");
    const again = await cli(["backup", path.join(dir, "one.tgz")], env);
    expect(again.code).toBe(1);
    expect(again.output).toContain("exists: a backup is written to a new file");

    expect(await srv.stop()).toBe(0);
    srv = undefined;
    // Stopped: the CLI takes a backup itself. A file that is not a backup changes nothing.
    const stopped = await cli(["backup", path.join(dir, "two.tgz")], env);
    expect(stopped.code, stopped.output).toBe(0);
    expect(stopped.output).toContain("no server was running");
    writeFileSync(path.join(dir, "junk.tgz"), "not a backup");
    const junk = await cli(["restore", path.join(dir, "junk.tgz")], env);
    expect(junk.code).toBe(1);
    expect(junk.output).toContain("Not a backup of the embedded database");
    expect(readdirSync(dir).filter((f) => f.startsWith("db.before-restore"))).toEqual([]);

    const restored = await cli(["restore", path.join(dir, "one.tgz")], env);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain("What was there is in");
    srv = await startServerProcess({ ...env, SEED_DEMO: "true" });
    await expectRestoredAsOf(demo(srv), load.created, from, to);
    // It takes writes again.
    const more = await demo(srv).POST("/inbound_shipments/_create", {
      body: { merchants_ref: "BK-after", sender_name: "A", products: [{ merchants_id: "S", qty: 1 }] },
    });
    expect(more.response.status).toBe(201);
  },
);
