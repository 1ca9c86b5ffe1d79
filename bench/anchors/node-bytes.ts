// The ceiling: node's own `http` answering each measured request with the bytes, status and content-type the real
// server gave, found by method and path in a Map. Nothing below it is the server's to win back.
// Run as its own process: `node --import tsx bench/anchors/node-bytes.ts <responses.json> <port>`.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { CapturedResponse } from "./express-bytes.ts";

const [file, port] = process.argv.slice(2);
if (!file || !port) throw new Error("usage: node-bytes.ts <responses.json> <port>");
const responses = JSON.parse(readFileSync(file, "utf8")) as CapturedResponse[];

const answers = new Map<string, { status: number; headers: http.OutgoingHttpHeaders; body: Buffer }>();
for (const r of responses) {
  const body = Buffer.from(r.body, "base64");
  answers.set(`${r.method} ${new URL(r.path, "http://x").pathname}`, {
    status: r.status,
    headers: { "content-type": r.contentType, "content-length": body.length },
    body,
  });
}
const server = http.createServer((req, res) => {
  const q = req.url!.indexOf("?");
  const a = answers.get(`${req.method} ${q < 0 ? req.url : req.url!.slice(0, q)}`);
  // The request body, if any, is drained (not read) so the connection stays usable, as Express does.
  req.resume();
  if (!a) return void res.writeHead(404).end();
  res.writeHead(a.status, a.headers).end(a.body);
});
server.listen(Number(port), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
