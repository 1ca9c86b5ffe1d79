// The client package from the running server, as an integrator without our repository gets it: the server (the
// bundle `npm start` runs) offers the tarball `client:pack` (and `npm run build`) writes to dist/client at a
// versioned URL, and `npm install <that URL>` in an empty project gives a client that calls the server.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clientPackage } from "../../server/docs/client-package.ts";
import { DEMO } from "../../server/demo.ts";
import { freePort, run, SERVER_MAIN, waitReady, type Proc } from "../process/helpers.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startTestServer } from "../helpers/server.ts";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const pkg = clientPackage();

let tarball: string;
let server: { proc: Proc; origin: string };
let dataDir: string | undefined;
let postgres: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let project: string;

beforeAll(async () => {
  const packed = await exec("npm", ["run", "--silent", "client:pack"], { cwd: ROOT });
  tarball = packed.stdout.trim().split("\n").pop()!;
  // The server on this project's database (a copy of the migrated template, or a PostgreSQL database of its own),
  // empty, so it seeds the demo merchant.
  const env: Record<string, string> = { LOG_LEVEL: "warn" };
  if (process.env.TEST_DB === "postgres") {
    postgres = await createTestDatabase();
    env.DATABASE_URL = postgres.url!;
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), "logistics-client-download-db-"));
    cpSync(inject("pgliteTemplate"), path.join(dataDir, "db"), { recursive: true });
    Object.assign(env, { PGLITE_DIR: path.join(dataDir, "db"), DATABASE_URL: "" });
  }
  const port = await freePort();
  const proc = run(SERVER_MAIN, [], { ...env, PORT: String(port) });
  server = { proc, origin: `http://127.0.0.1:${port}` };
  await waitReady(server.origin, proc, 90_000);
  project = mkdtempSync(path.join(tmpdir(), "logistics-client-download-"));
}, 180_000);
afterAll(async () => {
  server?.proc.child.kill("SIGTERM");
  await server?.proc.exited;
  await postgres?.close();
  for (const dir of [dataDir, project]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the client package from the server", () => {
  it("client:pack writes to a stable path named after the package's version, the one the server offers", () => {
    expect(path.relative(ROOT, tarball)).toBe(`dist/client/logistics-api-client-${pkg.version}.tgz`);
    expect(pkg.path).toBe(`/client/logistics-api-client-${pkg.version}.tgz`);
  });

  it("is linked from GET / and from /docs and the guide", async () => {
    expect(await (await fetch(server.origin)).json()).toMatchObject({ client: pkg.path });
    for (const page of ["/docs", "/docs/guide"])
      expect(await (await fetch(server.origin + page)).text(), page).toContain(`href="${pkg.path}"`);
  });

  it("answers the packed bytes with a content hash as ETag; HEAD and a revalidation answer no body", async () => {
    const bytes = readFileSync(tarball);
    const got = await fetch(server.origin + pkg.path);
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    expect(got.headers.get("content-type")).toBe("application/gzip");
    expect(got.headers.get("content-length")).toBe(String(bytes.length));
    expect(got.headers.get("content-disposition")).toBe(`attachment; filename="${pkg.file}"`);
    expect(got.headers.get("cache-control")).toBe("public, no-cache");
    const etag = got.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    const head = await fetch(server.origin + pkg.path, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(etag);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    expect(await head.text()).toBe("");

    // As a browser or npm revalidates (fetch() alone would add Cache-Control: no-cache, which asks for the bytes).
    const revalidate = { "cache-control": "max-age=0" };
    const again = await fetch(server.origin + pkg.path, { headers: { "if-none-match": etag, ...revalidate } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const changed = await fetch(server.origin + pkg.path, { headers: { "if-none-match": '"another"', ...revalidate } });
    expect(changed.status).toBe(200);
  });

  it("another version is 404 in the API's error shape, naming the version this server offers", async () => {
    for (const file of ["logistics-api-client-2015.101.0.tgz", "logistics-api-client-latest.tgz"]) {
      const r = await fetch(`${server.origin}/client/${file}`);
      expect(r.status).toBe(404);
      const body = await r.json();
      expect(body).toEqual({
        success: false,
        code: "not_found",
        message: `No client package ${file} here. This server offers @logistics-api/client ${pkg.version} at ${pkg.path}`,
        details: [],
        request_id: r.headers.get("x-request-id"),
      });
    }
  });

  it("npm install <its URL> in an empty project gives a client that calls the server", async () => {
    const url = server.origin + pkg.path;
    writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "shop", version: "1.0.0", private: true, type: "module" }),
    );
    await exec("npm", ["install", url, "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
    const manifest = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8"));
    expect(manifest.dependencies).toEqual({ "@logistics-api/client": url });
    writeFileSync(
      path.join(project, "first-call.mjs"),
      `import { createLogisticsClient, unwrap } from "@logistics-api/client";
const client = createLogisticsClient({ baseUrl: process.argv[2], username: "M-${DEMO.merchantId}", secret: "${DEMO.merchantSecret}" });
const created = await unwrap(client.POST("/inbound_shipments/_create", { body: { merchants_ref: "PO-URL", sender_name: "Acme", products: [{ merchants_id: "SKU-1", qty: 1 }] } }));
const read = await unwrap(client.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: created.shipment_id } } }));
console.log(JSON.stringify({ id: read.id, ref: read.merchants_ref, status: read.status }));
`,
    );
    const ran = await exec(process.execPath, ["first-call.mjs", `${server.origin}/2015-01-01`], { cwd: project });
    const result = JSON.parse(ran.stdout);
    expect(result).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), ref: "PO-URL", status: "initial" });
  }, 180_000);
});

describe("a server whose client package is not built", () => {
  it("answers 503 unavailable saying how to build it, and still 404 for another version", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "logistics-no-client-"));
    const srv = await startTestServer({ clientDir: empty });
    try {
      const r = await fetch(srv.origin + pkg.path);
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({
        success: false,
        code: "unavailable",
        message: "The client package is not built on this server: its operator runs `npm run build` (npm start does).",
      });
      expect((await fetch(`${srv.origin}/client/logistics-api-client-1.0.0.tgz`)).status).toBe(404);
    } finally {
      await srv.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
