// The embedded database on a thread of its own (embedded-thread.ts starts it): PGlite's WebAssembly runs here, so
// the request thread goes on with other requests while a statement runs. Plain JavaScript, so that node starts it
// as it is, from the sources (tests) as from the bundle (npm start). Messages: { id, exchange: Uint8Array } runs
// frontend protocol messages and answers the backend's bytes; { id, dump: true } answers the data directory as a
// gzipped tar; { id, close: true } closes the database; { id, flush: gen } answers once the commits that `gen` (an
// exchange's answer carries it) counts are on the disk (embedded-flush.mjs; at once with relaxed durability).
import { Blob } from "node:buffer";
import { setFlagsFromString } from "node:v8";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
// Extensions the migrations create; PostgreSQL has them in contrib.
import { cube } from "@electric-sql/pglite/contrib/cube";
import { durableFiles } from "./embedded-flush.mjs";

/** An error as plain data (an Error's own fields do not survive postMessage); errno names the file system's fault. */
const plain = (err) => ({ message: err?.message ?? String(err), code: err?.code, errno: err?.errno });

/** Bits of group and others, which no file of the database may have (issue 48; owner-only.ts tightens older ones). */
const OTHERS = 0o077;

/**
 * PGlite's file system on the data directory, where nothing is made or changed to be readable by others: Emscripten
 * creates a file with 0777 and then sets the mode PostgreSQL asked for, less Emscripten's own umask of 0022, not the
 * process's (fopen's files, pg_internal.init, came out 0644 under umask 0077), and writes a new directory's files
 * 0666. Both go through NODEFS's mknod and doSetAttr, which PGlite's Emscripten module exposes.
 */
class OwnerOnlyNodeFS extends NodeFS {
  /** The flushing of a durable database (embedded-flush.mjs), once PGlite's module has started. */
  files;
  /** Whether every file and directory made or changed from now on is the user's alone (both hooks below in place). */
  ownerOnly = false;
  constructor(dir, durable) {
    super(dir);
    this.durable = durable;
  }
  async init(pg, opts) {
    const result = await super.init(pg, opts);
    const preRun = result.emscriptenOpts.preRun ?? [];
    result.emscriptenOpts = {
      ...result.emscriptenOpts,
      preRun: [
        ...preRun,
        (mod) => {
          if (this.durable) this.files = durableFiles(mod, this.rootDir);
          const nodefs = mod.NODEFS;
          if (typeof nodefs?.doSetAttr !== "function" || typeof nodefs.node_ops?.mknod !== "function")
            // A PGlite whose Emscripten module changed: embedded-open.ts still tightens the directory once open.
            return;
          const { doSetAttr } = nodefs;
          nodefs.doSetAttr = function (path, node, attr, ...rest) {
            const owned = attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~OTHERS };
            return doSetAttr.call(this, path, node, owned, ...rest);
          };
          const { mknod } = nodefs.node_ops;
          nodefs.node_ops.mknod = function (parent, name, mode, dev) {
            return mknod.call(this, parent, name, mode & ~OTHERS, dev);
          };
          this.ownerOnly = true;
        },
      ],
    };
    return result;
  }
}

const { dir, startParams, loadDataDir, durable, tieringBudgetGiven, lazyValidationGiven, flagsGate } = workerData;

/**
 * V8 optimises a WebAssembly function once it has run through its tiering budget (roughly bytes of code executed),
 * on background threads. PostgreSQL's start runs much code once (the relation cache, catalogue scans), and with
 * V8's default budget (1,800,000 in Node 20's V8) those optimisations took ~1.2 s of processor time at every start
 * of the server, 40% of it, on the two cores the request thread needs to load the server meanwhile
 * (bench/levers.md, "Start to ready, again"). A function's budget is set when the module is instantiated, and set
 * again from the flag each time it runs out: so the opening instantiates under a large budget and the flag goes back
 * to the default at once. Functions hot in serving still tier up, after their first large budget (a query loop
 * measured the same processor time per query from its second block of 200 on). An operator's own
 * --wasm-tiering-budget (NODE_OPTIONS or node's arguments) is left alone.
 */
const OPENING_TIERING_BUDGET = 1_000_000_000;
/**
 * PostgreSQL's WebAssembly (8.7 MB, ~14,000 functions) is compiled lazily, a function when it first runs, but V8
 * validates every function when the module is compiled: with --wasm-lazy-validation each is validated when it is
 * compiled instead, and the many that a start never runs never are. PGlite.create alone: 262-280 ms (median ~275)
 * without, 241-274 ms (median ~250) with, the same processor time less (bench/levers.md section 41). The module is
 * PGlite's own, shipped with the package: one that fails validation fails at a function's first call instead of at
 * the opening. Left on for the process (the flag is read as each function compiles, and PGlite's are the process's
 * only WebAssembly); an operator's own setting of it is left alone.
 */
const LAZY_VALIDATION = "--wasm-lazy-validation";
const TIERING_BUDGET = 1_800_000;
const fs = new OwnerOnlyNodeFS(dir, durable);
/** How far the log was written: each exchange's answer says, for the barrier before a request's answer. */
const gen = () => fs.files?.gen() ?? 0;
let db;
/** The longest the opening waits for the request thread to compile the server (embedded-thread.ts, holdV8FlagChanges). */
const FLAGS_GATE_MS = 2_000;
try {
  if (flagsGate) Atomics.wait(flagsGate, 0, 0, FLAGS_GATE_MS);
  if (!tieringBudgetGiven) setFlagsFromString(`--wasm-tiering-budget=${OPENING_TIERING_BUDGET}`);
  if (!lazyValidationGiven) setFlagsFromString(LAZY_VALIDATION);
  db = await PGlite.create({
    fs,
    extensions: { cube },
    startParams: [...PGlite.defaultStartParams, ...startParams],
    ...(loadDataDir && { loadDataDir: new Blob([loadDataDir]) }),
  });
  parentPort.postMessage({ ready: true, ownerOnly: fs.ownerOnly });
} catch (err) {
  parentPort.postMessage({ failed: plain(err) });
} finally {
  if (!tieringBudgetGiven) setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
}

parentPort.on("message", async ({ id, exchange, dump, close, flush }) => {
  try {
    if (exchange) {
      // A copy: the answer may be a view of the WebAssembly memory, which must not be handed over.
      const out = (await db.execProtocolRaw(exchange)).slice();
      parentPort.postMessage({ id, out, gen: gen() }, [out.buffer]);
    } else if (flush !== undefined) {
      parentPort.postMessage({ id, gen: fs.files ? await fs.files.barrier(flush) : flush });
    } else if (dump) {
      const out = new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer());
      parentPort.postMessage({ id, out }, [out.buffer]);
    } else if (close) {
      await db.close();
      parentPort.postMessage({ id });
    }
  } catch (err) {
    parentPort.postMessage({ id, error: plain(err) });
  }
});
