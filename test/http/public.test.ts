// Public endpoints: health, readiness, the contract and the docs need no credentials.
import { describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { basicAuth } from "../helpers/fixtures.ts";
import { rawRequest } from "../helpers/raw-http.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";

let srv: TestServer;
useTestServer((s) => {
  srv = s;
});

async function raw(path: string, headers: Record<string, string>, init: { origin?: boolean } = {}) {
  const response = await fetch((init.origin ? srv.origin : srv.baseUrl) + path, { headers });
  const text = await response.text();
  let error: unknown = text;
  try {
    error = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { response, error, text };
}

describe("When a newcomer starts at the server's address", () => {
  it("GET / points to the API, its docs, the spec, the portal, the checkout picker, the client package and health, and each of them answers", async () => {
    const r = await raw("/", {}, { origin: true });
    expect(r.response.status).toBe(200);
    expect(r.error).toEqual({
      service: expect.any(String),
      api: "/2015-01-01",
      docs: "/docs",
      spec: "/2015-01-01/openapi.yaml",
      portal: "/portal/",
      station: "/station",
      picker: "/picker.js",
      client: expect.stringMatching(/^\/client\/logistics-api-client-\d+\.\d+\.\d+\.tgz$/),
      health: "/healthz",
    });
    const links = r.error as Record<string, string>;
    for (const key of ["docs", "spec", "health"] as const)
      expect((await fetch(srv.origin + links[key])).status, key).toBe(200);
  });

  it("GET / in a browser is a page of links in plain words, each of which answers; JSON is for programs", async () => {
    const page = await raw("/", { accept: "text/html,application/xhtml+xml,*/*;q=0.8" }, { origin: true });
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.response.headers.get("vary")).toMatch(/accept/i);
    expect(page.text).toContain('<html lang="en">');
    const hrefs = [...page.text.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1]!, m[2]!]);
    expect(hrefs.map(([, label]) => label)).toEqual([
      "API documentation",
      "Guide",
      "Merchant portal",
      "Receiving station",
      "OpenAPI description",
      "Client package",
      "Health",
    ]);
    for (const [href] of hrefs) expect((await fetch(srv.origin + href)).status, href).toBe(200);
    const json = await raw("/", { accept: "application/json" }, { origin: true });
    expect(json.response.headers.get("content-type")).toMatch(/^application\/json/);
    expect((json.error as { api: string }).api).toBe("/2015-01-01");
  });

  it("GET /client/ names the package this server offers now and how to install it (no bare 404)", async () => {
    for (const path of ["/client/", "/client"]) {
      const r = await raw(path, { accept: "application/json" }, { origin: true });
      expect(r.response.status, path).toBe(200);
      expect(r.error).toEqual({
        name: "@logistics-api/client",
        version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
        path: expect.stringMatching(/^\/client\/logistics-api-client-\d+\.\d+\.\d+\.tgz$/),
        install: expect.stringMatching(/^npm install http:\/\/127\.0\.0\.1:\d+\/client\/logistics-api-client-/),
      });
    }
    const page = await raw("/client/", { accept: "text/html" }, { origin: true });
    expect(page.response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toMatch(
      /<code>npm install http:\/\/127\.0\.0\.1:\d+\/client\/logistics-api-client-[\d.]+\.tgz<\/code>/,
    );
    // A Host header is the caller's: it is shown as text, never as markup.
    const hostile = await rawRequest(srv.origin, [
      "GET /client/ HTTP/1.1",
      'Host: x"><script>alert(1)</script>',
      "Accept: text/html",
      "Connection: close",
    ]);
    expect(hostile.status).toBe(200);
    expect(hostile.body).toContain("x&quot;&gt;&lt;script&gt;");
    expect(hostile.body).not.toContain("<script>");
  });

  it("a resource path without the version segment is 404 with the right address in the message", async () => {
    const r = await raw("/inbound_shipments/5a40d1e2f3a4b5c6d7e8f9a0?x=1", {}, { origin: true });
    expect(r.response.status).toBe(404);
    expect(r.error).toMatchObject({
      code: "not_found",
      message:
        "No such resource. The API's paths begin with the version: /2015-01-01/inbound_shipments/5a40d1e2f3a4b5c6d7e8f9a0",
      request_id: expect.any(String),
    });
    const other = await raw("/nothing-here", {}, { origin: true });
    expect(other.response.status).toBe(404);
    expect(other.error).toMatchObject({ code: "not_found", message: "No such resource." });
  });
});

describe("public endpoints need no credentials", () => {
  it("GET /healthz", async () => {
    const r = await raw("/healthz", {}, { origin: true });
    expect(r.response.status).toBe(200);
    expect(r.error).toEqual({ status: "ok" });
  });

  it("GET /readyz", async () => {
    const r = await raw("/readyz", {}, { origin: true });
    expect(r.response.status).toBe(200);
    expect(r.error).toEqual({ status: "ready" });
  });

  it("GET /2015-01-01/openapi.yaml", async () => {
    const r = await raw("/openapi.yaml", {});
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get("content-type")).toMatch(/yaml/);
    expect(r.text).toMatch(/^openapi: 3\.1/m);
    expect(r.text).toContain("operationId: createInboundShipment");
  });

  it("GET /2015-01-01/openapi.json", async () => {
    const r = await raw("/openapi.json", {});
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = r.error as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toContain("/inbound_shipments/_create");
  });

  it("GET /docs", async () => {
    const r = await raw("/docs", {}, { origin: true });
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(r.text).toContain('<redoc spec-url="/2015-01-01/openapi.json"');
    expect(r.response.headers.get("content-security-policy")).toMatch(/^default-src 'self';/);
    const bundle = await raw("/docs/assets/redoc.standalone.js", {}, { origin: true });
    expect(bundle.response.status).toBe(200);
    expect(bundle.response.headers.get("content-type")).toMatch(/javascript/);
  });

  it("GET /docs/guide", async () => {
    const r = await raw("/docs/guide", {}, { origin: true });
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get("content-type")).toMatch(/^text\/html/);
    for (const heading of [
      "Getting started",
      "Authentication",
      "Idempotency",
      "Pagination",
      "Webhooks",
      "The events feed",
    ])
      expect(r.text).toContain(`>${heading}</h2>`);
  });

  it("the public endpoints also work with wrong credentials (they do not check them)", async () => {
    const headers = { Authorization: "Basic bm9ib2R5Om5vdGhpbmc=" };
    expect((await raw("/healthz", headers, { origin: true })).response.status).toBe(200);
    expect((await raw("/openapi.json", headers)).response.status).toBe(200);
  });
});

describe("a refused Basic sign-in says what a person can fix, never which part was wrong", () => {
  it("a well-formed name with a wrong secret, and an unknown well-formed name: the same 401 'unknown name or wrong secret'; a malformed name: how to write one", async () => {
    await provisionAccount(srv.handle.db, "merchant", "known-401.example.com", "the-right-secret-401");
    const get = (user: string, secret: string) =>
      raw("/inbound_shipments", { authorization: basicAuth(user, secret) }).then((r) => {
        expect(r.response.status).toBe(401);
        return (r.error as { code: string; message: string }).message;
      });
    const wrongSecret = await get("M-known-401.example.com", "not-the-secret-401");
    const unknownName = await get("M-nobody-401.example.com", "the-right-secret-401");
    expect(wrongSecret).toBe(
      "Unknown name or wrong secret: check the user name and secret of your HTTP Basic credentials.",
    );
    expect(unknownName).toBe(wrongSecret);
    for (const malformed of ["known-401.example.com", "M-not a name", "X-known-401.example.com"])
      expect(await get(malformed, "the-right-secret-401"), malformed).toBe(
        "Valid credentials are required: HTTP Basic with M-<merchant_id> or W-<operator_id>.",
      );
  });
});
