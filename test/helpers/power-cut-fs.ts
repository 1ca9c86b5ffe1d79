// Mounts power-cut-fs.py (beside this file: a FUSE file system that keeps what was not flushed in memory and drops
// it when the power is cut) for the power-cut tests. Needs /dev/fuse, fusermount3 and Debian's python3-pyfuse3
// (.ci/run installs them); without them mounting throws, so that a machine unable to run the test fails it.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "power-cut-fs.py");
// Debian's python, where python3-pyfuse3 lives (a python3 earlier on the PATH may be another).
const PYTHON = "/usr/bin/python3";

export interface PowerCutFs {
  /** Where the files are seen; `backing` holds what a power cut leaves. */
  mountpoint: string;
  backing: string;
  /** Cuts the power: every unflushed write and directory change is dropped, every later operation fails (EIO). */
  cut(): Promise<void>;
  /** From now on every fsync fails with EIO, as on a failing disk. */
  failFsync(): Promise<void>;
  /** Unmounts (after a cut: the machine is off); mount `backing` again to power on. */
  stop(): Promise<void>;
}

export async function mountPowerCutFs(backing: string, mountpoint: string): Promise<PowerCutFs> {
  mkdirSync(backing, { recursive: true });
  mkdirSync(mountpoint, { recursive: true });
  const child = spawn(PYTHON, [SCRIPT, backing, mountpoint], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let waiters: (() => void)[] = [];
  const heard = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.stdout.on("data", (d) => ((out += d), heard()));
  child.stderr.on("data", (d) => ((out += d), heard()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => (resolve(code), heard())));
  child.on("error", (err) => ((out += String(err)), heard()));
  let lines = 0;
  /** Waits until the file system prints `line` (counted from its previous answer). */
  const says = async (line: string, timeoutMs = 30_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const said = out.split("\n");
      const at = said.indexOf(line, lines);
      if (at >= 0) {
        lines = at + 1;
        return;
      }
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > until)
        throw new Error(
          `power-cut-fs did not say "${line}" (needs /dev/fuse, fusermount3 and python3-pyfuse3: apt-get install ` +
            `fuse3 python3-pyfuse3):\n${out}`,
        );
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  await says("mounted");
  return {
    mountpoint,
    backing,
    cut: async () => {
      child.kill("SIGUSR1");
      await says("cut");
    },
    failFsync: async () => {
      child.kill("SIGUSR2");
      await says("fsync fails");
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("late"), 15_000))]);
      if (code === "late") {
        child.kill("SIGKILL");
        await exited;
      }
      // A file system that ended without unmounting leaves a dead mount behind.
      spawnSync("fusermount3", ["-u", "-z", mountpoint], { stdio: "ignore" });
      waiters = [];
    },
  };
}
