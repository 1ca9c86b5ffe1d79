// Request logs at info level: the operation and the path of every request, but no query value that could identify
// a shopper (issue 48 item 6): a postal code, cart tags, a search, an email, a phone number or an address show as ***.
import { Writable } from "node:stream";
import { pino } from "pino";
import { beforeEach, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { loadDemo } from "../helpers/shipping.ts";

/** Every line the app logged, parsed. */
const lines: Record<string, unknown>[] = [];
const logger = pino(
  { level: "info" },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
      done();
    },
  }),
);

let srv: TestServer;
let m: LogisticsClient;
let auth: string;
useTestServer(
  async (s) => {
    srv = s;
    await loadDemo(srv);
    m = await srv.merchant("logs.example.com");
    auth = `Basic ${Buffer.from("M-logs.example.com:secret-logs.example.com").toString("base64")}`;
  },
  { logger },
);
beforeEach(() => {
  lines.length = 0;
  logger.level = "info";
});

interface RequestLine {
  req: { id: string; method: string; url: string };
  operation?: string;
  res: { statusCode: number };
}

/** Sends a request and returns its one "request completed" line (pino writes it as the answer finishes). */
async function logged(path: string, init: RequestInit = {}): Promise<RequestLine & { raw: string }> {
  const r = await fetch(srv.origin + path, { ...init, headers: { authorization: auth, ...init.headers } });
  await r.arrayBuffer();
  const id = r.headers.get("x-request-id");
  // The line is written on "finish", which may come a tick after the client has the answer.
  for (let i = 0; i < 50; i++) {
    const line = lines.find((l) => l.msg === "request completed" && (l.req as RequestLine["req"]).id === id);
    if (line) return { ...(line as unknown as RequestLine), raw: JSON.stringify(line) };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no request line for ${path}`);
}

const PERSONAL = ["20780", "vip-customer", "jane", "example.org", "358401234567", "Mannerheimintie"];

describe("When a shopper's checkout asks for shipping options, the info-level request log", () => {
  it("keeps the operation, the path and the closed values (country, weight, counts) but shows postal code and tags as ***", async () => {
    const line = await logged(
      "/2015-01-01/shipping_options?postalcode=20780&country=FI&weight=350&item_count=2&tags=vip-customer&tags=jane%40example.org&explain=false",
    );
    expect(line.res.statusCode).toBe(200);
    expect(line.operation).toBe("getShippingOptions");
    expect(line.req.method).toBe("GET");
    expect(line.req.url).toBe(
      "/2015-01-01/shipping_options?postalcode=***&country=FI&weight=350&item_count=2&tags=***&tags=***&explain=false",
    );
    for (const word of PERSONAL) expect(line.raw, word).not.toContain(word);
  });

  it("hides a value of a closed parameter that is not of its form (a refused weight of an email), and the search q", async () => {
    const refused = await logged("/2015-01-01/shipping_options?postalcode=20780&weight=jane%40example.org");
    expect(refused.res.statusCode).toBe(400);
    expect(refused.operation).toBe("getShippingOptions");
    expect(refused.req.url).toBe("/2015-01-01/shipping_options?postalcode=***&weight=***");
    const search = await logged("/2015-01-01/inbound_shipments?q=jane%40example.org&limit=5&status=confirmed");
    expect(search.res.statusCode).toBe(200);
    expect(search.operation).toBe("listInboundShipments");
    expect(search.req.url).toBe("/2015-01-01/inbound_shipments?q=***&limit=5&status=confirmed");
    for (const word of PERSONAL) expect(refused.raw + search.raw, word).not.toContain(word);
  });

  it("hides every value of parameters the spec does not declare, on unknown routes too, and a name that is not a name", async () => {
    const unknown = await logged(
      "/2015-01-01/no_such_thing?email=jane%40example.org&phone=%2B358401234567&address=Mannerheimintie+1&jane%40example.org",
    );
    expect(unknown.res.statusCode).toBe(404);
    expect(unknown.operation).toBeUndefined();
    expect(unknown.req.url).toBe("/2015-01-01/no_such_thing?email=***&phone=***&address=***&***");
    const extra = await logged("/2015-01-01/pickup_points/lookup?postalcode=20780&country=FI&email=jane%40example.org");
    expect(extra.res.statusCode).toBe(400);
    expect(extra.operation).toBe("lookupPickupPoints");
    expect(extra.req.url).toBe("/2015-01-01/pickup_points/lookup?postalcode=***&country=FI&email=***");
    for (const word of PERSONAL) expect(unknown.raw + extra.raw, word).not.toContain(word);
  });

  it("nothing in any line of the whole log names the shopper, at info level", async () => {
    await m.GET("/shipping_options", {
      params: { query: { postalcode: "20780", country: "FI", tags: ["vip-customer"] } },
    });
    await logged("/2015-01-01/inbound_shipments?merchants_ref=jane%40example.org");
    const all = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(0);
    for (const word of PERSONAL) expect(all, word).not.toContain(word);
  });

  it("at debug level (a developer's machine) keeps the URL as it was sent", async () => {
    logger.level = "debug";
    const line = await logged("/2015-01-01/shipping_options?postalcode=20780&country=FI&tags=vip-customer");
    expect(line.req.url).toBe("/2015-01-01/shipping_options?postalcode=20780&country=FI&tags=vip-customer");
  });
});

describe("Every request is logged once, whichever way it is answered", () => {
  // The API's requests enter their pipeline from the server's listener (server/http/api-entry.ts); what the pipeline
  // leaves (a refusal) is answered by the app's error handlers, which must not log the request again.
  it("an API answer, an API refusal of each kind, the spec's file and a path outside the API: one line each", async () => {
    const cases: [string, RequestInit, number][] = [
      ["/2015-01-01/inbound_shipments", {}, 200],
      ["/2015-01-01/no_such_things", {}, 404],
      ["/2015-01-01/inbound_shipments", { method: "PUT" }, 405],
      ["/2015-01-01/inbound_shipments", { headers: { authorization: "Basic bm86c3VjaA==" } }, 401],
      ["/2015-01-01/inbound_shipments?limit=0", {}, 400],
      ["/2015-01-01/openapi.json", {}, 200],
      ["/no-such-page", {}, 404],
    ];
    for (const [path, init, status] of cases) {
      lines.length = 0;
      const line = await logged(path, init);
      expect([path, line.res.statusCode]).toEqual([path, status]);
      // Give a second line the time to come, then count every request line since this request was sent.
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect([path, lines.filter((l) => l.msg === "request completed").length]).toEqual([path, 1]);
    }
  });
});
