// Prepares what the test files copy or connect to: a migrated PGlite template, or a reachable PostgreSQL.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { createDatabase, dropDatabase } from "../../tools/postgres.ts";
import { POOLER_SERVER_CONNECTIONS, startPgBouncer } from "./pgbouncer.ts";
import { portalInputs, recordInputs, upToDate } from "../../tools/build-inputs.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    serverMain: string;
    portalDir: string;
    /** PostgreSQL: the migrated database that each test file's database is created from. */
    pgTemplate: string;
    /** `npm run test:pgbouncer`: the port of the suite's PgBouncer in transaction mode (0: none). */
    pgbouncerPort: number;
  }
}

export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB;
  // The server processes that tests start run the bundle `npm start` runs, built from this checkout (its own
  // folder: start-and-cli rebuilds dist/ while others run); tsx compiling at each of some thirty starts cost more than
  // a second of CPU apiece. Built when a file it is built from changed, as `npm start` does: once a run, not once per
  // project (each build ~3 s before any test starts), and not at all when nothing changed since the last run.
  const server = { main: ".tmp/server-tests/main.js", manifest: ".tmp/server-tests.inputs.json" };
  if (!upToDate(server.manifest, server.main)) {
    const build = `const { buildServer } = await import('./tools/build.mjs');
      const { recordInputs } = await import('./tools/build-inputs.mjs');
      recordInputs(process.argv[2], [...(await buildServer(process.argv[1])), 'tools/build.mjs', 'package.json']);`;
    execFileSync(process.execPath, ["--input-type=module", "-e", build, path.resolve(server.main), server.manifest], {
      stdio: "inherit",
    });
  }
  project.provide("serverMain", path.resolve(server.main));
  // The portal's production build for the browser journeys: one for every file and both projects, rebuilt only
  // when a file it is built from changed (one build per journey file cost each of them ~20 s on 2 cores).
  const portal = { dir: ".tmp/portal-tests", manifest: ".tmp/portal-tests.inputs.json" };
  if (!upToDate(portal.manifest, `${portal.dir}/index.html`)) {
    // Its own process: vitest's NODE_ENV=test would otherwise give React's development build.
    execFileSync(process.execPath, ["tools/build-portal.mjs", path.resolve(portal.dir)], { stdio: "inherit" });
    recordInputs(portal.manifest, portalInputs());
  }
  project.provide("portalDir", path.resolve(portal.dir));
  if (kind === "postgres") {
    const url = project.config.env?.TEST_PG_URL;
    if (!url)
      throw new Error(
        "CI=true needs PostgreSQL: set DATABASE_URL or TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)",
      );
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("select 1");
    } catch (err) {
      throw new Error(
        `PostgreSQL at ${url.replace(/\/\/[^@]*@/, "//***@")} is not reachable: ${(err as Error).message}`,
      );
    } finally {
      await client.end().catch(() => {});
    }
    // Each test file's database is a copy of this migrated one (CREATE DATABASE ... TEMPLATE), as on PGlite:
    // migrating each anew took ~1.2 s a file. One per run, so that two runs on one server never share it.
    const template = `logistics_template_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await createDatabase(url, template);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    const handle = await openDatabase({ databaseUrl: templateUrl.toString(), pgliteDir: "" });
    await migrateToLatest(handle.db);
    await handle.close();
    project.provide("pgTemplate", template);
    project.provide("pgbouncerPort", 0);
    const dropTemplate = () => dropDatabase(url, template);
    if (project.config.env?.TEST_POOLER !== "pgbouncer") return dropTemplate;
    // Every test database is reached through it (test/helpers/database.ts), as operators are told to run.
    const bouncer = await startPgBouncer(url, POOLER_SERVER_CONNECTIONS);
    project.provide("pgbouncerPort", bouncer.port);
    console.log(`npm run test:pgbouncer: PostgreSQL through PgBouncer (transaction mode) on port ${bouncer.port}`);
    return async () => {
      await bouncer.stop();
      await dropTemplate();
    };
  }
  // A fresh PGlite takes seconds to initialise; each test file copies this migrated one instead.
  // One template per run, so that two runs on one machine never share it.
  const root = mkdtempSync(path.join(tmpdir(), "logistics-template-"));
  const dir = path.join(root, "db");
  const handle = await openDatabase({ pgliteDir: dir, durability: "relaxed" });
  await migrateToLatest(handle.db);
  await handle.close();
  project.provide("pgliteTemplate", dir);
  return () => rmSync(root, { recursive: true, force: true });
}
