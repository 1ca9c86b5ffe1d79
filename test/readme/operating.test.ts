// docs/operating.md "Setting up a server", run as an operator would on a fresh clone: every `npm run cli --` line of
// its first block, in order, on an embedded database of its own instead of the PostgreSQL the page names, importing
// the repository's demo files it names. Then the server starts on what the CLI made; the merchant, its portal user
// and the operator it created are let in with the secrets the CLI printed or was given, and the page's second block
// (a price list, then shipping options) runs as written to a priced answer.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { parseMainKey } from "../../server/secrets/main-keys.ts";
import { cli, freePort, run, SERVER_MAIN, waitReady } from "../process/helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

function setupBlocks(): string[] {
  const page = readFileSync(path.join(ROOT, "docs/operating.md"), "utf8");
  const start = page.indexOf("## Setting up a server");
  const section = page.slice(start, page.indexOf("\n## ", start + 5));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}
const setupCommands = () =>
  setupBlocks()[0]!
    .split("\n")
    .filter((l) => l.startsWith("npm run cli -- "));

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "logistics-operating-"));
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  env = { ...(process.env as Record<string, string>), DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("'Setting up a server' works as written: the server lets in what the CLI created and prices shipping options", async () => {
  const commands = setupCommands();
  expect(commands.map((c) => c.split(/\s+/)[4])).toEqual([
    "secrets",
    "migrate",
    "merchant",
    "portal-user",
    "operator",
    "postal-codes",
    "pickup-points",
  ]);
  const outputs: string[] = [];
  for (const command of commands) {
    outputs.push(execFileSync("bash", ["-c", command], { cwd: ROOT, env, encoding: "utf8" }));
  }
  // `secrets new-key` prints a main key and stores nothing (this run uses the embedded database's key file).
  expect(parseMainKey(outputs[0]!.trim().split("\n").at(-1)!), outputs[0]).toBeDefined();
  const merchantSecret = /secret[^\n]*?:\s*(\S+)/i.exec(outputs[2]!)?.[1];
  expect(merchantSecret, outputs[2]).toBeTruthy();
  expect(outputs[3]).toContain("Created portal user anna@shop.example.com (admin) of merchant shop.example.com.");
  expect(outputs[5]).toMatch(/demo\/postal-codes\.txt: \d+ postal codes: \d+ new, 0 updated/);
  expect(outputs[6]).toMatch(/demo\/pickup-points\.json: \d+ pickup points: \d+ new, 0 updated/);

  const port = await freePort();
  const server = run(SERVER_MAIN, [], { ...env, PORT: String(port), HOST: "127.0.0.1", SEED_DEMO: "false" });
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitReady(origin, server, 60_000);
    const basic = (user: string, secret: string) => ({ authorization: `Basic ${btoa(`${user}:${secret}`)}` });
    const merchant = await fetch(`${origin}/2015-01-01/pickup_points/lookup?postalcode=20780&country=FI`, {
      headers: basic("M-shop.example.com", merchantSecret!),
    });
    expect(merchant.status).toBe(200);
    expect(JSON.stringify(await merchant.json())).toContain("K-Market Kaarina Oskari");
    const portalPassword = /--password '([^']+)'/.exec(commands[3]!)![1]!;
    const portal = await fetch(`${origin}/2015-01-01/portal_sessions/_create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "anna@shop.example.com", password: portalPassword }),
    });
    expect(portal.status).toBe(201);
    const operator = await fetch(`${origin}/2015-01-01/inbound_shipments/000000000000000000000000/arrivals`, {
      method: "POST",
      headers: { ...basic("W-helsinki-dock-1", "a-long-secret"), "content-type": "application/json" },
      body: JSON.stringify({ arrivals: [{ merchants_id: "SKU-1", change: 1 }] }),
    });
    // Let in (not 401): the shipment does not exist.
    expect(operator.status).toBe(404);

    // The second block: the secret put in as the reader is told, the server's address this run's.
    const script = setupBlocks()[1]!
      .replace(/^SECRET=\.\.\..*$/m, `SECRET='${merchantSecret}'`)
      .replaceAll("http://localhost:3000", origin);
    const output = execFileSync("bash", ["-c", `set -euo pipefail\n${script}`], { encoding: "utf8" });
    // `curl -s` ends an answer without a newline: the last answer is the last "{" from which the rest parses.
    const last = [...output.matchAll(/\{/g)]
      .map((m) => m.index)
      .find((i) => {
        try {
          return JSON.parse(output.slice(i)) !== undefined;
        } catch {
          return false;
        }
      });
    const options = JSON.parse(output.slice(last)) as {
      options: Record<string, { available: boolean; reason?: string; price?: unknown }>;
    };
    expect(options.options.home, output).toEqual({
      available: true,
      price: { gross: 5.9, currency: "EUR", tax: 25.5 },
    });
    expect(options.options.letter).toMatchObject({ available: false, reason: "merchant_disabled" });
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}, 240_000);

/** The command names listed under "Commands:" in a commander help text (its own `help` left out). */
function commandsOf(help: string): string[] {
  const list = help.split(/\nCommands:\n/)[1] ?? "";
  return [...list.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== "help");
}

it("the Operator CLI table lists every command the CLI has, and only those", async () => {
  const page = readFileSync(path.join(ROOT, "docs/operating.md"), "utf8");
  const start = page.indexOf("## Operator CLI");
  const table = page.slice(start, page.indexOf("\n## ", start + 5));
  // `| \`merchant create <merchant_id> [--secret S]\` | ...`: the words before the first argument or option.
  const documented = [...table.matchAll(/^\| `([a-z][\w-]*(?: [a-z][\w-]*)*)/gm)].map((m) => m[1]!);
  const top = await cli(["--help"], {});
  expect(top.code, top.output).toBe(0);
  const commands = await Promise.all(
    commandsOf(top.output).map(async (name) => {
      const help = await cli([name, "--help"], {});
      expect(help.code, help.output).toBe(0);
      const subs = commandsOf(help.output);
      return subs.length ? subs.map((sub) => `${name} ${sub}`) : [name];
    }),
  );
  expect(documented.sort()).toEqual(commands.flat().sort());
}, 60_000);
