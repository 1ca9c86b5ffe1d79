// `npm start`: the server process. Its first step, before the rest of the server loads: on the embedded database,
// PGlite starts opening on a thread of its own (db/embedded-open.ts), so that the ~300 ms of loading the server's
// modules on this thread and the ~350 ms of opening the database on the other overlap on two cores. serve.ts then
// configures, migrates and listens, and takes the opening database over.
import { loadConfig } from "./config.ts";
import { prestartEmbedded } from "./db/embedded-open.ts";
import { ownerOnlyFromNowOn } from "./db/owner-only.ts";

// Before any file is made: the embedded database, its lock and control socket are the service user's alone.
ownerOnlyFromNowOn();
try {
  const config = loadConfig();
  if (config.databaseUrl === undefined) prestartEmbedded(config.pgliteDir, config.pgliteDurability);
} catch {
  // A bad configuration: serve.ts reads it again and says what is wrong, as it always has.
}
await import("./serve.ts");
