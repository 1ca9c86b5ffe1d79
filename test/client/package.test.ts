// The published client, tried as a new integrator would: the packed tarball installed in an empty project
// outside this repository, type-checked under strict TypeScript, one scripted integration run unchanged
// against the mock and the server, and the main entry bundled for and run in a browser.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.ts";
import { freePort, run, SERVER_MAIN, waitReady, type Proc } from "../process/helpers.ts";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const spec = JSON.parse(readFileSync(path.join(ROOT, "generated/openapi.json"), "utf8")) as {
  info: { version: string };
};

let tarball: string;
let project: string;

beforeAll(async () => {
  const packed = await exec("npm", ["run", "--silent", "client:pack"], { cwd: ROOT });
  tarball = packed.stdout.trim().split("\n").pop()!;
  project = mkdtempSync(path.join(tmpdir(), "logistics-integrator-"));
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "integrator", private: true, type: "module" }),
  );
  // @types/node only for the Node script; the library's own types must not need it (checked below).
  await exec("npm", ["install", tarball, "@types/node@20", "--no-audit", "--no-fund", "--prefer-offline"], {
    cwd: project,
  });
  copyFileSync(path.join(ROOT, "client/examples/integration.mjs"), path.join(project, "integration.mjs"));
}, 180_000);
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the tarball", () => {
  it("is a package named and versioned after the contract, with its README, CHANGELOG and only built files", async () => {
    const { stdout } = await exec("tar", ["-tzf", tarball]);
    const files = stdout.trim().split("\n").sort();
    expect(files).toContain("package/dist/client/index.js");
    expect(files).toContain("package/dist/client/index.d.ts");
    expect(files).toContain("package/dist/client/webhooks.js");
    expect(files).toContain("package/dist/generated/api.d.ts");
    // The rule vocabulary is the server's table, built beside the client in its own layout.
    expect(files).toContain("package/dist/server/shipping/vocabulary.js");
    expect(files).toContain("package/README.md");
    expect(files).toContain("package/CHANGELOG.md");
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.join(project, "node_modules/@logistics-api/client/package.json"), "utf8"));
    // info.version 2015-01-01 is 2015.101.x: the API version in major.minor, client releases in the patch.
    const [y, m, d] = spec.info.version.split("-").map(Number);
    expect(pkg.version).toMatch(new RegExp(`^${y}\\.${m! * 100 + d!}\\.\\d+$`));
    expect(pkg.exports["."].types).toBe("./dist/client/index.d.ts");
    expect(pkg.exports["./webhooks"].default).toBe("./dist/client/webhooks.js");
    const changelog = readFileSync(path.join(project, "node_modules/@logistics-api/client/CHANGELOG.md"), "utf8");
    expect(changelog).toContain(`## ${pkg.version}`);
  });

  it("type-checks under strict TypeScript without Node's types, and the example script with them", async () => {
    writeFileSync(
      path.join(project, "check.ts"),
      `
import { ApiError, createLogisticsClient, paginate, unwrap, type WebhookEvent, type components } from "@logistics-api/client";
import { verifyWebhookEvents, type WebhookHeaders } from "@logistics-api/client/webhooks";
export const verified = (headers: WebhookHeaders, body: string): WebhookEvent | WebhookEvent[] => verifyWebhookEvents("whsec_x", headers, body);
const client = createLogisticsClient({ baseUrl: "https://api.example.com/2015-01-01", username: "M-shop.example.com", secret: "s", retries: 2, timeoutMs: 5000 });
export async function typed(event: WebhookEvent): Promise<string[]> {
  const created = await unwrap(client.POST("/inbound_shipments/_create", { body: { merchants_ref: "PO-1", sender_name: "Acme", products: [] } }));
  const id: string = created.shipment_id;
  const r = await client.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
  if (r.error) { const code: components["schemas"]["Error"]["code"] = r.error.code; return [code]; }
  const ids: string[] = [];
  for await (const s of paginate(client, "/inbound_shipments", { params: { query: { limit: 10 } } })) ids.push(s.id);
  // @ts-expect-error: limit is a number
  await client.GET("/inbound_shipments", { params: { query: { limit: "ten" } } });
  // @ts-expect-error: merchants_ref is a string
  await client.POST("/inbound_shipments/_create", { body: { merchants_ref: 42, sender_name: "Acme", products: [] } });
  // @ts-expect-error: sender_name is required
  await client.POST("/inbound_shipments/_create", { body: { merchants_ref: "PO-1", products: [] } });
  if (event.event_type === "inbound_shipment.items_arrived") ids.push(...event.payload.products.map((p) => p.merchants_id));
  try { await unwrap(client.GET("/events", {})); } catch (e) { if (e instanceof ApiError) ids.push(e.code, String(e.status)); }
  return ids;
}
`,
    );
    const base = {
      strict: true,
      noEmit: true,
      module: "NodeNext",
      moduleResolution: "NodeNext",
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      skipLibCheck: false,
      noUncheckedIndexedAccess: true,
    };
    writeFileSync(
      path.join(project, "tsconfig.lib.json"),
      JSON.stringify({ compilerOptions: { ...base, types: [] }, files: ["check.ts"] }),
    );
    // The library's declarations, both entries', are checked above (skipLibCheck false, without Node's types); here
    // the script's use of them and of Node's. Checking them again beside all of @types/node's own declarations
    // took 6.2 of the two checks' 9 processor seconds (2.4 with skipLibCheck).
    writeFileSync(
      path.join(project, "tsconfig.script.json"),
      JSON.stringify({
        compilerOptions: { ...base, types: ["node"], allowJs: true, checkJs: true, skipLibCheck: true },
        files: ["integration.mjs"],
      }),
    );
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const check = (config: string) =>
      exec(process.execPath, [tsc, "-p", config], { cwd: project }).catch((e: { stdout: string }) => ({
        stdout: e.stdout,
        failed: true,
      }));
    const configs = ["tsconfig.lib.json", "tsconfig.script.json"];
    const results = await Promise.all(configs.map(check));
    for (const [i, r] of results.entries()) expect(r.stdout, configs[i]).toBe("");
  });
});

/** Runs the example script; when it waits for a webhook, `onWaiting` gets the receiver's URL. */
function integrate(
  baseUrl: string,
  onWaiting?: (url: string) => Promise<void>,
): Promise<{ code: number | null; lines: Record<string, unknown>[]; output: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ["integration.mjs"], {
      cwd: project,
      env: { ...process.env, LOGISTICS_BASE_URL: baseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const lines: Record<string, unknown>[] = [];
    let sending: Promise<void> = Promise.resolve();
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
      for (const line of d.toString().split("\n").filter(Boolean)) {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push({ ...parsed, ms: Date.now() - started });
        if (parsed.step === "waiting_for_webhook" && onWaiting) sending = onWaiting(parsed.url as string);
      }
    });
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => {
      lines.push({ step: "exit", ms: Date.now() - started });
      void sending.then(() => resolve({ code, lines, output }));
    });
  });
}

const step = (lines: Record<string, unknown>[], name: string) => lines.find((l) => l.step === name);

describe("one integration, unchanged against the mock and the server", () => {
  it("runs against the mock, receiving a signed example webhook from npm run mock:webhook", async () => {
    const port = await freePort();
    const mock = run(path.join(ROOT, "tools/mock.ts"), ["-p", String(port)], {});
    try {
      await waitFor(
        async () =>
          (await fetch(`http://127.0.0.1:${port}/2015-01-01/events`, { headers: { authorization: "Basic TS1hOmI=" } }))
            .status === 200,
        mock,
      );
      let sent = "";
      const result = await integrate(`http://127.0.0.1:${port}/2015-01-01`, async (url) => {
        const r = await exec(
          process.execPath,
          ["--import", "tsx", path.join(ROOT, "tools/mock-webhook.ts"), url, "webhook.test"],
          { cwd: ROOT },
        );
        sent = r.stdout;
      });
      expect(result.code, result.output).toBe(0);
      expect(sent).toMatch(/^webhook\.test [0-9a-f]{24} -> http:\/\/127\.0\.0\.1:\d+\/hooks\/logistics: HTTP 204/);
      // The mock's story holds together: the id the create returns is the one the read shows.
      expect(step(result.lines, "read")!.shipment_id).toBe(step(result.lines, "created")!.shipment_id);
      expect(step(result.lines, "webhook")).toMatchObject({ event_type: "webhook.test", verified: true });
      expect(step(result.lines, "summary")).toMatchObject({ ok: true });
    } finally {
      mock.child.kill("SIGTERM");
      await mock.exited;
    }
  });

  describe("against the server", () => {
    let server: Proc;
    let origin: string;
    let dataDir: string;
    beforeAll(async () => {
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      // In a folder of its own: the server keeps its main key and control socket beside the data directory.
      dataDir = path.join(mkdtempSync(path.join(tmpdir(), "logistics-integrator-db-")), "db");
      // As the README says: a local receiver needs WEBHOOK_ALLOW_PRIVATE_NETWORKS=true.
      server = run(SERVER_MAIN, [], {
        PORT: String(port),
        HOST: "127.0.0.1",
        PGLITE_DIR: dataDir,
        DATABASE_URL: "",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        LOG_LEVEL: "warn",
      });
      await waitReady(origin, server, 60_000);
    }, 90_000);
    afterAll(async () => {
      server?.child.kill("SIGTERM");
      await server?.exited;
      if (dataDir) rmSync(path.dirname(dataDir), { recursive: true, force: true });
    });

    it("runs the same script with only the base URL changed, receiving and verifying a real webhook", async () => {
      const result = await integrate(`${origin}/2015-01-01`);
      expect(result.code, result.output).toBe(0);
      const created = step(result.lines, "created")!;
      expect(created.shipment_id).toMatch(/^[0-9a-f]{24}$/);
      expect(step(result.lines, "read")).toMatchObject({
        shipment_id: created.shipment_id,
        status: "initial",
        products: [["SKU-1001", 10, 0]],
      });
      expect(step(result.lines, "shipping_options")).toMatchObject({ home: true });
      expect(step(result.lines, "shipping_options")!.pickup_points).toBeGreaterThan(0);
      expect(step(result.lines, "webhook")).toMatchObject({ event_type: "webhook.test", verified: true });
      expect(step(result.lines, "summary")).toMatchObject({ ok: true });
    });

    it("runs in a browser: the main entry bundles for the browser and calls the service from a page", async () => {
      const entry = path.join(project, "browser-entry.js");
      writeFileSync(
        entry,
        `
import { createLogisticsClient, unwrap, paginate } from "@logistics-api/client";
const client = createLogisticsClient({ baseUrl: location.origin + "/2015-01-01", username: "M-demo.example.com", secret: "demo-secret-change-me", retries: 1 });
const created = await unwrap(client.POST("/inbound_shipments/_create", { body: { merchants_ref: "BROWSER-1", sender_name: "Acme Supplies Oy", products: [{ merchants_id: "SKU-1", name: "Mug", qty: 2 }] } }));
const read = await unwrap(client.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: created.shipment_id } } }));
let listed = 0;
for await (const s of paginate(client, "/inbound_shipments", { params: { query: { limit: 1 } } })) listed += s.id ? 1 : 0;
document.body.dataset.result = JSON.stringify({ id: read.id, ref: read.merchants_ref, listed });
`,
      );
      const esbuild = path.join(ROOT, "node_modules/esbuild/bin/esbuild");
      // platform=browser: a Node built-in anywhere in the main entry's graph fails the build.
      const built = await exec(
        esbuild,
        [entry, "--bundle", "--format=esm", "--platform=browser", "--target=es2022", "--log-level=error"],
        { cwd: project, maxBuffer: 16 * 1024 * 1024 },
      );
      const bundle = built.stdout;
      expect(bundle).not.toMatch(/from\s*["']node:|require\(["']node:/);

      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("console", (m) => void (m.type() === "error" && errors.push(m.text())));
        page.on("pageerror", (e) => errors.push(e.message));
        // The page and its script are served at the service's origin, so the calls are same-origin.
        await page.route(`${origin}/__integrator/**`, (route) => {
          const url = new URL(route.request().url());
          if (url.pathname.endsWith(".js")) return route.fulfill({ contentType: "text/javascript", body: bundle });
          return route.fulfill({
            contentType: "text/html",
            body: `<!doctype html><title>client check</title><body><script type="module" src="/__integrator/app.js"></script></body>`,
          });
        });
        await page.goto(`${origin}/__integrator/index.html`);
        await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 15_000 });
        const result = JSON.parse((await page.evaluate(() => document.body.dataset.result))!);
        expect(result).toMatchObject({ ref: "BROWSER-1" });
        expect(result.id).toMatch(/^[0-9a-f]{24}$/);
        expect(result.listed).toBeGreaterThanOrEqual(1);
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  });
});

async function waitFor(
  check: () => Promise<boolean>,
  proc: { child: ChildProcess; output(): string },
  timeoutMs = 30_000,
) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`exited early:\n${proc.output()}`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready in time:\n${proc.output()}`);
}
