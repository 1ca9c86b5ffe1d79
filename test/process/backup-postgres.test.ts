// Backups and restores on PostgreSQL (issue 30), as docs/operating.md gives them: pg_dump under write load,
// pg_restore into a new database, served; the restore holds every write acknowledged before the dump began and
// none sent after it ended. The CLI's backup points to them. PostgreSQL only.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { createScratchDatabase } from "../../tools/postgres.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { expectRestoredAsOf, writeLoad } from "../helpers/write-load.ts";
import { cli, startServerProcess } from "./helpers.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-backup-"));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

it("PostgreSQL: pg_dump under write load, pg_restore into a new database, served; the CLI points to them", async () => {
  const handle = await createTestDatabase();
  cleanups.push(() => handle.close());
  await provisionAccount(handle.db, "merchant", "backed-up.example.com", "backed-up-secret-1");
  const srv = await startServerProcess({ DATABASE_URL: handle.url! });
  cleanups.push(() => srv.stop());
  const m = srv.client("M-backed-up.example.com", "backed-up-secret-1");
  const load = writeLoad(m);
  await load.more(10);
  const file = path.join(dir, "pg.dump");
  const from = performance.now();
  // The documented recipe (docs/operating.md).
  const dump = spawnSync("pg_dump", ["--format=custom", `--file=${file}`, handle.url!], { encoding: "utf8" });
  const to = performance.now();
  await load.more(15);
  await load.stop();
  expect(dump.status, dump.stderr).toBe(0);
  expect(existsSync(file)).toBe(true);

  const target = await createScratchDatabase(process.env.TEST_PG_URL!);
  if ("unreachable" in target) throw new Error(target.unreachable);
  cleanups.push(() => target.drop());
  const restore = spawnSync("pg_restore", ["--no-owner", `--dbname=${target.url}`, file], { encoding: "utf8" });
  expect(restore.status, restore.stderr).toBe(0);
  const restored = await startServerProcess({ DATABASE_URL: target.url });
  cleanups.push(() => restored.stop());
  await expectRestoredAsOf(restored.client("M-backed-up.example.com", "backed-up-secret-1"), load.created, from, to);

  const pointed = await cli(["backup", path.join(dir, "cli.tgz")], { DATABASE_URL: handle.url! });
  expect(pointed.code).toBe(1);
  expect(pointed.output).toContain("back up with pg_dump and restore with pg_restore");
});
