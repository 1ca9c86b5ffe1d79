// The embedded database's directory made ready and its thread started: locked to this process, checked for free
// space, PGlite opened on a thread of its own. Apart from database.ts (node-postgres, Kysely), so that main.ts can
// start it before the server's other modules load: PGlite then opens on one core while the request thread loads
// the rest of the server on the other (issue 27: start to ready).
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { startEmbeddedThread, type EmbeddedThread } from "./embedded-thread.ts";
import { isRunning, parseStamp, thisProcessStamp } from "./lock-owner.ts";
import { recordOwnerOnly, takeOwnerOnlyRecord, tightenTree } from "./owner-only.ts";

export interface StartedEmbedded {
  thread: EmbeddedThread;
  /**
   * Closes the thread, makes every entry of the directory the service user's alone and records so (owner-only.ts:
   * the next opening need not walk it before it serves), and gives the directory's lock up.
   */
  close: () => Promise<void>;
  /**
   * Entries of a directory that was there before (an older release's, a copy) that others could read or write
   * until this start made them the service user's alone; 0 for a new or restored one (its files are PGlite's
   * fresh ones, tightened as always).
   */
  tightened: number;
  /**
   * When the opening trusted the record of the last clean close instead of walking the directory: the walk, for the
   * caller to run soon, off the path to ready (it counts like `tightened`). It finds what no record shows: a mode
   * changed by hand on a file that was there (owner-only.ts, takeOwnerOnlyRecord).
   */
  walkLater?: () => Promise<number>;
}

/**
 * `durable`: a commit is answered once it is on the disk (embedded-flush.mjs, grouped); `relaxed`: once the
 * operating system has it, as before issue 52 (a power cut or a machine crash can lose answered commits).
 */
export type Durability = "durable" | "relaxed";

export interface StartOptions {
  /** Default `durable`. */
  durability?: Durability;
  /** A backup (backup.ts) to create the directory from; it must be empty. */
  loadDataDir?: Blob;
  /** The caller holds the directory's lock already (a restore). */
  locked?: boolean;
}

interface EarlyOpening {
  dir: string;
  durability: Durability;
  started: Promise<StartedEmbedded>;
}

/**
 * The opening that main.ts started before the server's modules loaded, until startEmbedded takes it over. Kept on
 * the process's global object, not in this module: the built entry (dist/server/main.js) and a server bundled apart
 * from it (as a script compiled with V8's code cache, issue 53 item 3) each have their own copy of this module.
 */
const EARLY = Symbol.for("logistics-api.embedded-open.early");
const slot = globalThis as { [EARLY]?: EarlyOpening };

/**
 * Starts opening the embedded database in `pgliteDir` now; the process's next startEmbedded of that directory
 * takes it over. A failure is reported there, where it would have happened anyway.
 */
export function prestartEmbedded(pgliteDir: string, durability: Durability = "durable"): void {
  const dir = path.resolve(pgliteDir);
  const started = open(dir, { durability });
  started.catch(() => {});
  slot[EARLY] = { dir, durability, started };
}

/** The embedded database in `pgliteDir`, locked to this process, open on its own thread. */
export function startEmbedded(pgliteDir: string, opts: StartOptions = {}): Promise<StartedEmbedded> {
  const dir = path.resolve(pgliteDir);
  const early = slot[EARLY];
  if (early?.dir === dir && early.durability === (opts.durability ?? "durable") && !opts.locked && !opts.loadDataDir) {
    delete slot[EARLY];
    return early.started;
  }
  return open(dir, opts);
}

async function open(dir: string, opts: StartOptions): Promise<StartedEmbedded> {
  let unlock: () => void = () => {};
  let existed = false;
  let recorded = false;
  try {
    mkdirSync(path.dirname(dir), { recursive: true });
    if (!opts.locked) unlock = lockDirectory(dir);
    existed = !opts.loadDataDir && existsSync(dir) && readdirSync(dir).length > 0;
    // Before PostgreSQL opens it, which changes the directory; used up either way.
    recorded = takeOwnerOnlyRecord(dir) && existed;
  } catch (err) {
    throw explainStartFailure(dir, err);
  }
  try {
    checkFreeSpace(dir);
  } catch (err) {
    unlock();
    throw explainStartFailure(dir, err);
  }
  // PostgreSQL's default 128 MB of shared buffers would be touched inside the process's WebAssembly memory
  // (RSS ~400 MB at start); 16 MB holds the hot pages of an embedded-sized service (RSS ~240 MB), and the
  // files stay in the operating system's page cache either way: shipping options on 50,000 points measured
  // the same on PGlite with 16 and 32 MB (npm run bench:shipping). Larger data belongs on PostgreSQL.
  const startParams = ["-c", "shared_buffers=16MB"];
  // PGlite starts with fsync off (-F). Durable: PostgreSQL asks for every flush it needs, and asks for the log's by
  // fsync, which embedded-flush.mjs can put off until a barrier (Emscripten makes fdatasync nothing).
  const durable = (opts.durability ?? "durable") === "durable";
  if (durable) startParams.push("-c", "fsync=on", "-c", "wal_sync_method=fsync");
  const loadDataDir = opts.loadDataDir && new Uint8Array(await opts.loadDataDir.arrayBuffer());
  const thread = await startEmbeddedThread(dir, startParams, loadDataDir, durable).catch((err) => {
    unlock();
    throw explainStartFailure(dir, err);
  });
  /** Whether a whole walk of this opening (before it served, or the later one) has finished. */
  let walked = false;
  const close = async () => {
    await thread.close();
    // The record says what is true now: every entry there at the opening was walked, and every one made since was
    // made the user's alone by the thread's file system (embedded-worker.mjs); else the walk comes first. A test
    // suite opens and closes hundreds of copies: a second walk of each at its close would be seconds of it.
    try {
      if (!walked || !thread.ownerOnly) await tightenTree(dir);
      recordOwnerOnly(dir);
    } catch {
      // No record: the next opening walks the directory before it serves.
    }
    unlock();
  };
  const walk = async () => {
    const n = await tightenTree(dir);
    walked = true;
    return n;
  };
  // Nothing made or loosened since the last clean close, and the files PostgreSQL makes now are the user's alone
  // (the thread's file system made sure): the walk can wait until the server is ready.
  if (recorded && thread.ownerOnly) return { thread, close, tightened: 0, walkLater: walk };
  // After PGlite's opening, which writes a new directory's files as 0666; the directory itself was made under the
  // process's owner-only umask (owner-only.ts), so nobody else could enter it meanwhile.
  let tightened: number;
  try {
    tightened = await walk();
  } catch (err) {
    await thread.close().catch(() => {});
    unlock();
    throw explainStartFailure(dir, err);
  }
  return { thread, close, tightened: existed ? tightened : 0 };
}

/** Below this, PGlite cannot create its files, or a start's migrations and first writes fail mid-way. */
const MIN_FREE_BYTES = 32 * 1024 * 1024;

function checkFreeSpace(dir: string) {
  const fs = statfsSync(path.dirname(dir));
  const free = fs.bavail * fs.bsize;
  if (free < MIN_FREE_BYTES) {
    throw Object.assign(new Error(`only ${(free / 1024 / 1024).toFixed(1)} MB free`), { code: "ENOSPC" });
  }
}

// PGlite's file system errors carry Emscripten's numbers, not Node's codes.
const EMSCRIPTEN_ERRNO: Record<number, string> = { 2: "EACCES", 19: "EDQUOT", 51: "ENOSPC", 63: "EPERM", 69: "EROFS" };
const WHY: Record<string, string> = {
  EROFS: "its file system is read-only",
  EACCES: "this user may not write there",
  EPERM: "this user may not write there",
  ENOSPC: "its file system is full",
  EDQUOT: "the disk quota is used up",
};

/** One line an operator can act on, instead of a stack trace or `ErrnoError { errno: 51 }`. */
function explainStartFailure(dir: string, err: unknown): Error {
  const e = err as { code?: string; errno?: number; message?: string };
  const code = e.code ?? (typeof e.errno === "number" ? EMSCRIPTEN_ERRNO[e.errno] : undefined);
  const why = code ? WHY[code] : undefined;
  if (!why)
    return err instanceof Error ? err : new Error(`Cannot open the embedded database in ${dir}: ${String(err)}`);
  const detail =
    code === "ENOSPC" && e.message?.startsWith("only ")
      ? ` (${e.message}; at least ${MIN_FREE_BYTES / 1024 / 1024} MB needed)`
      : ` (${code})`;
  return new Error(
    `Cannot open the embedded database in ${dir}: ${why}${detail}. Set PGLITE_DIR to a writable directory with free space, or DATABASE_URL to use PostgreSQL.`,
  );
}

/**
 * PGlite is one process's database: a second process opening the same directory corrupts it.
 * A lock file beside the directory (the owner's pid and start time, lock-owner.ts) refuses that with a clear
 * message; the file of an owner that is gone (exited, a zombie, or its pid now another process's) is taken over.
 */
export function lockDirectory(dir: string): () => void {
  const lockPath = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, thisProcessStamp());
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = parseStamp(readFileSync(lockPath, "utf8"));
      if (owner && owner.pid !== process.pid && isRunning(owner)) {
        throw new Error(
          `The embedded database ${dir} is in use by process ${owner.pid}. Stop it first, or set DATABASE_URL to use PostgreSQL.`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${lockPath}`);
}
