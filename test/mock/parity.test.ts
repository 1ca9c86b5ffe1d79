// The mock (npm run mock) and the server answer one table of requests alike: the same status, error code,
// details and body shape, request ids, no CORS headers. The mock runs in process here (tools/mock/app.ts, what
// `npm run mock` serves; test/contract/mock.test.ts runs the command itself); the server on this run's database.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_PATH } from "../../server/app.ts";
import { newId } from "../../server/shared/ids.ts";
import { createMockApp } from "../../tools/mock/app.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, loadDemo, SETTINGS } from "../helpers/shipping.ts";
import { paritySent, PARITY_TABLE, type Answer, type Row, type Target } from "./table.ts";

let srv: TestServer;
let mock: Server;
const targets: Record<"mock" | "server", Target> = {} as never;

beforeAll(async () => {
  srv = await startTestServer();
  // The demo directory, and home and pickup priced: what the spec's place examples (99800, 99999) answer from.
  await loadDemo(srv);
  await configure(await srv.merchant("parity.example.com"), SETTINGS, [list("home"), list("pickup")]);
  await srv.operator("parity-wh");
  const app = await createMockApp({ logger: pino({ level: "silent" }) });
  mock = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const mockOrigin = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
  targets.mock = { name: "mock", origin: mockOrigin, baseUrl: mockOrigin + BASE_PATH, unknownId: "", ids: {} };
  // The server's unknown id is one it never issued; the mock is asked for its documented 404 instead.
  targets.server = { name: "server", origin: srv.origin, baseUrl: srv.baseUrl, unknownId: newId(), ids: {} };
  // What the reads of the table need on each: the id the target's own create returns.
  for (const t of Object.values(targets)) {
    const created = await paritySent(t, { method: "POST", path: "/inbound_shipments/_create", body: "valid" });
    t.ids.shipment = (created.body as { shipment_id: string }).shipment_id;
  }
});
afterAll(async () => {
  mock?.closeAllConnections();
  await new Promise((r) => mock?.close(r));
  await srv?.close();
});

/** What must be the same: status, the error's code and details, the body's keys, the headers that matter. */
function comparable(a: Answer) {
  const body = a.body as Record<string, unknown> | undefined;
  const error = body?.success === false;
  return {
    status: a.status,
    contentType: a.headers.get("content-type"),
    keys: body && typeof body === "object" ? Object.keys(body).sort() : body,
    ...(error && { code: body.code, details: body.details }),
    ...(a.status === 401 && { wwwAuthenticate: a.headers.get("www-authenticate") }),
    ...(a.status === 405 && { allow: a.headers.get("allow") }),
  };
}

describe("the mock answers as the server does", () => {
  it.each(PARITY_TABLE.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const before = row.expect.status >= 400 ? await srv.snapshot() : undefined;
    const [onMock, onServer] = [await paritySent(targets.mock, row), await paritySent(targets.server, row)];
    expect(comparable(onMock), "the mock").toEqual(comparable(onServer));
    for (const answer of [onMock, onServer]) {
      expect(answer.status).toBe(row.expect.status);
      const body = answer.body as Record<string, unknown>;
      if (row.expect.code) expect(body.code).toBe(row.expect.code);
      if (row.expect.details) expect(body.details).toEqual(row.expect.details);
      row.expect.check?.(body);
      // Every answer has a request id; an error's body quotes it. No CORS headers, though the request had an Origin.
      const requestId = answer.headers.get("x-request-id");
      expect(requestId).toMatch(/\S/);
      if (body?.success === false) expect(body.request_id).toBe(requestId);
      expect([...answer.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([]);
    }
    // A refused request changed nothing on the server.
    if (before) expect(await srv.snapshot()).toEqual(before);
  });

  it("a publishable key is answered alike: options with CORS for its page, 403 elsewhere, 401 when malformed", async () => {
    const created = await fetch(`${srv.baseUrl}/publishable_keys/_create`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from("M-parity.example.com:secret-parity.example.com").toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ origins: ["https://shop.example.com"] }),
    });
    const key = ((await created.json()) as { key: string }).key;
    // The mock takes any well-formed key as a key of its example merchant, allowed on every origin (it stores no
    // keys): a page on an origin the key does not list is refused by the server only (docs/mock.md says so).
    const keyed = Object.values(targets).map((t) => ({ ...t, auth: `Bearer ${key}` }));
    // `cors`: the answer may be read by the key's page (its refusals too, so that its developer sees why).
    const rows: (Row & { status: number; cors?: boolean })[] = [
      { method: "GET", path: "/shipping_options?postalcode=20780&country=FI", status: 200, cors: true },
      { method: "GET", path: "/pickup_points/lookup?postalcode=20780&country=FI", status: 200, cors: true },
      // The explanation shows the merchant's price lists: not for a key.
      { method: "GET", path: "/shipping_options?postalcode=20780&country=FI&explain=true", status: 403, cors: true },
      { method: "POST", path: "/inbound_shipments/_create", body: "valid", status: 403, cors: true },
      { method: "GET", path: "/inbound_shipments", status: 403, cors: true },
      { method: "GET", path: "/publishable_keys", status: 403, cors: true },
      {
        method: "GET",
        path: "/shipping_options?postalcode=20780&country=FI",
        headers: { authorization: "Bearer pk_short" },
        status: 401,
        // Readable by the page too, so the checkout picker says it cannot be shown there (not "try again").
        cors: true,
      },
      {
        method: "OPTIONS",
        path: "/shipping_options",
        headers: { "access-control-request-method": "GET", "access-control-request-headers": "authorization" },
        status: 204,
        cors: true,
      },
    ];
    for (const row of rows) {
      const [onMock, onServer] = await Promise.all(keyed.map((t) => paritySent(t, row)));
      const name = `${row.method} ${row.path} ${JSON.stringify(row.headers ?? {})}`;
      expect(comparable(onMock!), name).toEqual(comparable(onServer!));
      for (const answer of [onMock!, onServer!]) {
        expect(answer.status, name).toBe(row.status);
        if (row.status === 403) expect((answer.body as { code: string }).code).toBe("access_denied");
        expect(answer.headers.get("access-control-allow-origin"), name).toBe(
          row.cors ? "https://shop.example.com" : null,
        );
      }
    }
  });

  it("a pagination loop ends on both: next_cursor leads to a page whose own cursor is null", async () => {
    // A merchant of its own on the server, with two shipments: two pages of one.
    await srv.merchant("parity-pages.example.com");
    const auth = `Basic ${Buffer.from("M-parity-pages.example.com:secret-parity-pages.example.com").toString("base64")}`;
    const paging = Object.values(targets).map((t) => ({ ...t, auth }));
    for (const _ of [1, 2])
      await paritySent(paging[1]!, { method: "POST", path: "/inbound_shipments/_create", body: "valid" });
    for (const t of paging) {
      const pages: { items: unknown[]; next_cursor: string | null }[] = [];
      let cursor: string | null = null;
      do {
        const q: string = `?limit=1${cursor ? `&cursor=${cursor}` : ""}`;
        const answer = await paritySent(t, { method: "GET", path: `/inbound_shipments${q}` });
        expect(answer.status, t.name).toBe(200);
        pages.push(answer.body as (typeof pages)[number]);
        cursor = pages[pages.length - 1]!.next_cursor;
      } while (cursor && pages.length < 5);
      expect(
        pages.map((p) => p.next_cursor === null),
        t.name,
      ).toEqual([false, true]);
      for (const p of pages) expect(p.items, t.name).toHaveLength(1);
    }
  });
});
