// The request log's line (server/http/request-log.ts) is written without pino's generic call, so it must be the
// text pino would write for the same fields: compared byte for byte here, for the field combinations a request has,
// values that need escaping, a child logger's bindings, and loggers whose set-up makes it fall back to pino's own call.
import { Writable } from "node:stream";
import type { NextFunction, Request } from "express";
import { pino, type LoggerOptions } from "pino";
import { describe, expect, it, vi } from "vitest";
import type { Res } from "../../server/http/express.ts";
import { loggableUrl } from "../../server/http/loggable-url.ts";
import { requestLog } from "../../server/http/request-log.ts";

/** A logger writing into `out`, with a fixed time so that two lines can be compared. */
function logger(out: string[], options: LoggerOptions = {}) {
  return pino(
    { level: "info", timestamp: () => ',"time":1700000000000', ...options },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk.toString("utf8"));
        done();
      },
    }),
  );
}

/** One request through requestLog, answered with `status`; returns the line written. */
async function lineOf(log: ReturnType<typeof logger>, out: string[], fields: Fields) {
  const finish: (() => void)[] = [];
  const req = {
    headers: fields.id ? { "x-request-id": fields.id } : {},
    method: fields.method,
    originalUrl: fields.url,
    openapi: fields.operation ? { schema: { operationId: fields.operation } } : undefined,
  } as unknown as Request;
  const res = {
    locals: {},
    statusCode: fields.status,
    setHeader: () => {},
    once: (_event: string, f: () => void) => finish.push(f),
  } as unknown as Res;
  requestLog(log)(req, res, (() => {}) as NextFunction);
  if (fields.principal) res.locals.principal = { role: "merchant", id: "x", name: fields.principal };
  out.length = 0;
  for (const f of finish) f();
  await new Promise((r) => setImmediate(r));
  return { line: out.join(""), id: res.locals.requestId };
}

interface Fields {
  id?: string;
  method: string;
  url: string;
  operation?: string;
  status: number;
  principal?: string;
}

const CASES: Fields[] = [
  {
    method: "GET",
    url: "/2015-01-01/inbound_shipments/abc",
    operation: "getInboundShipment",
    status: 200,
    principal: "M-shop.example.com",
  },
  { method: "POST", url: "/2015-01-01/no_such", status: 404 },
  { id: "given:id.1", method: "GET", url: '/2015-01-01/x?q="quoted"\\back', status: 401 },
  { method: "DELETE", url: "/päth/ünicode", operation: "op", status: 500, principal: 'V-"1.2.3.4"' },
];

describe("the request line is the text pino writes for the same fields", () => {
  for (const [name, options, child, fast] of [
    ["a plain logger", {}, undefined, true],
    ["a child logger with bindings", {}, { instance: 'a"b', n: 2 }, true],
    ["a logger with a mixin (pino's own call)", { mixin: () => ({ extra: 1 }) }, undefined, false],
    ["a logger that redacts (pino's own call)", { redact: ["req.url"] }, undefined, false],
    ["a logger with a message key of its own (pino's own call)", { messageKey: "message" }, undefined, false],
  ] as [string, LoggerOptions, Record<string, unknown> | undefined, boolean][]) {
    it(name, async () => {
      const out: string[] = [];
      const root = logger(out, options);
      const log = child ? root.child(child) : root;
      for (const fields of CASES) {
        const info = vi.spyOn(log, "info");
        const { line, id } = await lineOf(log, out, fields);
        // Written directly where the logger allows it, else by pino's own call.
        expect(info).toHaveBeenCalledTimes(fast ? 0 : 1);
        info.mockRestore();
        log.info(
          {
            // At info level the line shows the URL as loggableUrl makes it.
            req: { id, method: fields.method, url: loggableUrl(fields.url) },
            operation: fields.operation,
            res: { statusCode: fields.status },
            responseTime: 0,
            principal: fields.principal,
          },
          "request completed",
        );
        const own = out.slice(1).join("");
        // responseTime is measured: 0 on this machine almost always; compare it apart.
        const time = /"responseTime":(\d+)/;
        expect(line.replace(time, '"responseTime":0')).toBe(own);
        expect(line.endsWith("\n")).toBe(true);
      }
    });
  }
});
