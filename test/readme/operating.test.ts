// docs/operating.md "Setting up a server", run as an operator would: every `npm run cli --` line of its block, in
// order, on an embedded database of its own instead of the PostgreSQL the page names, with small files in place
// of the GeoNames and carrier downloads it imports. Then the server starts on what the CLI made, and the merchant
// and the operator it created are let in with the secrets the CLI printed or was given.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { parseMainKey } from "../../server/secrets/main-keys.ts";
import { geonames, point } from "../helpers/shipping.ts";
import { cli, freePort, run, SERVER_MAIN, waitReady } from "../process/helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

function setupCommands(): string[] {
  const page = readFileSync(path.join(ROOT, "docs/operating.md"), "utf8");
  const start = page.indexOf("## Setting up a server");
  const section = page.slice(start, page.indexOf("\n## ", start + 5));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block.split("\n").filter((l) => l.startsWith("npm run cli -- "));
}

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "logistics-operating-"));
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  env = { ...(process.env as Record<string, string>), DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
  writeFileSync(path.join(dir, "FI.txt"), geonames("FI", "20780", 60.407, 22.369, "Kaarina") + "\n");
  const p = point({ name: "Kaarina point" });
  writeFileSync(
    path.join(dir, "pickup-points.csv"),
    "id,name,address,postalcode,city,country,coordinates,branch,location_info,carrier_info\n" +
      `${p.id},${p.name},${p.address},${p.postalcode},${p.city},${p.country},"${p.coordinates.join(",")}",${p.branch},,"${JSON.stringify(p.carrier_info).replaceAll('"', '""')}"\n`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("every CLI command of 'Setting up a server' works as written, and the server lets in what it created", async () => {
  const commands = setupCommands();
  expect(commands.map((c) => c.split(/\s+/)[4])).toEqual([
    "secrets",
    "migrate",
    "merchant",
    "operator",
    "postal-codes",
    "pickup-points",
  ]);
  const outputs: string[] = [];
  for (const command of commands) {
    // The downloads it names are the small files above.
    const line = command.replace(/ (FI\.txt|pickup-points\.csv)\b/, (_m, f: string) => ` ${path.join(dir, f)}`);
    outputs.push(execFileSync("bash", ["-c", line], { cwd: ROOT, env, encoding: "utf8" }));
  }
  // `secrets new-key` prints a main key and stores nothing (this run uses the embedded database's key file).
  expect(parseMainKey(outputs[0]!.trim().split("\n").at(-1)!), outputs[0]).toBeDefined();
  const merchantSecret = /secret[^\n]*?:\s*(\S+)/i.exec(outputs[2]!)?.[1];
  expect(merchantSecret, outputs[2]).toBeTruthy();
  expect(outputs[4]).toContain("1 postal codes: 1 new");
  expect(outputs[5]).toContain("1 pickup points: 1 new");

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
    expect(JSON.stringify(await merchant.json())).toContain("Kaarina point");
    const operator = await fetch(`${origin}/2015-01-01/inbound_shipments/000000000000000000000000/arrivals`, {
      method: "POST",
      headers: { ...basic("W-helsinki-dock-1", "a-long-secret"), "content-type": "application/json" },
      body: JSON.stringify({ arrivals: [{ merchants_id: "SKU-1", change: 1 }] }),
    });
    // Let in (not 401): the shipment does not exist.
    expect(operator.status).toBe(404);
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
