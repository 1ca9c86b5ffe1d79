// A throw-away PostgreSQL cluster of the test's own, for tests that stop, stall or restart the database
// (never the shared server on 5432). Made with the server's own initdb and pg_ctl, run as the postgres user.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../tools/processes.ts";

const BIN = "/usr/lib/postgresql/15/bin";

export interface OwnCluster {
  url: string;
  start(): void;
  /** `pg_ctl stop -m fast`: what a restart, a minor upgrade or a failover does to the connections. */
  stop(): void;
  /** SIGSTOP (or SIGCONT) to every process of the cluster: it accepts connections but answers nothing. */
  pause(): void;
  resume(): void;
  destroy(): void;
}

export function ownClusterAvailable(): string | undefined {
  if (!existsSync(`${BIN}/initdb`)) return `no ${BIN}/initdb`;
  if (spawnSync("id", ["-u", "postgres"]).status !== 0) return "no postgres user";
  return undefined;
}

const asPostgres = (cmd: string, args: string[]) => {
  const asRoot = process.getuid?.() === 0;
  return execFileSync(asRoot ? "runuser" : cmd, asRoot ? ["-u", "postgres", "--", cmd, ...args] : args, {
    stdio: "pipe",
    encoding: "utf8",
  });
};

export async function createOwnCluster(): Promise<OwnCluster> {
  const root = mkdtempSync(path.join(tmpdir(), "logistics-cluster-"));
  const data = path.join(root, "data");
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
  chownSync(root, uid, gid);
  asPostgres(`${BIN}/initdb`, ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const ctl = (...args: string[]) => asPostgres(`${BIN}/pg_ctl`, ["-D", data, ...args]);
  const pids = () => {
    const postmaster = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    // The backends and background workers are the postmaster's children.
    const children = spawnSync("pgrep", ["-P", String(postmaster)], { encoding: "utf8" })
      .stdout.trim()
      .split("\n")
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  };
  const cluster: OwnCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () =>
      void ctl(
        "-w",
        "-l",
        path.join(root, "log"),
        "-o",
        `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
        "start",
      ),
    stop: () => void ctl("-w", "-m", "fast", "stop"),
    pause: () => pids().forEach((p) => process.kill(p, "SIGSTOP")),
    resume: () => pids().forEach((p) => process.kill(p, "SIGCONT")),
    destroy: () => {
      try {
        cluster.resume();
        ctl("-m", "immediate", "stop");
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
