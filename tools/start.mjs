// `npm start`: builds what changed since the last build, then runs the built server in this same process. Two node
// processes (the build's check, then the server) took one node start more, ~50 ms of npm start's time to ready
// (bench/levers.md section 31). A build, when one is needed, runs in a process of its own, so that the server never
// carries the builders' memory. The flags of the start script (package.json) are this process's, so the server's.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { everythingBuilt } from "./build.mjs";

if (!everythingBuilt()) {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL("build.mjs", import.meta.url)), "--if-changed"], {
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import("../dist/server/main.js");
