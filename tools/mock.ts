// npm run mock [-- -p 4011] [-h 0.0.0.0] [--quiet]: the API at http://127.0.0.1:4010/2015-01-01 answered from the
// spec's examples, for partners without credentials (docs/mock.md). Only the base URL differs from the server.
import { parseArgs } from "node:util";
import { pino } from "pino";
import { BASE_PATH } from "../server/app.ts";
import { answerClientErrors } from "../server/http/client-errors.ts";
import { createHttpServer } from "../server/http/server.ts";
import { createMockApp } from "./mock/app.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", short: "p", default: process.env.MOCK_PORT ?? "4010" },
    host: { type: "string", short: "h", default: process.env.MOCK_HOST ?? "127.0.0.1" },
    quiet: { type: "boolean", short: "q", default: false },
  },
  strict: true,
});
if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65535) {
  console.error(`mock: --port must be a number from 0 to 65535, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}

const app = await createMockApp({
  logger: pino({ level: "silent" }),
  ...(!values.quiet && { print: (line: string) => console.log(line) }),
});
const server = createHttpServer(app);
answerClientErrors(server);
server.on("error", (error) => {
  console.error(`mock: ${error.message}`);
  process.exit(1);
});
server.listen(Number(values.port), values.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : values.port;
  const host = values.host.includes(":") ? `[${values.host}]` : values.host;
  console.log(
    `Mock of the Logistics API at http://${host}:${port}${BASE_PATH} (any Basic credentials M-<merchant_id>:<any secret>;` +
      ` Prefer: code=404 for a documented error). Spec: http://${host}:${port}${BASE_PATH}/openapi.yaml`,
  );
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
