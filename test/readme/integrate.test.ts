// README "Integrate in 10 minutes" (and its end in docs/webhooks.md), run as a new integrator would: every snippet, in order,
// in an empty project outside this repository. Only ports change (free ones instead of 3000, 4010 and
// 8080), `../my-shop` is a temporary folder, and `npm start` runs the bundle the test set-up built from this
// checkout: the same code without the build into dist/, which the start test covers and two must not race on.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { freePort } from "../process/helpers.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

interface Block {
  lang: string;
  code: string;
  /** "repo" or "shop"; `background` for "in another terminal". */
  where: "repo" | "shop";
  background: boolean;
  /** For a JavaScript block: the file it is, relative to my-shop. */
  file?: string;
}

/** A section of a Markdown file, from its heading to the next of the same level. */
function sectionOf(file: string, heading: string): string {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(heading);
  expect(start, `${file} has ${heading}`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n## ", start + 5);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The README's walk and its end in docs/webhooks.md, as one. */
function section(): Block[] {
  const text =
    sectionOf("README.md", "## Integrate in 10 minutes") + sectionOf("docs/webhooks.md", "## Receive and catch up");
  return [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => {
    const first = code!.split("\n")[0]!;
    const file = /^\/\/ my-shop\/(\S+)$/.exec(first)?.[1];
    return {
      lang: lang!,
      code: code!,
      where: /my-shop/.test(first) ? "shop" : "repo",
      background: /another terminal/.test(first),
      ...(file && { file }),
    };
  });
}

const background: { name: string; child: ChildProcess; output: () => string }[] = [];
let shop: string;
let dataDir: string;
let ports: Record<string, string>;
let env: Record<string, string>;

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), "logistics-readme-"));
  shop = path.join(root, "my-shop");
  dataDir = path.join(root, "pglite");
  ports = { "3000": String(await freePort()), "4010": String(await freePort()), "8080": String(await freePort()) };
  // The server of this walk-through runs on its own embedded database, whatever the suite's DATABASE_URL.
  env = { ...(process.env as Record<string, string>), DATABASE_URL: "", TEST_DATABASE_URL: "" };
});
afterAll(async () => {
  for (const b of background) stop(b.child, "SIGTERM");
  const exited = (c: ChildProcess) =>
    new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once("exit", r)));
  const slow = await Promise.race([
    Promise.all(background.map((b) => exited(b.child))).then(() => []),
    new Promise<string[]>((r) =>
      setTimeout(
        () => r(background.filter((b) => b.child.exitCode === null && b.child.signalCode === null).map((b) => b.name)),
        15_000,
      ),
    ),
  ]);
  for (const b of background) stop(b.child, "SIGKILL");
  expect(slow, "still running 15 s after SIGTERM").toEqual([]);
  if (shop) rmSync(path.dirname(shop), { recursive: true, force: true });
});

function localize(code: string): string {
  let out = code.replaceAll("../my-shop", shop);
  for (const [from, to] of Object.entries(ports))
    out = out.replaceAll(`127.0.0.1:${from}`, `127.0.0.1:${to}`).replaceAll(`.listen(${from},`, `.listen(${to},`);
  return out;
}

/** Runs a shell block to its end; `export`s it makes stay for the next blocks, as in one terminal. */
async function shell(block: Block): Promise<string> {
  const envFile = path.join(path.dirname(shop), "env.json");
  const script = `set -euo pipefail\n${localize(block.code)}\nnode -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.env))' ${JSON.stringify(envFile)}\n`;
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("bash", ["-c", script], {
      cwd: block.where === "shop" ? shop : ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (c) => resolve({ code: c, output }));
  });
  expect(code, `${block.code}\n${output}`).toBe(0);
  env = JSON.parse(readFileSync(envFile, "utf8"));
  return output;
}

/** Starts an "in another terminal" block. */
function startBackground(block: Block) {
  let code = localize(block.code);
  if (/\bnpm start\b/.test(code)) {
    const port = ports["3000"]!;
    code = code.replace(
      /\bnpm start\b/,
      `PORT=${port} HOST=127.0.0.1 PGLITE_DIR=${dataDir} node ${inject("serverMain")}`,
    );
  }
  if (/\bnpm run mock\b/.test(code) && !/mock:webhook/.test(code))
    code = code.replace(/\bnpm run mock\b/, `npm run mock -- -p ${ports["4010"]}`);
  // Its own process group, so that stopping it stops what bash started (npm, node), as Ctrl-C would.
  const child = spawn("bash", ["-c", code], {
    cwd: block.where === "shop" ? shop : ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const entry = { name: code, child, output: () => output };
  background.push(entry);
  return entry;
}

function stop(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  proc?: { child: ChildProcess; output: () => string },
  ms = 60_000,
) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (proc && proc.child.exitCode !== null) throw new Error(`${what}: exited\n${proc.output()}`);
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not in time\n${proc?.output() ?? ""}`);
}

/** A TCP connection is accepted (without sending a request the receiver would log). */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => (socket.destroy(), resolve(true)));
    socket.on("error", () => resolve(false));
  });

const up = (port: string, p: string) => async () =>
  (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { authorization: `Basic ${btoa("M-a:b")}` } })).status < 500;

it("every snippet of 'Integrate in 10 minutes' works, in order", async () => {
  const blocks = section();
  expect(blocks.map((b) => (b.file ? `js ${b.file}` : `${b.lang} ${b.where}${b.background ? " bg" : ""}`))).toEqual([
    "sh repo",
    "sh repo bg",
    "js first-call.mjs",
    "sh shop",
    "sh repo bg",
    "sh shop",
    "js receiver.mjs",
    "sh shop bg",
    "sh repo",
    "js register.mjs",
    "sh shop",
    "sh shop",
    "js catch-up.mjs",
    "sh shop",
  ]);
  const [
    install,
    mock,
    firstCall,
    runOnMock,
    server,
    runOnServer,
    receiverJs,
    receiver,
    mockWebhook,
    registerJs,
    register,
    arrival,
    catchUpJs,
    catchUp,
  ] = blocks;
  const write = (b: Block) => writeFileSync(path.join(shop, b.file!), localize(b.code));

  await shell(install!);
  expect(JSON.parse(readFileSync(path.join(shop, "package.json"), "utf8")).dependencies).toHaveProperty(
    "@logistics-api/client",
  );

  const mockProc = startBackground(mock!);
  await until("the mock", up(ports["4010"]!, "/2015-01-01/events"), mockProc);
  write(firstCall!);
  const onMock = await shell(runOnMock!);
  expect(onMock).toMatch(/^shipment 569c9d3ab7e4f1a2c3d4e5f6 is initial; home delivery possible$/m);
  expect(onMock).toMatch(/^unknown shipment: 404 not_found$/m);

  const serverProc = startBackground(server!);
  await until(
    "the server",
    async () => (await fetch(`http://127.0.0.1:${ports["3000"]}/readyz`)).ok,
    serverProc,
    90_000,
  );
  const onServer = await shell(runOnServer!);
  expect(onServer).toMatch(/^shipment [0-9a-f]{24} is initial; home delivery possible$/m);
  expect(onServer).not.toContain("569c9d3ab7e4f1a2c3d4e5f6");
  // The same script, only the base URL changed: the same 404 as the mock's.
  expect(onServer).toMatch(/^unknown shipment: 404 not_found$/m);

  write(receiverJs!);
  const receiverProc = startBackground(receiver!);
  await until("the receiver", () => listening(Number(ports["8080"])), receiverProc);
  await shell(mockWebhook!);
  await until(
    "the mock's signed example",
    () => /^verified inbound_shipment\.items_arrived [0-9a-f]{24}$/m.test(receiverProc.output()),
    receiverProc,
    15_000,
  );

  write(registerJs!);
  expect(await shell(register!)).toMatch(/^endpoint [0-9a-f]{24} registered$/m);
  await until(
    "the server's test event",
    () => /^verified webhook\.test [0-9a-f]{24}$/m.test(receiverProc.output()),
    receiverProc,
    30_000,
  );
  expect(receiverProc.output()).not.toContain("refused");

  // "Stop the receiver (Ctrl-C)."
  stop(receiverProc.child, "SIGINT");
  await new Promise((r) => (receiverProc.child.exitCode !== null ? r(null) : receiverProc.child.once("exit", r)));
  expect((await shell(arrival!)).trim()).toBe("200");

  write(catchUpJs!);
  let caught = "";
  // The feed shows an event once its transaction and every older one have finished: poll like a poller.
  await until(
    "the missed events in the feed",
    async () => {
      caught += await shell(catchUp!);
      return /inbound_shipment\.items_arrived [0-9a-f]{24}/.test(caught);
    },
    undefined,
    20_000,
  );
  expect(caught).toMatch(/inbound_shipment\.status_changed [0-9a-f]{24}/);
  // The cursor was kept: a second run shows nothing it has already shown.
  expect((await shell(catchUp!)).trim()).toBe("");
}, 300_000);
