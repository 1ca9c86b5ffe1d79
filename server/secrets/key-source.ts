// Where this process's main keys come from: SECRETS_MAIN_KEY (and SECRETS_READ_KEYS), or, when it is unset (the
// embedded default, or PostgreSQL outside production), a key generated once into `<PGLITE_DIR>.main-key`: beside
// the database's directory, not in it, so a backup of the directory never holds it. The file is the service
// user's alone, like the directory.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { tightenTree } from "../db/owner-only.ts";
import { MainKeys, newMainKeyText, parseMainKey } from "./main-keys.ts";

export interface KeySettings {
  secretsMainKey: Buffer[];
  secretsReadKeys: Buffer[];
  pgliteDir: string;
}

export interface LoadedKeys {
  keys: MainKeys;
  /** What the start line says: where the main key is, never the key. */
  source: { from: "SECRETS_MAIN_KEY" } | { from: "file"; file: string; generated: boolean; tightened: boolean };
}

export const mainKeyFile = (pgliteDir: string) => `${path.resolve(pgliteDir)}.main-key`;

export async function loadMainKeys(s: KeySettings): Promise<LoadedKeys> {
  const [main] = s.secretsMainKey;
  if (main) return { keys: new MainKeys(main, s.secretsReadKeys), source: { from: "SECRETS_MAIN_KEY" } };
  const file = mainKeyFile(s.pgliteDir);
  let generated = false;
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      writeKeyFile(file);
      generated = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  const tightened = (await tightenTree(file)) > 0;
  const key = parseMainKey(readFileSync(file, "utf8"));
  if (!key)
    throw new Error(
      `The main key file ${file} does not hold a key (base64 of 32 bytes). Put back the key the stored secrets were encrypted with, or set SECRETS_MAIN_KEY (docs/secrets.md).`,
    );
  return { keys: new MainKeys(key, s.secretsReadKeys), source: { from: "file", file, generated, tightened } };
}

/**
 * A new key into `file`: 0600 whatever the umask; `wx`, so two processes starting together keep the one key the
 * first wrote; flushed with its directory entry before any secret is sealed under it, since secrets sealed under a
 * key lost in a power cut could never be read again.
 */
function writeKeyFile(file: string): void {
  const fd = openSync(file, "wx", 0o600);
  try {
    writeSync(fd, `${newMainKeyText()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const dir = openSync(path.dirname(file), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** The start line's words for where the keys came from. */
export function describeKeySource(loaded: LoadedKeys): string {
  const { source, keys } = loaded;
  const others = keys.ids.length - 1;
  const also = others ? `; also reads ${others} other key${others === 1 ? "" : "s"} (SECRETS_READ_KEYS)` : "";
  if (source.from === "SECRETS_MAIN_KEY")
    return `secrets are encrypted at rest under main key ${keys.currentId} from SECRETS_MAIN_KEY${also}`;
  const how = source.generated ? "generated now into" : "from";
  const tight = source.tightened ? " (it was readable by other users; now this user's alone)" : "";
  return `secrets are encrypted at rest under main key ${keys.currentId} ${how} ${source.file}${tight}${also}: keep a copy of that file apart from the database's backups, which cannot be read without it`;
}
