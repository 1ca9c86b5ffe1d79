// Runs a fixed list of middlewares in turn, as one Express middleware: the API pipeline's steps without a Router.
// A Router looks every layer up again by path on each call of next() and sets up its own state per request;
// the pipeline's steps all apply to every request under its mount, so they only need calling in order.
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler } from "express";
import type { Res } from "./express.ts";

export type Step = RequestHandler | ErrorRequestHandler;

/**
 * Express 5's rules, as a Router applies them to its layers: a step of four parameters handles errors and is
 * skipped while there is none; next(err), a throw or a rejected promise skips every other step to the next one
 * that handles errors, and past the last step leaves the list with it (for the app's error handlers); next()
 * after the last step, or next("router"), leaves the list without an error; next("route") is next().
 */
export function runSteps(steps: Step[]): RequestHandler {
  const list = steps.slice();
  return (req: Request, res: Res, done: NextFunction) => {
    let at = 0;
    const next = (err?: unknown): void => {
      if (err === "router") return done();
      // Outside a route, a Router takes "route" for no error at all.
      if (err === "route") err = undefined;
      let step: Step | undefined;
      while ((step = list[at++]) && (step.length === 4) !== Boolean(err));
      if (!step) return done(err);
      try {
        const result = err
          ? (step as ErrorRequestHandler)(err, req, res, next)
          : (step as RequestHandler)(req, res, next);
        if (result instanceof Promise) result.then(undefined, (e: unknown) => next(e ?? new Error("Rejected promise")));
      } catch (e) {
        next(e);
      }
    };
    next();
  };
}
