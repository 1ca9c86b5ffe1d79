// The embedded database's files are the service user's alone (issue 48): they hold secret and password hashes,
// sessions and the quote signing keys. PGlite writes the files of a new directory (its initial one, a restored
// backup) as 0666 whatever the umask, and later files with the process's umask; so the process's umask is
// narrowed at start and every directory is tightened after PGlite has opened it.
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
      await chmod(root, 0o700);
      if (info.mode & OTHERS) changed++;
    }
    const names = await readdir(root);
    const counts = await Promise.all(names.map((name) => tightenTree(path.join(root, name))));
    for (const c of counts) changed += c;
  } else if (info.mode & OTHERS) {
    await chmod(root, info.mode & 0o600);
    changed++;
  }
  return changed;
}
