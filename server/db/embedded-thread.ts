// The request thread's side of the embedded database's own thread (embedded-worker.mjs): one exchange of protocol
// messages at a time goes over, its answer comes back. PGlite's WebAssembly spent most of a request's CPU on
// the request thread (issue 27); there it blocked every other request while it ran.
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";
import type { Exchange } from "./embedded-connection.ts";

export interface EmbeddedThread {
  exchange: Exchange;
  /** The data directory as a gzipped tar (PGlite's dumpDataDir). */
  dump(): Promise<Uint8Array>;
  /**
   * Resolves once every commit whose exchange has answered so far is on the disk (embedded-flush.mjs): one flush
   * for all the commits made meanwhile. At once with relaxed durability, or when nothing was written since.
   */
  durable(): Promise<void>;
  close(): Promise<void>;
  /**
   * Whether the thread's file system makes every file and directory the service user's alone (embedded-worker.mjs:
   * false for a PGlite whose Emscripten module no longer offers what it changes).
   */
  ownerOnly: boolean;
}

interface Reply {
  id?: number;
  ready?: true;
  ownerOnly?: boolean;
  failed?: PlainError;
  out?: Uint8Array;
  /** How far the log was written (an exchange's answer), or flushed (a flush's). */
  gen?: number;
  error?: PlainError;
}
interface PlainError {
  message: string;
  code?: string;
  errno?: number;
}

const revive = (e: PlainError) => Object.assign(new Error(e.message), { code: e.code, errno: e.errno });

/**
 * Whether the operator gave node its own --wasm-tiering-budget (in node's arguments or NODE_OPTIONS, node's own
 * variable, not one of the service's settings): V8's flags are the process's, and the thread then leaves it as it
 * is (embedded-worker.mjs).
 */
export function tieringBudgetGiven(env: NodeJS.ProcessEnv = process.env, execArgv = process.execArgv): boolean {
  return v8FlagGiven("--wasm-tiering-budget", env, execArgv);
}

/** Likewise for --wasm-lazy-validation (or its --no- form): the thread then leaves validation as the operator set it. */
export function lazyValidationGiven(env: NodeJS.ProcessEnv = process.env, execArgv = process.execArgv): boolean {
  return (
    v8FlagGiven("--wasm-lazy-validation", env, execArgv) || v8FlagGiven("--no-wasm-lazy-validation", env, execArgv)
  );
}

/** Released (1) once a thread started from now on may change V8's flags; see holdV8FlagChanges. */
let flagsGate: Int32Array | undefined;

/**
 * V8 takes a code cache (server/server-script.ts) only under the flags it was made under, and the thread changes two
 * of the process's flags as it opens (embedded-worker.mjs): --wasm-tiering-budget for the opening only, and
 * --wasm-lazy-validation for good. So that a start compiles the server under the flags its cache was made under
 * (once the server listens): --wasm-lazy-validation is set now, by this thread, as the thread would set it; and a
 * thread started from now on changes the tiering budget only once the returned function is called (after the
 * server's script is compiled, ~30-100 ms into the start, while the thread still loads PGlite's modules), or after
 * 2 s at the latest. Without it the budget was changed while the script compiled, and V8 rejected every cache.
 */
export function holdV8FlagChanges(): () => void {
  if (!lazyValidationGiven()) setFlagsFromString("--wasm-lazy-validation");
  const gate = (flagsGate ??= new Int32Array(new SharedArrayBuffer(4)));
  return () => {
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
  };
}

const v8FlagGiven = (flag: string, env: NodeJS.ProcessEnv, execArgv: string[]) =>
  [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].some((a) => a.startsWith(flag));

/**
 * Starts PGlite in `dir` on a thread of its own, with `startParams` after PGlite's defaults; resolves when it is
 * open, rejects with its error if it fails. `durable`: its flushes reach the disk (embedded-flush.mjs).
 */
export async function startEmbeddedThread(
  dir: string,
  startParams: string[],
  loadDataDir?: Uint8Array,
  durable = false,
): Promise<EmbeddedThread> {
  const worker = new Worker(new URL("./embedded-worker.mjs", import.meta.url), {
    workerData: {
      dir,
      startParams,
      loadDataDir,
      durable,
      tieringBudgetGiven: tieringBudgetGiven(),
      lazyValidationGiven: lazyValidationGiven(),
      flagsGate,
    },
    // The thread runs plain JavaScript: no TypeScript loader of the parent's is needed there.
    execArgv: [],
  });
  const waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let next = 1;
  let stopped: Error | undefined;
  const stop = (err: Error) => {
    stopped ??= err;
    for (const w of waiting.values()) w.reject(stopped);
    waiting.clear();
  };
  const opened = new Promise<boolean>((resolve, reject) => {
    worker.on("message", (r: Reply) => {
      if (r.ready) return resolve(r.ownerOnly === true);
      if (r.failed) return reject(revive(r.failed));
      const w = waiting.get(r.id!);
      if (!w) return;
      waiting.delete(r.id!);
      if (r.error) w.reject(revive(r.error));
      else w.resolve(r);
    });
    worker.on("error", (err) => {
      reject(err);
      stop(new Error(`the embedded database's thread failed: ${err.message}`, { cause: err }));
    });
    worker.on("exit", (code) => {
      reject(new Error(`the embedded database's thread ended (exit code ${code}) before it opened`));
      stop(new Error(`the embedded database's thread ended (exit code ${code})`));
    });
  });
  const ask = (message: object, transfer: ArrayBuffer[] = []) =>
    new Promise<Reply>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message }, transfer);
    });
  let ownerOnly: boolean;
  try {
    ownerOnly = await opened;
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  // The log's generation the answers so far reached, and the one a flush has reached; the flush asked for last.
  let written = 0;
  let flushed = 0;
  let asked: { target: number; done: Promise<void> } | undefined;
  const durableNow = (): Promise<void> => {
    const target = written;
    if (target <= flushed) return Promise.resolve();
    if (asked && asked.target >= target) return asked.done;
    const done = ask({ flush: target }).then((r) => {
      flushed = Math.max(flushed, r.gen!);
    });
    asked = { target, done };
    return done;
  };
  return {
    exchange: async (frontend) => {
      const r = await ask({ exchange: frontend });
      if (r.gen! > written) written = r.gen!;
      return r.out!;
    },
    dump: async () => (await ask({ dump: true })).out!,
    durable: durable ? durableNow : () => Promise.resolve(),
    close: async () => {
      if (!stopped) await ask({ close: true });
      await worker.terminate();
    },
    ownerOnly,
  };
}
