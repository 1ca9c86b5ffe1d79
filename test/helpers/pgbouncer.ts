// A PgBouncer of the test's own (Debian's package, installed by .ci/run) in transaction mode in front of the
// test PostgreSQL, on a free port: the pooler managed PostgreSQL services put between a service and its database.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../tools/processes.ts";

const BINARY = "/usr/sbin/pgbouncer";

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
  stop(): Promise<void>;
}

export async function startPgBouncer(postgresUrl: string, poolSize = 4): Promise<PgBouncer> {
  if (!existsSync(BINARY))
    throw new Error(`${BINARY} is missing: apt-get install -y pgbouncer (.ci/run installs it when missing)`);
  const pg = new URL(postgresUrl);
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "pgbouncer-"));
  const user = decodeURIComponent(pg.username || "postgres");
  writeFileSync(path.join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${pg.hostname} port=${pg.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
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
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
