// Each change of ours in patches/ (patch-package, applied at `npm ci`) has a test here that fails when the change is
// lost: an upgrade that drops a patch, or a patch that no longer applies, must not pass silently. Each test watches
// what the patched code calls through the library's own modules (the ones node_modules holds), so it judges what
// the library does, not the text of the patch. patches/README.md describes each change as an upstream pull request.
import express from "express";
import type { RequestHandler } from "express";
import type { Plugin } from "esbuild";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import url from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validator } from "../../server/http/validator.ts";

// The modules express-openapi-validator itself requires (resolved from its own folder: the same instances).
const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
type Fn = (...args: unknown[]) => unknown;
const refParser = fromValidator("@apidevtools/json-schema-ref-parser") as Record<"bundle" | "dereference", Fn>;
const pathToRegexp = fromValidator("path-to-regexp") as { pathToRegexp: Fn };
const openapiSchema = fromValidator("./framework/openapi/factory.schema") as { factorySchema: Fn };
const parserUtil = fromValidator("./middlewares/parsers/util") as { normalizeParameter: Fn };
// Ajv's core class: the validator makes Ajv2020 instances for an OpenAPI 3.1 document, which inherit getSchema from it.
const Ajv = (fromValidator("ajv/dist/core") as { default: { prototype: { getSchema: (ref: string) => unknown } } })
  .default;

/** Starts `app` on a free port; its origin and a close. */
async function listen(app: express.Express) {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe("express 5.3.0 (patches/express+5.3.0.patch)", () => {
  it("sends a string body of any size as it is when ETags are off, without a copy into a Buffer", async () => {
    const app = express().set("etag", false);
    const ended: string[] = [];
    app.use((_req, res, next) => {
      const end = res.end.bind(res) as (...args: unknown[]) => unknown;
      (res as { end: unknown }).end = (chunk: unknown, ...rest: unknown[]) => (
        ended.push(Buffer.isBuffer(chunk) ? "Buffer" : typeof chunk),
        end(chunk, ...rest)
      );
      next();
    });
    const big = "å".repeat(5000); // over the 1,000 characters below which express already skipped the copy
    app.get("/", (_req, res) => void res.type("text/plain").send(big));
    const { origin, close } = await listen(app);
    try {
      const res = await fetch(origin);
      expect(await res.text()).toBe(big);
      expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(big)));
      expect(ended).toEqual(["string"]);
    } finally {
      await close();
    }
  });
});

describe("express-openapi-validator 5.6.2 (patches/express-openapi-validator+5.6.2.patch)", () => {
  const spies = {
    bundle: vi.spyOn(refParser, "bundle"),
    dereference: vi.spyOn(refParser, "dereference"),
    factorySchema: vi.spyOn(openapiSchema, "factorySchema"),
    pathToRegexp: vi.spyOn(pathToRegexp, "pathToRegexp"),
    urlParse: vi.spyOn(url, "parse"),
    normalizeParameter: vi.spyOn(parserUtil, "normalizeParameter"),
  };
  // The schema preprocessor's lookups only (the request validator looks a parameter's $ref up with ajv too).
  const preprocessorLookups: string[] = [];
  const getSchema = Ajv.prototype.getSchema;
  const getSchemaSpy = vi.spyOn(Ajv.prototype, "getSchema").mockImplementation(function (this: unknown, ref: string) {
    if (new Error().stack?.includes("schema.preprocessor")) preprocessorLookups.push(ref);
    return getSchema.call(this, ref);
  });
  let origin: string;
  let close: () => Promise<unknown>;
  /** Whether the request's way from before the validator's middlewares to the handler took no promise hop. */
  const synchronous: boolean[] = [];

  beforeAll(async () => {
    // One of its own: the one every app of the process shares has prepared long before, in an earlier file.
    const checks = validator(undefined, undefined, { fresh: true });
    const app = express();
    app.use((req, _res, next) => {
      const r = req as { sync?: boolean };
      r.sync = true;
      queueMicrotask(() => (r.sync = false));
      next();
    });
    app.use(...checks.match, checks.validate[0]!);
    const answer: RequestHandler = (req, res) => {
      synchronous.push((req as { sync?: boolean }).sync === true);
      res.json({});
    };
    app.use(answer);
    app.use(
      ((err, _req, res, _next) => void res.status(500).json({ err: String(err) })) as express.ErrorRequestHandler,
    );
    ({ origin, close } = await listen(app));
    // The first request waits for the validator to be ready.
    expect((await fetch(`${origin}/2015-01-01/pickup_points?postalcode=00100&country=FI`)).status).toBe(200);
  });
  afterAll(async () => {
    await close?.();
    for (const spy of Object.values(spies)) spy.mockRestore();
    getSchemaSpy.mockRestore();
  });

  it("takes a bundled document as it is ($refParser mode 'none'): no second bundling at start", () => {
    expect(spies.bundle).not.toHaveBeenCalled();
    expect(spies.dereference).not.toHaveBeenCalled();
  });

  it("compiles no OpenAPI schema when validateApiSpec is off", () => {
    expect(spies.factorySchema).not.toHaveBeenCalled();
  });

  it("reads a local $ref from the document instead of compiling it with ajv.getSchema", () => {
    expect(preprocessorLookups.filter((ref) => ref.startsWith("#/"))).toEqual([]);
  });

  it("compiles each route's matcher once, not at every request", async () => {
    const compiled = spies.pathToRegexp.mock.calls.length;
    expect(compiled).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++)
      expect((await fetch(`${origin}/2015-01-01/pickup_points?postalcode=0010${i}&country=FI`)).status).toBe(200);
    expect(spies.pathToRegexp.mock.calls.length).toBe(compiled);
  });

  it("reads a plain query from the URL without url.parse, and a query url.parse would change with it", async () => {
    spies.urlParse.mockClear();
    expect((await fetch(`${origin}/2015-01-01/pickup_points?postalcode=00100&country=FI`)).status).toBe(200);
    expect(spies.urlParse).not.toHaveBeenCalled();
    // `{` is one of the characters url.parse escapes: the patch leaves such a query to it.
    await fetch(`${origin}/2015-01-01/pickup_points?postalcode={0}&country=FI`);
    expect(spies.urlParse).toHaveBeenCalled();
  });

  it("normalises an operation's parameters once, not at every request", async () => {
    expect(spies.normalizeParameter).toHaveBeenCalled();
    spies.normalizeParameter.mockClear();
    expect((await fetch(`${origin}/2015-01-01/pickup_points?postalcode=00200&country=FI`)).status).toBe(200);
    expect(spies.normalizeParameter).not.toHaveBeenCalled();
  });

  it("tries a path against the routes of its shape only, and still finds each route", async () => {
    // The route table's matchers: path-to-regexp's regexps of the spec's routes, all under the base path.
    const tried: string[] = [];
    const exec = Object.getOwnPropertyDescriptor(RegExp.prototype, "exec")!.value as RegExp["exec"];
    const execSpy = vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, s: string) {
      if (this.source.startsWith("^(?:\\/2015-01-01")) tried.push(this.source);
      return exec.call(this, s);
    });
    try {
      expect((await fetch(`${origin}/2015-01-01/pickup_points?postalcode=00100&country=FI`)).status).toBe(200);
      // pickup_points, pickup_points/{pickup_point_id} aside, no other route has two segments under the base path.
      expect(tried.length).toBeGreaterThan(0);
      expect(tried.length).toBeLessThanOrEqual(2);
      tried.length = 0;
      // The same route in other letters and with a trailing slash (routing is case-insensitive, not strict).
      expect((await fetch(`${origin}/2015-01-01/Pickup_Points/?postalcode=00100&country=FI`)).status).toBe(200);
      expect(tried.length).toBeLessThanOrEqual(2);
      // A word no route has: no matcher runs, and it is the validator's "not found" as before (this app answers
      // every error with a 500 naming it).
      tried.length = 0;
      const unknown = await fetch(`${origin}/2015-01-01/no_such_things`);
      expect(((await unknown.json()) as { err: string }).err).toMatch(/not found/);
      expect(tried).toEqual([]);
    } finally {
      execSpy.mockRestore();
    }
  });

  it("runs its middlewares without a promise hop once it is ready", async () => {
    synchronous.length = 0;
    expect((await fetch(`${origin}/2015-01-01/pickup_points?postalcode=00100&country=FI`)).status).toBe(200);
    expect(synchronous).toEqual([true]);
  });
});

// tools/build.mjs rewrites one line of pg as it bundles it (no patch file: the bundle is ours, pg's package is not).
describe(`pg ${createRequire(import.meta.url)("pg/package.json").version} (tools/build.mjs pgOnNode)`, () => {
  /** How many `Response`s pg constructs while it loads, bundled with or without the plugin. */
  async function responsesAtLoad(plugins: Plugin[]): Promise<number> {
    const { build } = await import("esbuild");
    const out = await build({
      stdin: { contents: 'import "pg";', resolveDir: process.cwd() },
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      logLevel: "silent",
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      plugins,
    });
    // A stand-in Response that counts, installed before the bundle loads (a static import would load it first).
    const dir = mkdtempSync(path.join(tmpdir(), "pg-on-node-"));
    writeFileSync(path.join(dir, "pg.mjs"), out.outputFiles[0]!.text);
    const code =
      "let made = 0; globalThis.Response = class { constructor() { made++; } };" +
      `await import(${JSON.stringify(url.pathToFileURL(path.join(dir, "pg.mjs")).href)});` +
      "process.stdout.write(String(made));";
    try {
      return Number(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("constructs no Response while it loads (which loads node's undici on Node 20), and the plugin is what keeps it so", async () => {
    const { pgOnNode } = await import("../../tools/build.mjs");
    expect(await responsesAtLoad([pgOnNode])).toBe(0);
    // Without the plugin, the pg node_modules holds asks at load: what the plugin removes is still there to remove.
    expect(await responsesAtLoad([])).toBe(1);
  });
});
