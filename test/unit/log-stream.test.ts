// The server's log stream (server/shared/log-stream.ts): lines gathered and written together, none lost at exit.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Runs `body` in a node process with `log` (a pino logger on the batched stream); its stdout and the write calls. */
function run(
  body: string,
  stream = "batchedLogStream()",
): Promise<{ stdout: string; stderr: string; writes: number; timersRun: number; code: number | null }> {
  const code = `
    import fs from "node:fs";
    let writes = 0;
    for (const name of ["write", "writeSync"]) {
      const original = fs[name];
      fs[name] = function (fd, ...rest) {
        if (fd === 1) {
          writes++;
        }
        return original.call(this, fd, ...rest);
      };
    }
    // Timer callbacks that ran: the stream's batch timer is the only timer these bodies start.
    let timersRun = 0;
    const setTimer = globalThis.setTimeout;
    globalThis.setTimeout = (f, ...rest) => setTimer(() => (timersRun++, f()), ...rest);
    process.on("exit", () => process.stderr.write("writes=" + writes + " timers=" + timersRun));
    const { pino } = await import("pino");
    const { batchedLogStream } = await import(${JSON.stringify(path.join(root, "server/shared/log-stream.ts"))});
    const log = pino({ base: undefined, timestamp: false }, ${stream});
    ${body}
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], { cwd: root });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (exitCode) =>
      resolve({
        stdout,
        stderr,
        writes: Number(/writes=(\d+)/.exec(stderr)?.[1] ?? NaN),
        timersRun: Number(/timers=(\d+)/.exec(stderr)?.[1] ?? NaN),
        code: exitCode,
      }),
    );
  });
}

const lines = (stdout: string) =>
  stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { msg: string }).msg);

describe("the batched log stream", () => {
  // Lines a millisecond apart, as a server's request lines come under traffic: pino's own stream writes nearly each
  // one alone; the batched stream writes a few batches.
  const spread = `
    for (let i = 0; i < 40; i++) {
      log.info("line " + i);
      await new Promise((r) => setTimeout(r, 1));
    }
  `;

  it("writes lines that come a millisecond apart together, in order", async () => {
    const r = await run(spread);
    expect(lines(r.stdout)).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i}`));
    // ~40-60 ms of lines in batches of 10 ms.
    expect(r.writes).toBeLessThanOrEqual(10);
    expect(r.code).toBe(0);
    // What the batching is for: pino's own stream on the same lines.
    const unbatched = await run(spread, "pino.destination({ dest: 1, sync: false })");
    expect(lines(unbatched.stdout)).toHaveLength(40);
    console.log("DEBUG", r.writes, unbatched.writes, unbatched.stdout.length);
    expect(unbatched.writes).toBeGreaterThan(20);
  });

  it("loses no line at process.exit, at a crash or after the event loop empties", async () => {
    const exit = await run(`log.info("before exit"); process.exit(3);`);
    expect(lines(exit.stdout)).toEqual(["before exit"]);
    expect(exit.code).toBe(3);
    const crash = await run(`log.info("before a crash"); setImmediate(() => { throw new Error("boom"); });`);
    expect(lines(crash.stdout)).toEqual(["before a crash"]);
    expect(crash.code).toBe(1);
    // The timer is unref'd: a process with nothing else to do ends at once, and its last lines still go out.
    const idle = await run(`log.info("last words");`);
    expect(lines(idle.stdout)).toEqual(["last words"]);
  });

  it("writes a line at once when none came in the last 10 ms, and what is gathered at logger.flush()", async () => {
    const r = await run(`
      log.info("first");
      process.stderr.write("after-first=" + writes + " ");
      log.info("second");
      process.stderr.write("after-second=" + writes + " ");
      log.flush();
      process.stderr.write("after-flush=" + writes + " ");
    `);
    expect(lines(r.stdout)).toEqual(["first", "second"]);
    expect(r.stderr).toContain("after-first=1 after-second=1 ");
    // Handed over at the flush (written as soon as the first write is done), not 10 ms later by the timer: no timer
    // callback ran (a gap between the writes was measured before, and a loaded machine stretched it past 10 ms).
    expect(r.writes).toBe(2);
    expect(r.timersRun).toBe(0);
  });

  it("writes a batch once it holds 16 KB, without waiting for the timer", async () => {
    const r = await run(`
      const big = "x".repeat(1000);
      for (let i = 0; i < 40; i++) log.info(big);
      setTimeout(() => {}, 50);
    `);
    expect(lines(r.stdout)).toHaveLength(40);
    // ~40 KB: at least two writes of a full batch and the rest.
    expect(r.writes).toBeGreaterThanOrEqual(2);
  });
});
