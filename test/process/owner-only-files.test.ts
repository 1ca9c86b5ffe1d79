// The embedded database's files are the service user's alone (issue 48 item 1): the server and the CLI started
// from a shell with umask 0000 leave no file or directory that another user may read or write, in a new data
// directory, in one an older release left readable by everyone (an upgrade), and after a restore (the directory
// and what was set aside); `<PGLITE_DIR>.lock`, `.control/` and its socket, and backups too. PGlite only.
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { DEMO } from "../../server/demo.ts";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";

const root = mkdtempSync(path.join(tmpdir(), "logistics-owner-only-"));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(root, { recursive: true, force: true });
});

const UMASK_0000 = { umask: 0o000 };
const dataDir = path.join(root, "db");
const env = { DATABASE_URL: "", PGLITE_DIR: dataDir };

/** Every path under `paths` (themselves too) whose mode gives group or others any bit, with that mode. */
function openToOthers(...paths: string[]): string[] {
  const found: string[] = [];
  const walk = (p: string) => {
    const info = lstatSync(p);
    if (info.isSymbolicLink()) return;
    if (info.mode & 0o077) found.push(`${path.relative(root, p)} ${(info.mode & 0o777).toString(8)}`);
    if (info.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  for (const p of paths) if (existsSync(p)) walk(p);
  return found;
}

/** What is beside the data directory: its lock, control directory, set-aside copies, backups. */
const everything = () => readdirSync(root).map((name) => path.join(root, name));

/** As an older release (or a copy made with umask 0) left it: the issue saw 968 files at 0666, the directory 0755. */
function loosen(dir: string): number {
  let count = 0;
  const walk = (p: string) => {
    const info = lstatSync(p);
    chmodSync(p, info.isDirectory() ? 0o777 : 0o666);
    count++;
    if (info.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  walk(dir);
  return count;
}

async function server(): Promise<ServerProcess> {
  // A new directory is initialised, migrated and seeded first: ~10 s alone, 50 s seen beside other test files.
  const srv = await startServerProcess({ ...env, SEED_DEMO: "true" }, undefined, undefined, {
    ...UMASK_0000,
    readyTimeoutMs: 120_000,
  });
  cleanups.push(async () => srv.stop());
  return srv;
}

async function writeSome(srv: ServerProcess, ref: string) {
  const demo = srv.client(`M-${DEMO.merchantId}`, DEMO.merchantSecret);
  for (let i = 0; i < 5; i++) {
    const created = await demo.POST("/inbound_shipments/_create", {
      body: { merchants_ref: `${ref}-${i}`, sender_name: "A", products: [{ merchants_id: `S${i}`, qty: 1 }] },
    });
    expect(created.response.status).toBe(201);
  }
}

// Four server starts and six CLI runs, each a process opening the embedded database, two of them new ones.
it(
  "with umask 0000: a new directory, an older release's 0666 one and a restored one end with nothing others may read",
  { timeout: 480_000 },
  async () => {
    // A new directory, made by the server: while it runs (lock, control socket) and after it stopped.
    let srv = await server();
    await writeSome(srv, "NEW");
    expect(existsSync(`${dataDir}.lock`)).toBe(true);
    expect(existsSync(`${dataDir}.control/socket`)).toBe(true);
    const backup = path.join(root, "taken-while-running.tgz");
    const taken = await cli(["backup", backup], env, UMASK_0000);
    expect(taken.code, taken.output).toBe(0);
    expect(taken.output).toContain("taken by the running server");
    expect(openToOthers(...everything())).toEqual([]);
    expect(srv.proc.output()).not.toContain("readable or writable by other users");
    expect(await srv.stop()).toBe(0);
    expect(openToOthers(...everything())).toEqual([]);

    // A new directory made by the CLI, and a backup it takes itself.
    const cliDir = path.join(root, "cli-made");
    const migrated = await cli(["migrate"], { ...env, PGLITE_DIR: cliDir }, UMASK_0000);
    expect(migrated.code, migrated.output).toBe(0);
    const stoppedBackup = await cli(["backup", path.join(root, "taken-stopped.tgz")], env, UMASK_0000);
    expect(stoppedBackup.code, stoppedBackup.output).toBe(0);
    expect(stoppedBackup.output).toContain("no server was running");
    expect(openToOthers(...everything())).toEqual([]);

    // An existing directory that others could read (an upgrade): the CLI tightens it and says so ...
    expect(loosen(dataDir)).toBeGreaterThan(900);
    expect(openToOthers(dataDir).length).toBeGreaterThan(900);
    const upgraded = await cli(["migrate"], env, UMASK_0000);
    expect(upgraded.code, upgraded.output).toBe(0);
    expect(upgraded.output).toMatch(/\d{3,} files and directories of the embedded database .* were readable/);
    expect(openToOthers(...everything())).toEqual([]);
    // ... and so does the server, in its log.
    loosen(dataDir);
    srv = await server();
    await expect.poll(() => srv.proc.output()).toMatch(/\d{3,} files and directories of the embedded database/);
    expect(openToOthers(...everything())).toEqual([]);
    await writeSome(srv, "UPGRADED");
    expect(await srv.stop()).toBe(0);
    expect(openToOthers(...everything())).toEqual([]);

    // A restore over a directory others could read: the restored one and the one set aside are the user's alone.
    loosen(dataDir);
    const restored = await cli(["restore", backup], env, UMASK_0000);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/What was there is in .*db\.before-restore-/);
    expect(restored.output).toMatch(/\d{3,} files and directories in .* were readable or writable by other users/);
    expect(readdirSync(root).filter((f) => f.startsWith("db.before-restore-"))).toHaveLength(1);
    expect(openToOthers(...everything())).toEqual([]);
    srv = await server();
    // The restored database is the one backed up, and serves.
    await writeSome(srv, "RESTORED");
    expect(srv.proc.output()).not.toContain("readable or writable by other users");
    expect(await srv.stop()).toBe(0);
    expect(openToOthers(...everything())).toEqual([]);
  },
);
