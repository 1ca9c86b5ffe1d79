// Durable commits seen from the system calls (issue 52): the server as `npm start` runs it on the embedded database,
// traced with strace while writers create shipments at once. For every answered create (found by its shipment's id,
// in the answer's bytes and in the log's), the log file that holds its commit is flushed (fsync) after the commit was written and before the answer's bytes leave (strace-log.ts
// says how a commit is found). The same check on a server with PGLITE_DURABILITY=relaxed finds no flush: the check
// can fail. Needs strace (Debian's), which .ci/run installs; ptrace of a child is allowed on these machines.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";
import { parseStrace, unflushedAnswer } from "./strace-log.ts";

const MERCHANT = "trace.example.com";
const SECRET = "trace-secret-1234";
const dir = mkdtempSync(path.join(tmpdir(), "logistics-trace-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hasStrace = spawnSync("strace", ["-V"]).status === 0;

async function server(name: string, durability: string): Promise<ServerProcess> {
  const env = { DATABASE_URL: "", PGLITE_DIR: path.join(dir, name), PGLITE_DURABILITY: durability };
  cpSync(inject("pgliteTemplate"), env.PGLITE_DIR, { recursive: true });
  const created = await cli(["merchant", "create", MERCHANT, "--secret", SECRET], env);
  expect(created.code, created.output).toBe(0);
  return startServerProcess(env, undefined, undefined, { readyTimeoutMs: 120_000 });
}

/**
 * strace on every thread of `pid` while `work` runs; the log once it has stopped. `answered` gives the ids whose
 * answers the log must hold before strace stops: strace writes a call's line once the call has returned, and a
 * client can read the answer before that line is written (on a busy machine the last answer was missing from the log).
 */
async function traced(pid: number, work: () => Promise<void>, answered: () => string[]): Promise<string> {
  const file = path.join(dir, `strace-${pid}.log`);
  const strace = spawn(
    "strace",
    [
      "-f",
      "-p",
      String(pid),
      "-y",
      "-xx",
      "-s",
      "1000000",
      "-o",
      file,
      "-e",
      "trace=write,writev,pwrite64,pwritev,fsync,fdatasync",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let said = "";
  strace.stderr.on("data", (d) => (said += d));
  const exited = new Promise((resolve) => strace.on("exit", resolve));
  // strace says once a thread is attached; the last of them within a moment of the first.
  const until = Date.now() + 30_000;
  while (!/attached/.test(said) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(said).toMatch(/attached/);
  await new Promise((r) => setTimeout(r, 500));
  await work();
  // The id is in the log's own write too: only the answer's counts (strace-log.ts finds it).
  const logged = () => {
    const calls = parseStrace(readFileSync(file, "latin1"));
    return answered().every((id) => unflushedAnswer(calls, id) !== `no answer holding ${id}`);
  };
  for (const until = Date.now() + 10_000; !logged() && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
  strace.kill("SIGINT");
  await exited;
  return readFileSync(file, "latin1");
}

/** `writers` at once, each creating `each` shipments one after another; the ids answered (201): the answer holds
 * its shipment's id, and so does the log's record of the row. */
async function creates(s: ServerProcess, tag: string, writers: number, each: number): Promise<string[]> {
  const m = s.client(`M-${MERCHANT}`, SECRET);
  const answered: string[] = [];
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < each; i++) {
        const ref = `${tag}-${w}-${i}-${Math.random().toString(36).slice(2, 8)}`;
        const r = await m.POST("/inbound_shipments/_create", {
          body: { merchants_ref: ref, sender_name: "Trace", products: [{ merchants_id: `P-${ref}`, qty: 1 }] },
        });
        expect(r.response.status).toBe(201);
        answered.push(r.data!.shipment_id);
      }
    }),
  );
  return answered;
}

// Skipped only outside CI, on a machine without strace; CI installs it. (Skipped for a while after an intermittent
// miss in a full run: the reader took the next request's commit, written while this one's flush was under way, as
// part of this one's; strace-log.ts now follows a commit's writes only where they continue one another.)
it.skipIf(!hasStrace && !process.env.CI)(
  "durable: every answered create's commit is flushed after it was written and before its answer; relaxed: never",
  { timeout: 300_000 },
  async () => {
    const durable = await server("durable", "durable");
    try {
      let ids: string[] = [];
      const log = await traced(
        durable.proc.child.pid!,
        async () => {
          ids = await creates(durable, "DUR", 4, 6);
        },
        () => ids,
      );
      const calls = parseStrace(log);
      expect(ids).toHaveLength(24);
      expect(ids.map((id) => [id, unflushedAnswer(calls, id)])).toEqual(ids.map((id) => [id, undefined]));
      // Grouped: fewer flushes of the log than answered commits (each writer waits for its answer before its next).
      const logFlushes = calls.filter((c) => c.name === "fsync" && c.target.includes("/pg_wal/")).length;
      expect(logFlushes).toBeGreaterThan(0);
      expect(logFlushes).toBeLessThanOrEqual(ids.length);
    } finally {
      expect(await durable.stop()).toBe(0);
    }

    const relaxed = await server("relaxed", "relaxed");
    try {
      let ids: string[] = [];
      const log = await traced(
        relaxed.proc.child.pid!,
        async () => {
          ids = await creates(relaxed, "REL", 1, 3);
        },
        () => ids,
      );
      const calls = parseStrace(log);
      expect(ids).toHaveLength(3);
      for (const id of ids) expect(unflushedAnswer(calls, id)).toMatch(/^no flush of .*pg_wal/);
    } finally {
      expect(await relaxed.stop()).toBe(0);
    }
  },
);
