// Request id and one log line per request. Lighter than pino-http (no child logger per request):
// logging sat on the hot path's profile.
import { randomUUID } from "node:crypto";
import type { NextFunction, Request } from "express";
import { pino, type Logger } from "pino";
import { matchedOperation, type Res } from "./express.ts";
import { loggableUrl } from "./loggable-url.ts";

interface RequestLine {
  req: { id: string; method: string; url: string };
  operation: string | undefined;
  res: { statusCode: number };
  responseTime: number;
  principal: string | undefined;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger) {
  const write = lineWriter(logger);
  return (req: Request, res: Res, next: NextFunction) => {
    // Logged already: the API's entry (api-entry.ts) logs its requests before the app's layers see them.
    if (res.locals.requestId !== undefined) return next();
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    res.locals.requestId = id;
    res.locals.log = logger;
    res.setHeader("X-Request-Id", id);
    res.once("finish", () => {
      if (!logger.isLevelEnabled("info")) return;
      // Never credentials: only what identifies the request. Nor, above debug level (a developer's own machine),
      // query values that could identify a shopper (loggable-url.ts).
      const url = logger.isLevelEnabled("debug") ? req.originalUrl : loggableUrl(req.originalUrl);
      write({
        req: { id, method: req.method, url },
        operation: matchedOperation(req)?.operationId,
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
        principal: res.locals.principal?.name,
      });
    });
    next();
  };
}

const MESSAGE = "request completed";
const S = pino.symbols;

/**
 * Writes a request's line: as `logger.info(line, "request completed")` would, the same text (test/unit/request-line
 * .test.ts compares them), made directly from the line's few known fields. pino's own call walks and escapes every
 * field generically: 6.4 µs of a GET shipment's request in an instrumented build (bench/levers.md section 43). The
 * logger's own parts (level, time, bindings, end of line) are its own, read through pino's exported symbols; a
 * logger set up in ways this does not reproduce (a mixin, formatters of log objects, hooks, redaction, serializers or
 * another message key, a stream that wants each line's metadata) gets pino's own call.
 */
function lineWriter(logger: Logger): (line: RequestLine) => void {
  const own = (line: RequestLine) => logger.info(line, MESSAGE);
  const l = logger as unknown as Record<symbol, unknown>;
  const stream = l[S.streamSym] as { write(s: string): void } & Record<symbol, unknown>;
  const serializers = l[S.serializersSym] as Record<string, unknown>;
  const plain =
    !l[S.mixinSym] &&
    !(l[S.hooksSym] as { streamWrite?: unknown }).streamWrite &&
    !(l[S.formattersSym] as { log?: unknown }).log &&
    !l[S.nestedKeySym] &&
    !l[(S as unknown as Record<string, symbol>).msgPrefixSym!] &&
    l[S.messageKeySym] === "msg" &&
    stream[S.needsMetadataGsym] !== true &&
    Object.getOwnPropertySymbols(l[S.stringifiersSym]).length === 0 &&
    Object.keys(l[S.stringifiersSym] as object).length === 0 &&
    !["req", "res", "operation", "responseTime", "principal", "msg"].some((k) => serializers[k]);
  if (!plain) return own;
  const levelText = (l[S.lsCacheSym] as Record<number, string>)[30];
  const time = l[S.timeSym] as () => string;
  const end = l[S.endSym] as string;
  return (line) => {
    // The fields' texts are JSON.stringify's, which is pino's for these (its own escaping differs only for lone
    // surrogates, which no method, path, id or account name has).
    stream.write(
      `${levelText}${time()}${l[S.chindingsSym] as string},"req":{"id":${JSON.stringify(line.req.id)},"method":${JSON.stringify(line.req.method)},"url":${JSON.stringify(line.req.url)}}` +
        (line.operation === undefined ? "" : `,"operation":${JSON.stringify(line.operation)}`) +
        `,"res":{"statusCode":${line.res.statusCode}},"responseTime":${line.responseTime}` +
        (line.principal === undefined ? "" : `,"principal":${JSON.stringify(line.principal)}`) +
        `,"msg":"${MESSAGE}"${end}`,
    );
  };
}
