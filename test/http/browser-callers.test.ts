// Browsers on other origins are refused deliberately: no CORS by default (an API secret never belongs in a page),
// and the guide says so. The guide itself names the address it is served from and agrees with every other
// receiver example on the answer to a bad signature.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { basicAuth, expectUnchanged } from "../helpers/fixtures.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
let m: LogisticsClient;
const MERCHANT = "cors.example.com";
const SECRET = `secret-${MERCHANT}`;
useTestServer(async (s) => {
  srv = s;
  m = await s.merchant(MERCHANT);
});

const ORIGIN = "https://shop.example";
const corsHeaders = (h: Headers) => [...h.keys()].filter((k) => k.startsWith("access-control-"));

describe("No CORS by default", () => {
  it("an API request from another origin is answered without any Access-Control-* header", async () => {
    expect((await m.GET("/inbound_shipments")).response.status).toBe(200);
    const r = await fetch(`${srv.baseUrl}/inbound_shipments`, {
      headers: { origin: ORIGIN, authorization: basicAuth(`M-${MERCHANT}`, SECRET) },
    });
    expect(r.status).toBe(200);
    expect(corsHeaders(r.headers)).toEqual([]);
    expect(r.headers.get("vary") ?? "").not.toMatch(/origin/i);
  });

  // No operation answers OPTIONS: the route is matched before credentials are checked, so a preflight is refused
  // as a method the resource lacks (405 naming the one it has), and the page's call never goes.
  it("a preflight (OPTIONS) of a create is 405 method_not_allowed, allows no origin, and stores nothing", async () => {
    const r = await expectUnchanged(srv, () =>
      fetch(`${srv.baseUrl}/inbound_shipments/_create`, {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type",
        },
      }),
    );
    expect(r.status).toBe(405);
    expect(await r.json()).toMatchObject({ success: false, code: "method_not_allowed" });
    expect(r.headers.get("allow")).toBe("POST");
    expect(corsHeaders(r.headers)).toEqual([]);
  });

  it("the public pages and files send no Access-Control-* header either", async () => {
    for (const path of ["/", "/healthz", "/docs", "/docs/guide", "/2015-01-01/openapi.json"]) {
      const r = await fetch(srv.origin + path, { headers: { origin: ORIGIN } });
      expect(r.status, path).toBe(200);
      expect(corsHeaders(r.headers), path).toEqual([]);
    }
  });

  it("the guide says an API secret never belongs in a browser, and points to publishable keys", async () => {
    const text = await (await fetch(`${srv.origin}/docs/guide`)).text();
    expect(text).toContain("An API secret never belongs in a browser");
    expect(text).toContain("The API sends no CORS headers");
    expect(text).toContain("publishable keys");
  });
});

describe("The guide as served", () => {
  it("names the address it was read from, never a port it was not served on", async () => {
    const text = await (await fetch(`${srv.origin}/docs/guide`)).text();
    expect(text).not.toContain("127.0.0.1:3000");
    expect(text).toContain(`${srv.origin}/2015-01-01/inbound_shipments/_create`);
    expect(text).toContain(`baseUrl: &quot;${srv.baseUrl}&quot;`);
  });

  it("follows the Host header, and falls back to the socket's address for one that is not a host", async () => {
    const { port } = new URL(srv.origin);
    const asked = await rawRequest(srv.origin, [
      "GET /docs/guide HTTP/1.1",
      "Host: api.shop.example:8443",
      "Connection: close",
    ]);
    expect(asked.status).toBe(200);
    expect(asked.body).toContain("http://api.shop.example:8443/2015-01-01/inbound_shipments/_create");
    expect(asked.headers.vary).toMatch(/host/i);
    const hostile = await rawRequest(srv.origin, [
      "GET /docs/guide HTTP/1.1",
      'Host: "><script>alert(1)</script>',
      "Connection: close",
    ]);
    expect(hostile.status).toBe(200);
    expect(hostile.body).not.toContain("<script>alert");
    expect(hostile.body).toContain(`http://127.0.0.1:${port}/2015-01-01/inbound_shipments/_create`);
  });

  it("its example receiver answers 401 to a bad signature, as every receiver example of the docs does", () => {
    const pages = [
      "README.md",
      ...readdirSync("docs")
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const answers = pages.flatMap((page) =>
      [...readFileSync(page, "utf8").matchAll(/instanceof WebhookVerificationError\)[^\n]*?sendStatus\((\d+)\)/g)].map(
        (x) => [page, x[1]],
      ),
    );
    expect(answers).toContainEqual(["docs/guide.md", "401"]);
    expect(answers.filter(([, status]) => status !== "401")).toEqual([]);
  });
});
