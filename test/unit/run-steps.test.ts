// The API pipeline's step runner (server/http/steps.ts) keeps Express 5's rules for a list of middlewares: each
// case is run through a real Express app, beside the same steps in a Router, and both must answer alike.
import type { AddressInfo } from "node:net";
import express, { Router, type ErrorRequestHandler, type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSteps, type Step } from "../../server/http/steps.ts";

const mark =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    (res.locals.seen as string[]).push(name);
    next();
  };
const recover: ErrorRequestHandler = (err: Error, _req, res, next) => {
  (res.locals.seen as string[]).push(`recovered ${err.message}`);
  next();
};
const passOn: ErrorRequestHandler = (err: Error, _req, res, next) => {
  (res.locals.seen as string[]).push(`saw ${err.message}`);
  next(err);
};
const answer: RequestHandler = (_req, res) => void res.json({ seen: res.locals.seen as string[] });

const cases: Record<string, Step[]> = {
  "in order, error steps skipped": [mark("a"), passOn, mark("b"), answer],
  "next(err) skips to the error step": [
    mark("a"),
    ((_req, _res, next) => next(new Error("one"))) as RequestHandler,
    mark("skipped"),
    passOn,
    mark("skipped too"),
  ],
  "a throw is next(err)": [
    () => {
      throw new Error("thrown");
    },
    recover,
    mark("after"),
    answer,
  ],
  "a rejected promise is next(err)": [
    async () => {
      throw new Error("rejected");
    },
    mark("skipped"),
    recover,
    answer,
  ],
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the case is a rejection without a reason
  "a promise rejected without a reason": [() => Promise.reject(undefined), passOn],
  "past the last step": [mark("a"), mark("b")],
  'next("route") is next()': [mark("a"), ((_req, _res, next) => next("route")) as RequestHandler, mark("b"), answer],
  'next("router") leaves the list': [
    mark("a"),
    ((_req, _res, next) => next("router")) as RequestHandler,
    mark("skipped"),
  ],
};

let origin = "";
let close: () => void;
beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.seen = [];
    next();
  });
  Object.entries(cases).forEach(([name, steps], i) => {
    app.use(`/steps/${i}`, runSteps(steps));
    const router = Router();
    for (const step of steps) router.use(step);
    app.use(`/router/${i}`, router);
    void name;
  });
  // What the app does after the list: an answer without an error, the error handler with one.
  app.use((_req, res) => void res.status(404).json({ seen: res.locals.seen as string[], left: true }));
  app.use(
    ((err: Error, _req, res, _next) =>
      void res.status(500).json({ seen: res.locals.seen as string[], error: err.message })) as ErrorRequestHandler,
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

const expected: Record<string, { status: number; body: unknown }> = {
  "in order, error steps skipped": { status: 200, body: { seen: ["a", "b"] } },
  "next(err) skips to the error step": { status: 500, body: { seen: ["a", "saw one"], error: "one" } },
  "a throw is next(err)": { status: 200, body: { seen: ["recovered thrown", "after"] } },
  "a rejected promise is next(err)": { status: 200, body: { seen: ["recovered rejected"] } },
  "a promise rejected without a reason": {
    status: 500,
    body: { seen: ["saw Rejected promise"], error: "Rejected promise" },
  },
  "past the last step": { status: 404, body: { seen: ["a", "b"], left: true } },
  'next("route") is next()': { status: 200, body: { seen: ["a", "b"] } },
  'next("router") leaves the list': { status: 404, body: { seen: ["a"], left: true } },
};

describe("runSteps", () => {
  Object.keys(cases).forEach((name, i) => {
    it(`${name}, as a Router does`, async () => {
      const ours = await fetch(`${origin}/steps/${i}`);
      const router = await fetch(`${origin}/router/${i}`);
      const oursBody = await ours.json();
      expect({ status: ours.status, body: oursBody }).toEqual(expected[name]);
      expect({ status: router.status, body: await router.json() }).toEqual({ status: ours.status, body: oursBody });
    });
  });
});
