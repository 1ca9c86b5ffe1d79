// `npm start`: the server process. Its first step, before the rest of the server loads: on the embedded database,
// PGlite starts opening on a thread of its own (db/embedded-open.ts), so that the ~300 ms of loading the server's
// modules on this thread and the ~350 ms of opening the database on the other overlap on two cores. serve.ts then
// configures, migrates and listens, and takes the opening database over.
import { loadConfig } from "./config.ts";
import { prestartEmbedded } from "./db/embedded-open.ts";
import { holdV8FlagChanges } from "./db/embedded-thread.ts";
import { ownerOnlyFromNowOn } from "./db/owner-only.ts";
import { fileURLToPath } from "node:url";
import { runServerScript } from "./server-script.ts";

/** Set by the build (tools/build.mjs): the server's script beside this entry. */
declare const SERVER_SCRIPT: string | undefined;

const built = typeof SERVER_SCRIPT === "string";
// Before any file is made: the embedded database, its lock and control socket are the service user's alone.
ownerOnlyFromNowOn();
// V8's flags as they will be when the server's code cache is made (embedded-thread.ts).
const flagsMayChange = built ? holdV8FlagChanges() : () => {};
try {
  const config = loadConfig();
  if (config.databaseUrl === undefined) prestartEmbedded(config.pgliteDir, config.pgliteDurability);
} catch {
  // A bad configuration: serve.ts reads it again and says what is wrong, as it always has.
}
// Built, the server is a script run with V8's code cache of it (server-script.ts); from the sources, a module.
if (built) runServerScript(fileURLToPath(new URL(SERVER_SCRIPT, import.meta.url)), flagsMayChange);
else await import("./serve.ts");
