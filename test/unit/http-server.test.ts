// The app's HTTP server (server/http/server.ts): requests and responses made with the app's prototypes from the
// start, and every answer the same status, headers and bytes as the same app served by app.listen, where Express
// sets the prototypes on each request.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express } from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createHttpServer } from "../../server/http/server.ts";
import { answerBytes } from "../helpers/raw-http.ts";

function demoApp(): Express {
  // Production's error pages: a stack trace would name each server's own frames.
  const app = express().set("etag", false).set("env", "production");
  app.disable("x-powered-by");
  app.use((req, res, next) => {
    res.locals.seen = `${req.method} ${req.path}`;
    next();
  });
  app.get("/things/:id", (req, res) => {
    res.set("X-Seen", String(res.locals.seen));
    res.json({ id: req.params.id, query: req.query, ip: req.ip, host: req.hostname, secure: req.secure });
  });
  app.get("/text", (_req, res) => void res.type("text/plain").send("Hyvää päivää"));
  app.post("/echo", express.json(), (req, res) => void res.status(201).json(req.body));
  app.get("/fails", () => {
    throw new Error("on purpose");
  });
  app.get("/redirect", (_req, res) => res.redirect(301, "/text"));
  return app;
}

const origins: { own?: string; express?: string } = {};
const servers: http.Server[] = [];
/** What the app's server hands to Express: whether each request and response already had the app's prototypes. */
const madeWithPrototypes: boolean[] = [];

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
beforeAll(async () => {
  const app = demoApp();
  const own = createHttpServer(app);
  // Before the app's own listener: what node made, before Express touched it.
  own.prependListener("request", (req, res) =>
    madeWithPrototypes.push(
      Object.getPrototypeOf(req) === app.request &&
        Object.getPrototypeOf(res) === app.response &&
        req instanceof http.IncomingMessage &&
        res instanceof http.ServerResponse,
    ),
  );
  origins.own = await listen(own);
  const plain = demoApp();
  const s = plain.listen(0, "127.0.0.1");
  await new Promise<void>((r) => s.once("listening", r));
  servers.push(s);
  origins.express = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
});
afterAll(() => servers.forEach((s) => s.close()));

const answer = (origin: string, path: string, init: { method?: string; body?: string } = {}) =>
  answerBytes(`${origin}${path}`, { ...init, headers: init.body ? { "content-type": "application/json" } : {} });

const cases: [string, string, { method?: string; body?: string }?][] = [
  ["a route with a parameter, the query, the address and the host", "/things/a1?x=1&y=2&y=3"],
  ["HEAD of it", "/things/a1", { method: "HEAD" }],
  ["text with its charset", "/text"],
  ["a JSON body", "/echo", { method: "POST", body: '{"a":[1,2]}' }],
  ["malformed JSON", "/echo", { method: "POST", body: "{" }],
  ["an error thrown by a handler", "/fails"],
  ["a redirect", "/redirect"],
  ["nothing there", "/nowhere"],
  ["a method nothing serves", "/text", { method: "DELETE" }],
];

it.each(cases)("%s: the same status, headers and bytes as app.listen", async (_name, path, init) => {
  const own = await answer(origins.own!, path, init);
  const theirs = await answer(origins.express!, path, init);
  expect(own).toEqual(theirs);
});

it("hands Express requests and responses that already have the app's prototypes", () => {
  expect(madeWithPrototypes.length).toBeGreaterThanOrEqual(cases.length);
  expect(madeWithPrototypes.every(Boolean)).toBe(true);
});
