// Backups of the embedded database (npm run cli -- backup / restore). PGlite belongs to the process that opened
// it, so while the server runs the CLI asks that process for the backup, over a Unix socket in a directory only
// the server's user may enter (`<PGLITE_DIR>.control/socket`); when no server runs, the CLI opens the directory
// itself. A backup is PGlite's own gzipped tar of its data directory, taken after a checkpoint while the one
// connection is held, so no transaction is half in it. PostgreSQL has pg_dump (docs/operating.md).
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import net from "node:net";
import type { Logger } from "pino";
import { openEmbedded } from "./database.ts";
import { lockDirectory } from "./embedded-open.ts";
import { tightenTree } from "./owner-only.ts";

const MAX_SOCKET_PATH = 107;

export const controlSocketPath = (dir: string) => `${dir}.control/socket`;

/** Answers backup requests on the control socket; returns how to stop. */
export async function serveBackups(
  dir: string,
  backup: () => Promise<Uint8Array>,
  logger: Logger,
): Promise<() => Promise<void>> {
  const socketPath = controlSocketPath(dir);
  if (socketPath.length > MAX_SOCKET_PATH) {
    logger.warn(
      { socket: socketPath },
      "backups while the server runs are not available: the control socket's path is too long for this system; `npm run cli -- backup` works while the server is stopped",
    );
    return async () => {};
  }
  mkdirSync(`${dir}.control`, { recursive: true, mode: 0o700 });
  chmodSync(`${dir}.control`, 0o700);
  // A socket left by a process that died: this process holds the directory's lock, so it is not in use.
  rmSync(socketPath, { force: true });
  const server = net.createServer((conn) => {
    conn.once("data", (line) => {
      if (line.toString().trim() !== "backup") {
        conn.end(`${JSON.stringify({ error: "unknown command" })}\n`);
        return;
      }
      const started = performance.now();
      backup().then(
        (bytes) => {
          conn.write(`${JSON.stringify({ bytes: bytes.length })}\n`);
          conn.end(bytes);
          logger.info({ bytes: bytes.length, ms: Math.round(performance.now() - started) }, "backup taken for the CLI");
        },
        (err: Error) => {
          logger.error({ err }, "backup failed");
          conn.end(`${JSON.stringify({ error: err.message })}\n`);
        },
      );
    });
    conn.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(socketPath, resolve));
  chmodSync(socketPath, 0o600);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The running server's backup of `dir`, or undefined when no server listens for it. */
export function requestBackup(dir: string): Promise<Uint8Array | undefined> {
  const socketPath = controlSocketPath(dir);
  if (!existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const conn = net.createConnection(socketPath);
    const chunks: Buffer[] = [];
    conn.on("connect", () => conn.write("backup\n"));
    conn.on("data", (c) => chunks.push(c));
    conn.on("error", (err: NodeJS.ErrnoException) =>
      err.code === "ECONNREFUSED" || err.code === "ENOENT" ? resolve(undefined) : reject(err),
    );
    conn.on("end", () => {
      const all = Buffer.concat(chunks);
      const eol = all.indexOf(10);
      let head: { bytes?: number; error?: string };
      try {
        head = JSON.parse(all.subarray(0, eol < 0 ? all.length : eol).toString()) as typeof head;
      } catch {
        return reject(new Error("the server closed the control socket without a backup"));
      }
      if (head.error !== undefined) return reject(new Error(`the server could not take the backup: ${head.error}`));
      const body = all.subarray(eol + 1);
      if (body.length !== head.bytes)
        return reject(new Error(`the backup was cut short (${body.length} of ${head.bytes} bytes)`));
      resolve(new Uint8Array(body));
    });
  });
}

/** The backup of `dir` with no server running: the CLI opens the directory itself (and holds its lock). */
export async function backupStopped(dir: string): Promise<Uint8Array> {
  if (!existsSync(dir)) throw new Error(`There is no embedded database in ${dir}.`);
  const handle = await openEmbedded(dir);
  try {
    return await handle.backup!();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `dir` with the database in `tarball`. Refused while a process has the directory open; what was
 * there is kept beside it (`<dir>.before-restore-<time>`, the service user's alone like the directory: `tightened`
 * counts its entries others could read before), and put back if the backup cannot be opened.
 */
export async function restoreEmbedded(
  dir: string,
  tarball: Uint8Array,
): Promise<{ setAside?: string; tightened: number }> {
  const unlock = lockDirectory(dir);
  let setAside: string | undefined;
  try {
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      setAside = `${dir}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(dir, setAside);
    }
    const tightened = setAside ? await tightenTree(setAside) : 0;
    try {
      const handle = await openEmbedded(dir, { loadDataDir: new Blob([Buffer.from(tarball)]), locked: true });
      await handle.close();
    } catch (err) {
      rmSync(dir, { recursive: true, force: true });
      if (setAside) renameSync(setAside, dir);
      throw new Error(`Not a backup of the embedded database (${(err as Error).message}); nothing was changed.`, {
        cause: err,
      });
    }
    return { setAside, tightened };
  } finally {
    unlock();
  }
}
