// res.json without Express's generic steps (server/http/json-answer.ts): every answer the same status, headers and
// bytes as Express's own res.json gives, including the cases it leaves to Express (an ETag and its 304, a content
// type of the handler's, no body, 204).
import http from "node:http";
import type { AddressInfo } from "node:net";
import express, { type Express, type Response } from "express";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sendJsonDirectly } from "../../server/http/json-answer.ts";
import { answerBytes } from "../helpers/raw-http.ts";

const large = {
  text: "Hyvää päivää, 🚚 ".repeat(80),
  points: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`p${i}`, { coordinates: [60.1703 + i, 24.929] }])),
};
const answers: Record<string, (res: Response) => void> = {
  large: (res) => void res.json(large),
  small: (res) => void res.status(201).json({ success: true, id: "a1" }),
  array: (res) => void res.json([1, "two", null]),
  string: (res) => void res.json("a string"),
  "own content type": (res) => void res.type("application/problem+json").json({ code: "x" }),
  etag: (res) => void res.setHeader("ETag", '"v1"').json({ version: 1 }),
  none: (res) => void res.json(undefined),
  "no content": (res) => void res.status(204).json({ ignored: true }),
};

const apps: { direct?: string; express?: string } = {};
const servers: http.Server[] = [];
async function serve(app: Express): Promise<string> {
  for (const [name, send] of Object.entries(answers)) app.get(`/${encodeURIComponent(name)}`, (_req, res) => send(res));
  const s = await new Promise<http.Server>((r) => {
    const srv = app.listen(0, "127.0.0.1", () => r(srv));
  });
  servers.push(s);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}
beforeAll(async () => {
  const direct = express().set("etag", false);
  sendJsonDirectly(direct);
  apps.direct = await serve(direct);
  apps.express = await serve(express().set("etag", false));
});
afterAll(() => servers.forEach((s) => s.close()));

const answer = (origin: string, name: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  answerBytes(`${origin}/${encodeURIComponent(name)}`, init);

it.each(Object.keys(answers))("%s: the same status, headers and bytes as Express's res.json", async (name) => {
  const mine = await answer(apps.direct!, name);
  expect(mine).toEqual(await answer(apps.express!, name));
  if (name !== "none" && name !== "no content") expect(mine.body).not.toBe("");
});

it("a HEAD request gets the GET's headers and no body, a matching If-None-Match a 304, as from Express", async () => {
  for (const [name, init] of [
    ["large", { method: "HEAD" }],
    ["etag", { headers: { "If-None-Match": '"v1"' } }],
  ] as const) {
    const mine = await answer(apps.direct!, name, init);
    expect(mine).toEqual(await answer(apps.express!, name, init));
    expect(mine.body).toBe("");
  }
  expect((await answer(apps.direct!, "etag", { headers: { "If-None-Match": '"v1"' } })).status).toBe(304);
  expect((await answer(apps.direct!, "large", { method: "HEAD" })).headers["content-length"]).toBe(
    String(Buffer.byteLength(JSON.stringify(large))),
  );
});
