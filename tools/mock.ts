// npm run mock [-- -p 4011] [-h 0.0.0.0]: Prism serving the spec's examples, for partners without
// credentials. Port and host are settable (Prism itself refuses a repeated -p).
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { fromRoot, SPEC_PATH } from "../server/shared/paths.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", short: "p", default: process.env.MOCK_PORT ?? "4010" },
    host: { type: "string", short: "h", default: process.env.MOCK_HOST ?? "127.0.0.1" },
  },
  strict: true,
});
if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
  console.error(`mock: --port must be a number from 0 to 65535, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}

const prism = spawn(
  process.execPath,
  [
    fromRoot("node_modules/@stoplight/prism-cli/dist/index.js"),
    "mock",
    "-h",
    values.host,
    "-p",
    values.port,
    SPEC_PATH,
  ],
  { stdio: "inherit" },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => prism.kill(signal));
prism.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
