import { accessSync, constants } from "node:fs";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/file-times.ts";

// The same suite runs on the embedded PGlite always, and on PostgreSQL when a URL is given.
// Under CI=true PostgreSQL is required: its absence fails the run instead of skipping it.
const pgUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
const withPostgres = Boolean(pgUrl) || process.env.CI === "true";

// Everything the tests write to the temporary directory goes to memory where the machine has a tmpfs at /dev/shm (an
// explicit TMPDIR is kept): each test file's copy of the migrated PGlite template (40 MB), the process tests' data
// directories, backups, the packed client's project. Set here, it reaches vitest's workers and every process they
// start. On this machine's disk (ext4) copying the template alone took ~0.8 s of processor time, on the tmpfs ~0.05 s;
// the files of test/process, test/readme and test/client spent 150-153 processor seconds instead of 173-187
// (bench/levers.md section 35). Nothing tested here needs a disk under it: a killed process loses no written page
// either way, and the power cuts are the FUSE file system's (test/helpers/power-cut-fs.py).
if (!process.env.TMPDIR) {
  try {
    accessSync("/dev/shm", constants.W_OK);
    process.env.TMPDIR = "/dev/shm";
  } catch {
    // no tmpfs there: the system's temporary directory
  }
}

const shared = {
  include: ["test/**/*.test.ts"],
  // Generous: several files start server processes at once; a hang still fails, a busy machine does not.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // A worker keeps its modules from one file to the next instead of importing the server's ~600 anew for each:
  // import time fell from 188 s to 45 s and the suite from 539 s to 397 s on 2 cores. Every file builds its own
  // app, database and clients, and no test mocks a module, so nothing leaks from one file into the next.
  isolate: false,
  // Each file's processor seconds, for test/file-times.ts.
  setupFiles: ["test/helpers/cpu-time.ts"],
};

export default defineConfig({
  test: {
    // Most tests wait on databases and child processes, not the CPU: three files at a time on two cores
    // (vitest's default is cores - 1, one file at a time here) cut the suite from ~460 s to ~390 s.
    maxWorkers: 3,
    // The longest files first (test/file-times.ts), so that no long file runs alone at the end of a project.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          ...shared,
          name: "pglite",
          // One database after the other: a worker then keeps one project's modules (see isolate above);
          // interleaved (as --sequence.shuffle.files ran them), the suite took 547 s; in groups 464 s from a cold cache.
          sequence: { groupOrder: 0 },
          // Several instances need a server database: PGlite belongs to one process. Query plans are PostgreSQL's.
          exclude: [
            "test/inbound/query-plans.test.ts",
            "test/inbound/catalogue-race.test.ts",
            "test/process/instances.test.ts",
            "test/process/credential-rotation.test.ts",
            "test/process/web-concurrency.test.ts",
            "test/process/webhook-instances.test.ts",
            "test/process/database-outage.test.ts",
            "test/process/soak.test.ts",
            "test/process/pooler.test.ts",
            "test/process/shared-connections.test.ts",
            "test/process/pool-wait.test.ts",
            "test/process/write-batches.test.ts",
            "test/process/proxy.test.ts",
            "test/process/backup-postgres.test.ts",
            "test/process/rolling-upgrade.test.ts",
          ],
          env: { TEST_DB: "pglite" },
          globalSetup: ["test/helpers/global-setup.ts"],
        },
      },
      ...(withPostgres
        ? [
            {
              test: {
                ...shared,
                name: "postgres",
                sequence: { groupOrder: 1 },
                // Database-independent checks (spec, generation, contract through Prism) run once, on PGlite.
                // start-and-cli, graceful-stop, code-cache and the packed client's run exercise the embedded default that
                // `npm start` uses.
                // The browser journeys test pages: what the portal and the picker ask of the server is the API and the
                // portal's sessions, whose tests (test/portal, test/shipping, ...) run here too. Run on both, the
                // journeys were a third of the suite's time (~590 s of file time of ~3,300).
                exclude: [
                  "test/unit/**",
                  "test/contract/**",
                  "test/mock/prefer.test.ts",
                  "test/process/start-and-cli.test.ts",
                  "test/process/graceful-stop.test.ts",
                  "test/process/code-cache.test.ts",
                  "test/process/backup-embedded.test.ts",
                  "test/process/owner-only-files.test.ts",
                  "test/process/owner-only-record.test.ts",
                  "test/process/embedded-listen.test.ts",
                  "test/process/embedded-upkeep.test.ts",
                  "test/process/embedded-exchanges.test.ts",
                  "test/process/embedded-prestart.test.ts",
                  "test/process/embedded-lock.test.ts",
                  "test/process/durable-commits.test.ts",
                  "test/process/durable-trace.test.ts",
                  "test/process/power-cut-fs.test.ts",
                  "test/process/power-cut.test.ts",
                  "test/process/feed-restore.test.ts",
                  "test/process/tracing.test.ts",
                  "test/client/package.test.ts",
                  "test/browser/**",
                  "test/readme/**",
                ],
                // TEST_POOLER=pgbouncer (npm run test:pgbouncer): through a PgBouncer in transaction mode.
                env: { TEST_DB: "postgres", TEST_PG_URL: pgUrl ?? "", TEST_POOLER: process.env.TEST_POOLER ?? "" },
                globalSetup: ["test/helpers/global-setup.ts"],
              },
            },
          ]
        : []),
    ],
  },
});
