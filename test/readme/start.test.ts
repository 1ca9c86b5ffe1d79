// README "Start it", run as a newcomer would: every curl of the section, in order, against the server as
// `npm start` runs it on a fresh embedded database. Only the port changes (a free one instead of 3000), and an
// `ID=…   # yours` line takes the id the answer before it gave, as the reader is told to. Each answer the
// README shows must agree with the real one: every string and number it names is there (ids aside).
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { freePort, run, SERVER_MAIN, waitReady, type Proc } from "../process/helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Step {
  command: string;
  /** The answer the README shows after the command, if any. */
  shown?: string;
}

function steps(): Step[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Start it");
  const text = readme.slice(start, readme.indexOf("\n## ", start + 5));
  const blocks = [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({ lang, code: code! }));
  const out: Step[] = [];
  for (const b of blocks) {
    if (b.lang === "json" && out.length) out[out.length - 1]!.shown = b.code;
    else if (b.lang === "sh" && !/^npm ci/.test(b.code)) out.push({ command: b.code });
  }
  return out;
}

/** Every `"key":"text"` and `"key":number` the README shows, ids (24 hex characters) left out. */
function shownValues(shown: string): string[] {
  return [...shown.matchAll(/"[\w.]+":(?:"[^"]*"|-?\d+(?:\.\d+)?)/g)]
    .map(([m]) => m)
    .filter((m) => !/"[0-9a-f]{24}"$/.test(m));
}

/** The JSON objects in curl's output: `curl -s` ends an answer without a newline, so they may touch. */
function jsonValues(output: string): Record<string, unknown>[] {
  const values: Record<string, unknown>[] = [];
  let depth = 0;
  let from = -1;
  let inString = false;
  for (let i = 0; i < output.length; i++) {
    const c = output[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" && depth++ === 0) from = i;
    else if (c === "}" && --depth === 0) values.push(JSON.parse(output.slice(from, i + 1)) as Record<string, unknown>);
  }
  return values;
}

let dir: string;
let server: Proc;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "logistics-readme-start-"));
  // The migrated, empty template of the test set-up: a fresh database, without initialising PGlite anew.
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  const port = await freePort();
  server = run(SERVER_MAIN, [], {
    PORT: String(port),
    HOST: "127.0.0.1",
    PGLITE_DIR: path.join(dir, "db"),
    DATABASE_URL: "",
  });
  origin = `http://127.0.0.1:${port}`;
  await waitReady(origin, server, 90_000);
  for (let waited = 0; !server.output().includes("Demo data seeded."); waited += 200) {
    if (waited > 30_000) throw new Error(`no demo data seeded:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 120_000);
afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  rmSync(dir, { recursive: true, force: true });
});

it("every request of 'Start it' works as written and answers what the README shows", () => {
  const all = steps();
  expect(all.length).toBeGreaterThanOrEqual(3);
  let lastIds: string[] = [];
  for (const step of all) {
    let script = step.command.replaceAll("http://127.0.0.1:3000", origin);
    // "ID=…   # yours": the reader puts in the id the previous answer gave.
    script = script.replace(/^(\w+)=[0-9a-f]{24}(\s+#.*)?$/gm, (_m, name: string) => `${name}=${lastIds[0]}`);
    const output = execFileSync("bash", ["-c", `set -euo pipefail\n${script}`], { encoding: "utf8" });
    const answers = jsonValues(output);
    expect(answers.length, `${script}\n${output}`).toBeGreaterThan(0);
    for (const a of answers) expect(a.success, `${script}\n${JSON.stringify(a)}`).not.toBe(false);
    const ids = [...output.matchAll(/"(?:shipment_id|order_id)":"([0-9a-f]{24})"/g)].map((m) => m[1]!);
    if (ids.length) lastIds = ids;
    if (step.shown) {
      const compact = answers.map((a) => JSON.stringify(a)).join("\n");
      for (const value of shownValues(step.shown))
        expect(compact, `${script}: the README shows ${value}`).toContain(value);
    }
  }
});
