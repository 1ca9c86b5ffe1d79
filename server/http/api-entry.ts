// The API's requests enter their pipeline from node's request listener, not through Express's app and Router: those
// walk the app's layers before the API's mount (the request log, the durable answers, the spec's two routes, the
// mount's own path test and URL rewrite) for every API request (bench/levers.md section 43). The entry does what they
// did for such a request, in the same order. What the pipeline leaves unanswered (an error, or next() past its last
// step) continues in the app right after the API's mount, as Express continued: the request log and the durable hold
// see that they ran already, the mount that the entry took the request, and they pass it on.
import type http from "node:http";
import type { Express, NextFunction, Request, RequestHandler } from "express";
import type { Res } from "./express.ts";
import { runSteps } from "./steps.ts";

const ENTRIES = new WeakMap<Express, http.RequestListener>();
/** Requests the entry took, and what their pipeline left: an error, or `PASSED` for none. */
const LEFT = new WeakMap<Request, unknown>();
const ENTERED = new WeakSet<Request>();
const PASSED = Symbol("passed");

export interface ApiEntry {
  basePath: string;
  /** Paths under the base path that the app's own routes serve (the spec's files): they take the app's way. */
  appPaths: string[];
  /** What the app's layers before the mount do (request log, durable answers), then the mounted pipeline. */
  before: RequestHandler[];
  pipeline: RequestHandler;
}

/**
 * Registers the entry of `app`'s API (server.ts listens with it, entryOf). Returns the two layers the app keeps in
 * the entry's place: `mount`, the pipeline at the base path for requests given to the app itself (a test's own
 * server; the entry's requests pass it), and `resume`, right after it, which hands on what the pipeline left.
 */
export function registerApiEntry(app: Express, o: ApiEntry): { mount: RequestHandler; resume: RequestHandler } {
  const prefix = `${o.basePath}/`;
  const appPaths = new Set(o.appPaths.map((p) => p.toLowerCase()));
  const front = runSteps([...o.before, mounted(o.basePath, o.pipeline)]);
  const entry: http.RequestListener = (incoming, response) => {
    const req = incoming as Request;
    const res = response as Res;
    const url = req.url ?? "";
    if (!url.startsWith(prefix) || appPaths.has(pathOf(url))) return void app(req, res);
    // What app.handle and the Router set before the first layer (the prototypes are the app's already: server.ts).
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null) as Res["locals"];
    req.originalUrl = url;
    req.baseUrl = "";
    ENTERED.add(req);
    front(req, res, (err?: unknown) => {
      LEFT.set(req, err ?? PASSED);
      app(req, res);
    });
  };
  ENTRIES.set(app, entry);
  return {
    mount: (req, res, next) => (ENTERED.has(req) ? next() : o.pipeline(req, res, next)),
    resume: (req, _res, next: NextFunction) => {
      const left = LEFT.get(req);
      if (left === undefined) return next();
      LEFT.delete(req);
      next(left === PASSED ? undefined : left);
    },
  };
}

/** The listener for `app`'s server: its API entry when it has one, else the app itself. */
export function entryOf(app: Express): http.RequestListener {
  return ENTRIES.get(app) ?? app;
}

/** The pipeline as Express's mount runs it: the base path cut from `req.url` and set as `req.baseUrl`, then put back. */
function mounted(basePath: string, pipeline: RequestHandler): RequestHandler {
  return (req, res, next) => {
    req.url = req.originalUrl.slice(basePath.length);
    req.baseUrl = basePath;
    req.params = {};
    pipeline(req, res, (err?: unknown) => {
      req.url = req.originalUrl;
      req.baseUrl = "";
      next(err);
    });
  };
}

/** The path of a URL as the app's routes compare it: no query, lower case (routing is case-insensitive), no trailing slash. */
function pathOf(url: string): string {
  const q = url.indexOf("?");
  const p = (q === -1 ? url : url.slice(0, q)).toLowerCase();
  return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
}
