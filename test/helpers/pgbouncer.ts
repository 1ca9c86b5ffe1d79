// A PgBouncer of the test's own (Debian's package, installed by .ci/run) in transaction mode in front of the
// test PostgreSQL, on a free port: the pooler managed PostgreSQL services put between a service and its database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../../tools/processes.ts";

const BINARY = "/usr/sbin/pgbouncer";

/**
 * Server connections per test database of the suite's pooler (npm run test:pgbouncer): as many as a test server's
 * pool opens (database.ts's default of 10), as operators size it (default_pool_size at least the instances' pools
 * together, docs/operating.md). Fewer, and a burst's transactions wait in the pooler for one another on top of
 * their row locks, past their time limits on a loaded machine (the earlier attempt's 503s with 8).
 */
export const POOLER_SERVER_CONNECTIONS = 10;

export interface PgBouncer {
  port: number;
  /** `url` (a database on the test PostgreSQL) as reached through this pooler. */
  through(url: string): string;
  /** Kills it at once (SIGKILL), as a crashed or restarted pooler leaves its clients. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Its log (connections refused, errors). */
  log(): string;
  /** Closes its server connections to `database`, so that the database can be dropped (releasePooled). */
  release(database: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startPgBouncer(postgresUrl: string, poolSize = 4): Promise<PgBouncer> {
  if (!existsSync(BINARY))
    throw new Error(`${BINARY} is missing: apt-get install -y pgbouncer (.ci/run installs it when missing)`);
  const server = new URL(postgresUrl);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "pgbouncer-"));
  const user = decodeURIComponent(server.username || "postgres");
  writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${server.hostname} port=${server.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      // The admin console (database pgbouncer) for KILL: a test database is dropped at the end of its file.
      `admin_users = ${user}`,
      `auth_file = ${path.join(dir, "users.txt")}`,
      "pool_mode = transaction",
      // Few server connections: a statement that relied on its session would meet another client's connection.
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      `pidfile = ${path.join(dir, "pgbouncer.pid")}`,
      "",
    ].join("\n"),
  );
  // PgBouncer refuses to run as root: as root, it runs as the postgres user, who must own its files.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "postgres"]).stdout.toString().trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"]).stdout.toString().trim());
    for (const f of [".", ...readdirSync(dir)]) chownSync(path.join(dir, f), uid, gid);
  }
  let child: ChildProcess | undefined;
  let output = "";
  const start = async () => {
    child = spawn(BINARY, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    const until = Date.now() + 10_000;
    while (Date.now() < until) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited:\n${output}`);
      const ready = spawnSync("pg_isready", ["-h", "127.0.0.1", "-p", String(port), "-q"]).status === 0;
      if (ready) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`pgbouncer not ready in time:\n${output}`);
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once("exit", r));
    c.kill("SIGKILL");
    await exited;
    rmSync(path.join(dir, "pgbouncer.pid"), { force: true });
  };
  await start();
  return {
    port,
    through: (url) => {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    kill,
    start,
    log: () => output,
    release: (database) => releasePooled(port, postgresUrl, database),
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Closes the server connections that the PgBouncer on `port` (in front of `postgresUrl`'s server) keeps to
 * `database` after its clients left: the admin console's KILL, then RESUME so that the name is usable again.
 */
export async function releasePooled(port: number, postgresUrl: string, database: string): Promise<void> {
  const user = decodeURIComponent(new URL(postgresUrl).username || "postgres");
  const admin = new pg.Client({ host: "127.0.0.1", port, user, database: "pgbouncer" });
  await admin.connect();
  try {
    // The admin console speaks the simple protocol only (a query without parameters). A database it never saw
    // has nothing to close.
    await admin.query(`KILL ${database}`).catch((err: Error) => {
      if (!/no such database/i.test(err.message)) throw err;
    });
    await admin.query(`RESUME ${database}`).catch(() => {});
  } finally {
    await admin.end().catch(() => {});
  }
}
