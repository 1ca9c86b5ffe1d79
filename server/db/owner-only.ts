// The embedded database's files are the service user's alone (issue 48): they hold secret and password hashes,
// sessions and the quote signing keys. PGlite writes the files of a new directory (its initial one, a restored
// backup) as 0666 whatever the umask, and later files with the process's umask; so the process's umask is
// narrowed at start and every directory is tightened after PGlite has opened it (or, when a record says nothing could
// have loosened it since this release last closed it, soon after: see takeOwnerOnlyRecord).
import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { chmod, lstat, readdir } from "node:fs/promises";
import path from "node:path";

/** Group and others: no bit of theirs may stay set. */
const OTHERS = 0o077;

/**
 * Files this process creates from now on are its user's alone, whatever umask the shell gave it (0000 too).
 * Called first by the server's and the CLI's entry points; a worker thread may not change it (the process's
 * umask applies there too).
 */
export function ownerOnlyFromNowOn(): void {
  try {
    process.umask(process.umask() | OTHERS);
  } catch {
    // A worker thread (tests that open servers in-process): the directory walk below still tightens what PGlite wrote.
  }
}

/**
 * Directories under `root` (and itself) to 0700, files to 0600 (owner-only bits kept, execute dropped), without
 * following symbolic links. Returns how many entries were readable or writable by others before.
 */
export async function tightenTree(root: string): Promise<number> {
  let info;
  try {
    info = await lstat(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  if (info.isSymbolicLink()) return 0;
  let changed = 0;
  if (info.isDirectory()) {
    if ((info.mode & 0o777) !== 0o700) {
      if (!(await gone(chmod(root, 0o700))) && info.mode & OTHERS) changed++;
    }
    let names: string[];
    try {
      names = await readdir(root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return changed;
      throw err;
    }
    const counts = await Promise.all(names.map((name) => tightenTree(path.join(root, name))));
    for (const c of counts) changed += c;
  } else if (info.mode & OTHERS) {
    if (!(await gone(chmod(root, info.mode & 0o600)))) changed++;
  }
  return changed;
}

/**
 * Whether `step` found its entry gone: a walk beside a running PostgreSQL (the later walk below) meets files that
 * it removes meanwhile (temporary files, recycled log segments); nobody can read what is not there.
 */
async function gone(step: Promise<void>): Promise<boolean> {
  try {
    await step;
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
}

/**
 * The record beside an embedded database's directory (like its `.lock`, never inside it: a backup of the directory
 * must not carry it into another) that every entry under it was the service user's alone when this release last
 * closed it: written by recordOwnerOnly at a clean close, after a full tightenTree, with each directory's inode and
 * change time.
 */
export const ownerOnlyRecordFile = (dir: string) => `${dir}.owner-only`;

/** Each directory under `root` (itself too, by "."): its inode and change time in nanoseconds. */
function directoryStamps(root: string): Record<string, string> {
  const stamps: Record<string, string> = {};
  const visit = (rel: string) => {
    const info = lstatSync(path.join(root, rel), { bigint: true });
    stamps[rel] = `${info.ino}:${info.ctimeNs}`;
    for (const entry of readdirSync(path.join(root, rel), { withFileTypes: true }))
      if (entry.isDirectory()) visit(rel === "." ? entry.name : `${rel}/${entry.name}`);
  };
  visit(".");
  return stamps;
}

/**
 * After a clean close, with the directory's lock still held, once every entry is the user's alone (embedded-open.ts:
 * walked by this opening, or made since through the thread's owner-only file system; else walked now): records the
 * directory as it stands. Written to a temporary name and renamed, so that a torn record is never read as one.
 */
export function recordOwnerOnly(dir: string): void {
  const file = ownerOnlyRecordFile(dir);
  writeFileSync(`${file}.new`, JSON.stringify({ directories: directoryStamps(dir) }), { mode: 0o600 });
  renameSync(`${file}.new`, file);
}

/**
 * Whether the directory is still as recordOwnerOnly left it, so that the opening need not walk its ~1,100 files
 * before it serves (20-35 ms of a start's processor time, on the path to ready: bench/levers.md section 39). The
 * record is used up here: a process that ends without a clean close leaves none, and the next opening walks.
 *
 * Why it is sound. A mode others may use comes in one of two ways: a file or directory made (by a restore, an older
 * release's PostgreSQL, a copy), or a mode changed. Making, removing or renaming an entry changes its directory's
 * change time, and changing a directory's mode changes its own; a change time cannot be set back (only the system
 * clock could). Every opening of PostgreSQL makes `postmaster.pid` at the top, so any other opener of the directory
 * since (an older release, which knows no record) shows. A restore makes a new directory (another inode). What no
 * directory shows is a mode changed by hand on a file that was there (chmod): the opening that trusted the record
 * therefore walks the whole tree again soon after (database.ts, off the path to ready), and a close before that
 * walk finished walks it before it records.
 */
export function takeOwnerOnlyRecord(dir: string): boolean {
  const file = ownerOnlyRecordFile(dir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
    rmSync(file, { force: true });
  } catch {
    return false;
  }
  try {
    const recorded = (JSON.parse(text) as { directories?: Record<string, string> }).directories;
    if (!recorded || !("." in recorded)) return false;
    for (const [rel, stamp] of Object.entries(recorded)) {
      const info = lstatSync(path.join(dir, rel), { bigint: true, throwIfNoEntry: false });
      if (!info?.isDirectory() || `${info.ino}:${info.ctimeNs}` !== stamp) return false;
    }
    return true;
  } catch {
    return false;
  }
}
