// The built server runs as a script with V8's code cache of it beside it (server/server-script.ts): a start without
// a usable cache writes one once it listens, the next start uses it, and a cache that is not this script's, torn,
// changed or garbage is ignored: the server starts and answers as without one, and writes a good one.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inject } from "vitest";
import { cacheFileOf, keyOf, readCache } from "../../server/server-script.ts";
import { SERVER_MAIN, startServerProcess } from "./helpers.ts";

const TIMEOUT = 120_000;
// Inside the repository: the server finds generated/openapi.json above its files.
const root = path.resolve(".tmp", `code-cache-${process.pid}`);
const server = path.join(root, "server");
const script = path.join(server, "server-script.js");
const cacheFile = cacheFileOf(script);
let env: Record<string, string>;

beforeAll(() => {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  // This test's own copy of the test build: the shared one's cache is written by every other test's servers.
  cpSync(path.dirname(SERVER_MAIN), server, { recursive: true, filter: (f) => !/v8-cache/.test(f) });
  cpSync(inject("pgliteTemplate"), path.join(root, "db"), { recursive: true });
  env = { PGLITE_DIR: path.join(root, "db"), DATABASE_URL: "", LOG_LEVEL: "info" };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Starts the copy, checks that it answers, stops it; the "listening" line's code_cache. */
async function start(): Promise<string> {
  const s = await startServerProcess(env, undefined, path.join(server, "main.js"));
  try {
    const ready = await fetch(`${s.origin}/readyz`);
    expect(ready.status).toBe(200);
    // The API itself, through its pipeline: no credentials, 401.
    const r = await fetch(`${s.origin}/2015-01-01/inbound_shipments`);
    expect(r.status).toBe(401);
    expect(((await r.json()) as { code: string }).code).toBe("unauthorized");
    const line = s.proc
      .output()
      .split("\n")
      .find((l) => l.includes('"msg":"listening"'));
    return (JSON.parse(line!) as { startup: { code_cache: string } }).startup.code_cache;
  } finally {
    expect(await s.stop()).toBe(0);
  }
}

/** Starts the copy and waits until it has written a cache (a second after it listens). */
async function startAndWrite(): Promise<string> {
  const before = existsSync(cacheFile) ? statSync(cacheFile).mtimeMs : 0;
  const s = await startServerProcess(env, undefined, path.join(server, "main.js"));
  try {
    const until = Date.now() + 30_000;
    while (!(existsSync(cacheFile) && statSync(cacheFile).mtimeMs !== before) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    expect(statSync(cacheFile).mtimeMs).not.toBe(before);
  } finally {
    expect(await s.stop()).toBe(0);
  }
  // Written whole, under its key: the next start can use it, and no temporary file is left.
  expect(readdirSync(server).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  return keyLine();
}

/** The key this script's cache must carry, and the one the cache file carries. */
const key = () => keyOf(readFileSync(script));
const keyLine = () => readFileSync(cacheFile, "latin1").split("\n")[0]!;

it(
  "a start without a cache writes one once it listens, and the next start uses it",
  async () => {
    await startAndWrite();
    expect(keyLine()).toBe(key());
    expect(keyLine()).toMatch(new RegExp(`^logistics-api v8 code cache 1 [0-9a-f]{64} ${process.version} `));
    expect(await start()).toBe("used");
  },
  TIMEOUT,
);

it(
  "a cache changed after it was written (a byte of its data) is ignored: the server answers, and writes a good one",
  async () => {
    const good = readFileSync(cacheFile);
    const bad = Buffer.from(good);
    const at = bad.length - 100;
    bad.writeUInt8(bad.readUInt8(at) ^ 0xff, at);
    writeFileSync(cacheFile, bad);
    expect(readCache(cacheFile, key())).toBeUndefined();
    expect(await start()).toBe("none");
    // That start may have written a good one already, if it ran a second after it listened.
    rmSync(cacheFile);
    await startAndWrite();
    expect(readCache(cacheFile, key())).toBeDefined();
    expect(await start()).toBe("used");
  },
  TIMEOUT,
);

it(
  "garbage, a cut file, another build's or another node's cache are ignored",
  async () => {
    const good = readFileSync(cacheFile);
    const foreignBuild = key().replace(/ [0-9a-f]{64} /, ` ${"0".repeat(64)} `);
    const foreignNode = key().replace(process.version, "v18.0.0");
    const variants: [string, Buffer][] = [
      ["garbage", Buffer.from("not a cache at all\n".repeat(1000))],
      ["empty", Buffer.alloc(0)],
      ["cut", good.subarray(0, good.length / 2)],
      ["another build's", Buffer.concat([Buffer.from(foreignBuild, "latin1"), good.subarray(key().length)])],
      ["another node's", Buffer.concat([Buffer.from(foreignNode, "latin1"), good.subarray(key().length)])],
    ];
    for (const [, bytes] of variants) {
      writeFileSync(cacheFile, bytes);
      expect(await start()).toBe("none");
    }
  },
  TIMEOUT,
);

it(
  "a cache that passes the header's checks but is not this script's is rejected by V8 itself, and the server answers",
  async () => {
    // Another script's cache, under this script's key and with its own data's hash: only V8's check is left.
    const data = new vm.Script("(function () { return { other: true }; })").createCachedData();
    const sha256 = createHash("sha256").update(data).digest("hex");
    writeFileSync(cacheFile, Buffer.concat([Buffer.from(`${key()}\n${sha256}\n`, "latin1"), data]));
    expect(readCache(cacheFile, key())).toBeDefined();
    expect(await start()).toBe("rejected");
    rmSync(cacheFile);
    await startAndWrite();
    expect(await start()).toBe("used");
  },
  TIMEOUT,
);
