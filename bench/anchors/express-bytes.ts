// The baseline: a bare Express app that answers each measured request with the bytes, status and
// content-type the real server gave, so a ratio to it shows what the server's own work costs.
// Run as its own process: `node --import tsx bench/anchors/express-bytes.ts <responses.json> <port>`.
import { readFileSync } from "node:fs";
import express from "express";

export interface CapturedResponse {
  method: string;
  /** Path and query as the real server got them. */
  path: string;
  status: number;
  contentType: string;
  /** Base64 of the exact body bytes. */
  body: string;
}

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error("usage: express-bytes.ts <responses.json> <port>");
const responses = JSON.parse(readFileSync(file, "utf8")) as CapturedResponse[];

const app = express();
for (const r of responses) {
  const { pathname } = new URL(r.path, "http://x");
  const body = Buffer.from(r.body, "base64");
  // A route per operation, as any small Express app has; the request body is not read.
  const route = pathname.replace(/[:*?+(){}[\]!\\]/g, "\\$&"); // literal, not an Express pattern
  app[r.method.toLowerCase() as "get" | "post" | "put" | "patch" | "delete"](route, (_req, res) => {
    res.status(r.status).type(r.contentType).send(body);
  });
}
const server = app.listen(Number(port), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
