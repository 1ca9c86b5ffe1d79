// The server span of each API request (tracing/tracer.ts; only when tracing is on): continued from the
// caller's traceparent, named by the spec's route once matched, with its status; and the span of its checks.
// Nothing of the request's content: no headers, query, body; the merchant, not a person.
import type { NextFunction, Request, RequestHandler } from "express";
import {
  extractContext,
  SpanKind,
  SpanStatusCode,
  startSpan,
  tracing,
  withSpan,
  type Span,
} from "../tracing/tracer.ts";
import { matchedOperation, matchedRoute, type Res } from "./express.ts";

export function traceRequests(): RequestHandler | undefined {
  if (!tracing()) return undefined;
  return (req: Request, res: Res, next: NextFunction) => {
    const span = startSpan(req.method, {
      kind: SpanKind.SERVER,
      parent: extractContext(req.headers),
      attributes: { "http.request.method": req.method, "url.path": req.path },
    })!;
    res.once("close", () => {
      const route = matchedRoute(req);
      if (route) {
        span.updateName(`${req.method} ${route}`);
        span.setAttribute("http.route", route);
      }
      const operation = matchedOperation(req)?.operationId;
      if (operation) span.setAttribute("logistics.operation", operation);
      const principal = res.locals.principal;
      if (principal) span.setAttribute("logistics.caller.role", principal.role);
      if (principal?.role === "merchant") span.setAttribute("logistics.merchant", principal.id);
      span.setAttribute("http.response.status_code", res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      if (!res.writableFinished) span.setAttribute("http.aborted", true);
      span.end();
    });
    withSpan(span, next);
  };
}

/**
 * A span around a run of steps that call next() in turn (the request's checks): `open` starts it, `close` ends
 * it when the run passed, and an error or an early answer ends it too. Not made active: what comes after the
 * run is its sibling, not its child.
 */
export function traceSteps(name: string): { open?: RequestHandler; close?: RequestHandler } {
  if (!tracing()) return {};
  const spans = new WeakMap<Request, Span>();
  const end = (req: Request) => {
    spans.get(req)?.end();
    spans.delete(req);
  };
  return {
    open: (req, res, next) => {
      const span = startSpan(name);
      if (span) {
        spans.set(req, span);
        res.once("close", () => end(req));
      }
      next();
    },
    close: (req, _res, next) => {
      end(req);
      next();
    },
  };
}
