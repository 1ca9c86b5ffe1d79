// The main key through the real entry points (issue 55), on the engine this project runs on: production on
// PostgreSQL without SECRETS_MAIN_KEY does not start; `npm run cli -- secrets rotate` moves every stored secret to
// the new key; a start without the key they are under stops with a message naming it, never signs with garbage;
// the start with the new key alone delivers signed webhooks.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { openDatabase } from "../../server/db/database.ts";
import { keyIdOf, newMainKeyText } from "../../server/secrets/main-keys.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { cli, run, SERVER_MAIN, startServerProcess } from "./helpers.ts";

const OLD = newMainKeyText();
const NEW = newMainKeyText();
const idOf = (key: string) => keyIdOf(Buffer.from(key, "base64"));
const ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_RETRY_SCHEDULE: "0.1,0.2", SEED_DEMO: "false" };

let env: Record<string, string>;
let cleanup: () => Promise<void>;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  if (process.env.TEST_DB === "postgres") {
    const handle = await createTestDatabase();
    await provisionAccount(handle.db, "merchant", "keys.example.com", "keys-secret-1");
    env = { ...ENV, DATABASE_URL: handle.url! };
    cleanup = () => handle.close();
  } else {
    // PGlite belongs to one process: prepared here and closed, then handed to the server and the CLI in turn.
    const dir = mkdtempSync(path.join(tmpdir(), "logistics-keys-"));
    cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
    const handle = await openDatabase({ pgliteDir: path.join(dir, "db") });
    await provisionAccount(handle.db, "merchant", "keys.example.com", "keys-secret-1");
    await handle.close();
    env = { ...ENV, DATABASE_URL: "", PGLITE_DIR: path.join(dir, "db") };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(async () => {
  await rx?.close();
  await cleanup?.();
});

const PROCESS_TEST_TIMEOUT = 180_000;

it("on PostgreSQL in production, a start without SECRETS_MAIN_KEY stops at once and says what to set", async () => {
  const p = run(SERVER_MAIN, [], { DATABASE_URL: "postgres://127.0.0.1:1/none", NODE_ENV: "production", PORT: "0" });
  expect(await p.exited).toBe(2);
  expect(p.output()).toContain("SECRETS_MAIN_KEY is required with DATABASE_URL when NODE_ENV=production");
});

it(
  "after `secrets rotate`, a start with the old key alone stops naming the new key, and one with the new key alone delivers signed",
  async () => {
    const first = await startServerProcess({ ...env, SECRETS_MAIN_KEY: OLD, LOG_LEVEL: "info" });
    expect(first.proc.output()).toContain(
      `secrets are encrypted at rest under main key ${idOf(OLD)} from SECRETS_MAIN_KEY`,
    );
    expect(first.proc.output()).not.toContain(OLD);
    const ep = await first.client("M-keys.example.com", "keys-secret-1").POST("/webhook_endpoints/_create", {
      body: { url: rx.url("/keys"), event_types: ["webhook.test"] },
    });
    expect(ep.response.status).toBe(201);
    expect(await first.stop()).toBe(0);

    const rotate = await cli(["secrets", "rotate"], { ...env, SECRETS_MAIN_KEY: NEW, SECRETS_READ_KEYS: OLD });
    expect(rotate.output).toContain(`again under main key ${idOf(NEW)}.`);
    expect(rotate.output).toContain("No stored secret is under another key");
    expect(rotate.code).toBe(0);
    const status = await cli(["secrets", "status"], { ...env, SECRETS_MAIN_KEY: NEW });
    expect(status.output).toMatch(new RegExp(`\\d+ secrets under key ${idOf(NEW)} \\(the main key\\)`));
    expect(status.output).not.toContain(idOf(OLD));

    const refused = run(SERVER_MAIN, [], { ...env, SECRETS_MAIN_KEY: OLD, PORT: "0" });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(`under main key ${idOf(NEW)}`);
    expect(refused.output()).toContain("Set SECRETS_MAIN_KEY to the key they were encrypted with");

    const next = await startServerProcess({ ...env, SECRETS_MAIN_KEY: NEW });
    try {
      const m = next.client("M-keys.example.com", "keys-secret-1");
      const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", {
        params: { path: { webhook_id: ep.data!.id } },
      });
      expect(sent.response.status).toBe(202);
      const [got] = await rx.waitFor(1, { path: "/keys", timeoutMs: 30_000 });
      expect(verifyWebhook(ep.data!.secret, got!.headers, got!.body)).toMatchObject({ event_type: "webhook.test" });
    } finally {
      await next.stop();
    }
  },
  PROCESS_TEST_TIMEOUT,
);
