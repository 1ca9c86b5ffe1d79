// `npm start` and the operator CLI as an operator uses them, on the embedded database.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { inject } from "vitest";
import { createLogisticsClient } from "../../client/index.ts";
import { DEMO } from "../../server/demo.ts";
import { recordInputs, upToDate } from "../../tools/build-inputs.mjs";
import { cli, freePort, run, SERVER_MAIN, waitReady } from "./helpers.ts";

// Each test starts several processes that each open the embedded database: generous on a busy machine.
const PROCESS_TEST_TIMEOUT = 120_000;

let dir: string;
let env: Record<string, string>;
// `npm start` builds what changed, then runs the compiled server in the same process: the first test runs exactly that.
const START = JSON.parse(readFileSync("package.json", "utf8")).scripts.start as string;
const START_ENTRY = /^exec node (?:--\S+ )*(tools\/start\.mjs)$/.exec(START)?.[1];
// The build bundles the server, builds the portal and (when client/ changed) compiles and packs the client.
beforeAll(() => {
  execFileSync("npm", ["run", "--silent", "build"], { stdio: "pipe" });
  dir = mkdtempSync(path.join(tmpdir(), "logistics-proc-"));
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  env = { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" };
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npm start's build", () => {
  it("builds nothing when nothing changed since the last build: the bundle and the portal are left as they are", () => {
    const stamp = () => [statSync("dist/server/main.js").mtimeMs, statSync("dist/portal/index.html").mtimeMs];
    const before = stamp();
    const t0 = performance.now();
    const out = execFileSync(process.execPath, ["tools/build.mjs", "--if-changed"], { encoding: "utf8" });
    expect(stamp()).toEqual(before);
    expect(out).not.toMatch(/built in|dist\/portal/);
    // Hashing the inputs only (a build is seconds).
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it("sees a changed input: a file whose hash differs from the one recorded", () => {
    const scratch = mkdtempSync(path.join(".tmp", "build-inputs-"));
    try {
      const input = path.join(scratch, "input.ts");
      const output = path.join(scratch, "out.js");
      const manifest = path.join(scratch, "inputs.json");
      writeFileSync(input, "export const a = 1;");
      writeFileSync(output, "built");
      recordInputs(manifest, [input]);
      expect(upToDate(manifest, output)).toBe(true);
      writeFileSync(input, "export const a = 2;");
      expect(upToDate(manifest, output)).toBe(false);
      writeFileSync(input, "export const a = 1;");
      expect(upToDate(manifest, output)).toBe(true);
      rmSync(output);
      expect(upToDate(manifest, output)).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("takes a file whose size and time are as recorded as unchanged, and sees a change of the same size", () => {
    const scratch = mkdtempSync(path.join(".tmp", "build-inputs-"));
    try {
      const input = path.join(scratch, "input.ts");
      const output = path.join(scratch, "out.js");
      const manifest = path.join(scratch, "inputs.json");
      const stamp = () =>
        (JSON.parse(readFileSync(manifest, "utf8")) as { stamps?: Record<string, string> }).stamps?.[input];
      writeFileSync(input, "export const a = 1;");
      writeFileSync(output, "built");
      recordInputs(manifest, [input]);
      // Changed just now: no stamp (a change within the same clock tick could keep it), so its hash decides.
      expect(stamp()).toBeUndefined();
      const past = new Date(Date.now() - 60_000);
      utimesSync(input, past, past);
      // A manifest without a stamp (or an older one): the hash decides, and the stamp is recorded for the next check.
      expect(upToDate(manifest, output)).toBe(true);
      expect(stamp()).toMatch(/^19:\d/);
      expect(upToDate(manifest, output)).toBe(true);
      writeFileSync(input, "export const a = 2;");
      expect(upToDate(manifest, output)).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("npm start as a supervisor runs it", () => {
  it(
    "stops with npm: a SIGTERM to npm ends the server, which leaves the port and the embedded directory free",
    async () => {
      // The script is exec'd: without it, npm's shell stayed between npm and node, and a SIGTERM to npm left the
      // server running and holding the directory (the start benchmark's next start found it in use).
      expect(START).toMatch(/^exec node /);
      const db = path.join(dir, "npm-start-db");
      cpSync(inject("pgliteTemplate"), db, { recursive: true });
      const port = await freePort();
      const npm = spawn("npm", ["start"], {
        env: { ...process.env, ...env, PGLITE_DIR: db, PORT: String(port), LOG_LEVEL: "warn" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      npm.stdout.on("data", (d: Buffer) => (output += d.toString()));
      npm.stderr.on("data", (d: Buffer) => (output += d.toString()));
      const exited = new Promise<void>((resolve) => npm.on("exit", () => resolve()));
      onTestFinished(() => {
        if (npm.exitCode === null) npm.kill("SIGKILL");
      });
      // /readyz's status, 0 while nothing answers.
      const readyz = () =>
        fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
      await expect.poll(readyz, { timeout: 60_000 }).toBe(200);
      npm.kill("SIGTERM");
      await exited;
      // Nothing answers any more, and the directory opens again (a server still holding it would refuse).
      await expect.poll(readyz, { timeout: 10_000 }).toBe(0);
      const again = await cli(["merchant", "create", "after-npm.example.com", "--secret", "after-npm-secret-1"], {
        ...env,
        PGLITE_DIR: db,
      });
      expect(again.code, `${again.output}\n${output}`).toBe(0);
    },
    PROCESS_TEST_TIMEOUT,
  );
});

describe("npm start and the CLI (PGlite)", () => {
  it(
    "npm start runs compiled JavaScript: seeds the demo, prints a working example, refuses a second process, and stops cleanly on SIGTERM",
    async () => {
      expect(START_ENTRY).toBe("tools/start.mjs");
      const port = await freePort();
      const server = run(START_ENTRY!, [], { ...env, PORT: String(port) });
      const origin = `http://127.0.0.1:${port}`;
      // A failed assertion must not leave it holding the directory: the next test's CLI would find it in use.
      onTestFinished(async () => {
        if (server.child.exitCode !== null || server.child.signalCode !== null) return;
        server.child.kill("SIGKILL");
        await server.exited;
      });
      await waitReady(origin, server);
      await expect.poll(() => server.output()).toContain("Demo data seeded.");
      // On loopback the start says how a developer's local webhook receiver can be allowed. The log line and the
      // example are two writers to one pipe (pino's and console.log's), so either may come out first.
      await expect
        .poll(() => server.output())
        .toContain("set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to receive them locally");
      expect(server.output()).toContain(`curl -s -u 'M-${DEMO.merchantId}:${DEMO.merchantSecret}'`);
      expect(server.output()).toContain(`${origin}/2015-01-01/inbound_shipments/_create`);
      // The build packed the client package, which the server offers for download.
      const { client } = (await (await fetch(origin)).json()) as { client: string };
      expect((await fetch(origin + client, { method: "HEAD" })).status).toBe(200);

      const demo = createLogisticsClient({
        baseUrl: `${origin}/2015-01-01`,
        username: `M-${DEMO.merchantId}`,
        secret: DEMO.merchantSecret,
      });
      const created = await demo.POST("/inbound_shipments/_create", {
        body: { merchants_ref: "PO-1", sender_name: "A", products: [{ merchants_id: "S", qty: 1 }] },
      });
      expect(created.response.status).toBe(201);
      // The README's shipping options example: the demo directory and prices are seeded too.
      expect(server.output()).toContain(`${origin}/2015-01-01/shipping_options?postalcode=20780&country=FI`);
      const options = await demo.GET("/shipping_options", {
        params: { query: { postalcode: "20780", country: "FI" } },
      });
      expect(options.data!.options.home).toEqual({
        available: true,
        price: { gross: 5.9, currency: "EUR", tax: 25.5 },
      });
      const points = Object.values(
        (
          options.data!.options.pickup as {
            pickup_points: Record<string, { postalcode: string; price: { gross: number } }>;
          }
        ).pickup_points,
      );
      expect(points).toHaveLength(10);
      expect(points[0]).toMatchObject({ postalcode: "20780", price: { gross: 3.9 } });

      const second = await cli(["migrate"], env);
      expect(second.code).toBe(1);
      expect(second.output).toMatch(/in use by process \d+/);

      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain("stopped");
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    "creates merchants and operators, prints generated secrets once, and the accounts work",
    async () => {
      const made = await cli(["merchant", "create", "shop.example.com"], env);
      expect(made.code).toBe(0);
      const secret = /Secret \(shown once, store it now\): (\S+)/.exec(made.output)?.[1];
      expect(secret).toBeDefined();
      const op = await cli(["operator", "create", "dock-1", "--secret", "a-long-enough-secret"], env);
      expect(op.code).toBe(0);
      expect(op.output).toContain("Username: W-dock-1");
      expect(op.output).not.toContain("Secret (shown once");
      expect((await cli(["operator", "create", "dock-2", "--secret", "short"], env)).code).toBe(1);
      expect((await cli(["merchant", "create", "bad id!"], env)).output).toContain("not a valid id");
      expect((await cli(["migrate"], env)).output).toContain("nothing to apply");

      const port = await freePort();
      const server = run(SERVER_MAIN, [], { ...env, PORT: String(port) });
      const origin = `http://127.0.0.1:${port}`;
      try {
        await waitReady(origin, server);
        // Every start prints where things are, not only the first: the demo merchant is still there, so its example too.
        await expect.poll(() => server.output()).toContain(`Logistics API: ${origin}/2015-01-01\n`);
        for (const line of [
          `Docs: ${origin}/docs`,
          `Merchant portal: ${origin}/portal/`,
          `Warehouse station: ${origin}/station`,
          "Demo data (from the first start):",
          `${origin}/2015-01-01/shipping_options?postalcode=20780&country=FI`,
        ])
          expect(server.output()).toContain(line);
        expect(server.output()).not.toContain("Demo data seeded."); // not an empty database any more
        const shop = createLogisticsClient({ baseUrl: `${origin}/2015-01-01`, username: "M-shop.example.com", secret });
        expect((await shop.GET("/inbound_shipments")).response.status).toBe(200);
        const dock = createLogisticsClient({
          baseUrl: `${origin}/2015-01-01`,
          username: "W-dock-1",
          secret: "a-long-enough-secret",
        });
        expect((await dock.GET("/inbound_shipments")).response.status).toBe(403);
      } finally {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    "refuses bad configuration with one message per problem",
    async () => {
      const bad = run(SERVER_MAIN, [], { ...env, PORT: "eighty", LOG_LEVEL: "loud" });
      expect(await bad.exited).toBe(2);
      expect(bad.output()).toMatch(/PORT must be a whole number 0-65535, got "eighty"[\s\S]*LOG_LEVEL must be one of/);
    },
    PROCESS_TEST_TIMEOUT,
  );

  // The test runs as root (chmod would not stop it), so read-only and full file systems are tmpfs mounts.
  it(
    "a read-only, full or locked data directory: one clear line and a non-zero exit, never a stack trace",
    async () => {
      const mounts: string[] = [];
      const mount = (name: string, options: string) => {
        const at = path.join(dir, name);
        mkdirSync(at);
        execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", at]);
        mounts.push(at);
        return at;
      };
      const locked = path.join(dir, "locked");
      // Another live process holds it: this test runner's own pid.
      cpSync(inject("pgliteTemplate"), locked, { recursive: true });
      writeFileSync(`${locked}.lock`, String(process.pid));
      try {
        const cases: [string, RegExp][] = [
          [path.join(mount("ro", "size=4m,ro"), "db"), /: its file system is read-only \(EROFS\)\. Set PGLITE_DIR/],
          // Less than the 32 MB a start needs: refused before PGlite writes anything.
          [
            path.join(mount("small", "size=8m"), "db"),
            /: its file system is full \(only \d+\.\d MB free; at least 32 MB needed\)\./,
          ],
          // Enough to pass that check, too little for a new database (about 40 MB): PGlite's own error, explained.
          [path.join(mount("full", "size=36m"), "db"), /: its file system is full \(ENOSPC\)\./],
          [locked, /is in use by process \d+\. Stop it first, or set DATABASE_URL/],
        ];
        for (const [pgliteDir, message] of cases) {
          const p = run(SERVER_MAIN, [], { ...env, PGLITE_DIR: pgliteDir, PORT: "0", SEED_DEMO: "false" });
          expect(await p.exited, p.output()).toBe(1);
          const lines = p.output().trim().split("\n");
          expect(lines, p.output()).toHaveLength(1);
          expect(lines[0]).toMatch(/^(Cannot open the embedded database in |The embedded database )/);
          expect(lines[0]).toMatch(message);
        }
      } finally {
        for (const at of mounts) execFileSync("umount", [at]);
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});
