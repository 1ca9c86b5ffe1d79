// Upgrading over 0020 (issue 55), expand then contract, on the engine this project runs on: the secrets the release
// before stored plain are encrypted at the first start (their plain copies kept while that release may still run),
// deliveries stay signed and the quote key keeps signing; the contract step refuses while a plain secret has no
// encrypted copy, then drops the plain columns, after which no table holds them (pg_dump; every row of every table
// on the embedded database, whose backup copies its files: its write-ahead log still holds what was written plain
// before, until it is overwritten, which docs/secrets.md says).
import { execFileSync } from "node:child_process";
import { generateKeyPairSync, randomBytes, randomUUID, verify } from "node:crypto";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { MIGRATIONS } from "../../server/db/migrations/index.ts";
import { migrateToLatest } from "../../server/db/migrate.ts";
import { prepareSecretsAtRest } from "../../server/secrets/at-rest.ts";
import { MainKeys } from "../../server/secrets/main-keys.ts";
import { newId } from "../../server/shared/ids.ts";
import { generateWebhookSecret } from "../../server/webhooks/signing.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const MERCHANT = "upgrade.example.com";
const SECRET = `secret-${randomUUID()}`;
const KEYS = new MainKeys(randomBytes(32));

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
let rx: Receiver;
let srv: TestServer | undefined;

interface PlainEndpoint {
  id: string;
  secret: string;
  password: string;
  path: string;
}

/** An endpoint as the release before stores it: its secret and Basic password plain. */
async function plainEndpoint(path: string): Promise<PlainEndpoint> {
  const e = { id: newId(Date.now()), secret: generateWebhookSecret(), password: `pw-${randomUUID()}`, path };
  await sql`insert into webhook_endpoints (id, merchant_id, url, event_types, secret, basic_username, basic_password)
    values (${e.id}, ${MERCHANT}, ${rx.url(path)}, ${["webhook.test"]}, ${e.secret}, 'erp', ${e.password})`.execute(
    handle.db,
  );
  return e;
}

const quoteKey = generateKeyPairSync("ed25519");
const QUOTE_KEY_ID = newId(Date.now() - 60_000);
const quotePem = quoteKey.privateKey.export({ format: "pem", type: "pkcs8" }).toString();

let before: PlainEndpoint;

async function start(): Promise<TestServer> {
  await srv?.close();
  srv = await startTestServer({
    database: handle,
    keys: KEYS,
    dispatcher: { pollMs: 100 },
    webhooks: { allowPrivateNetworks: true, retrySchedule: [0.1, 0.2] },
  });
  return srv;
}

async function expectSigned(e: PlainEndpoint): Promise<void> {
  const m = srv!.client(`M-${MERCHANT}`, SECRET);
  const n = rx.received.filter((r) => r.path === e.path).length;
  const sent = await m.POST("/webhook_endpoints/{webhook_id}/_test", { params: { path: { webhook_id: e.id } } });
  expect(sent.response.status).toBe(202);
  const got = (await rx.waitFor(n + 1, { path: e.path, timeoutMs: 30_000 })).at(-1)!;
  expect(verifyWebhook(e.secret, got.headers, got.body)).toMatchObject({ event_type: "webhook.test" });
  expect(got.headers.authorization).toBe(`Basic ${Buffer.from(`erp:${e.password}`).toString("base64")}`);
}

async function expectQuoteKeySigns(): Promise<void> {
  const signer = await srv!.quoter.keys.current();
  expect(signer.kid).toBe(QUOTE_KEY_ID);
  const text = Buffer.from("header.payload");
  expect(verify(null, text, quoteKey.publicKey, signer.sign(text))).toBe(true);
}

const hasColumn = async (table: string, column: string) =>
  (
    await sql<{ n: string }>`select count(*) as n from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(handle.db)
  ).rows[0]!.n === "1";

beforeAll(async () => {
  rx = await startReceiver();
  // The schema the release before 0020 leaves, with what it stored.
  handle = await createTestDatabase({ empty: true });
  const provider = { getMigrations: async () => MIGRATIONS };
  const { error } = await new Migrator({ db: handle.db, provider }).migrateTo("0019_delivery_dates");
  if (error) throw new Error("migrating to the release before failed", { cause: error });
  await provisionAccount(handle.db, "merchant", MERCHANT, SECRET);
  before = await plainEndpoint("/before");
  await sql`insert into quote_signing_keys (id, private_key, public_x, active_from)
    values (${QUOTE_KEY_ID}, ${quotePem}, ${quoteKey.publicKey.export({ format: "jwk" }).x!}, now() - interval '1 minute')`.execute(
    handle.db,
  );
});
afterAll(async () => {
  await srv?.close();
  await rx?.close();
  await handle?.close();
});

it("the first start encrypts what the release before stored plain and keeps its copies for that release; deliveries and quotes go on", async () => {
  const expand = await migrateToLatest(handle.db);
  // 0020 and whatever expand migrations came after it.
  expect(expand.applied[0]).toBe("0020_sealed_secrets");
  expect(expand.pendingContract).toContain("0020_sealed_secrets");
  await start();
  const row = await sql<{ secret: string; secret_sealed: string | null; basic_password_sealed: string | null }>`
    select secret, secret_sealed, basic_password_sealed from webhook_endpoints where id = ${before.id}`.execute(
    handle.db,
  );
  // The release before may still be running: it reads the plain column, which stays until the contract step.
  expect(row.rows[0]).toMatchObject({ secret: before.secret, secret_sealed: expect.stringMatching(/^v1\./) });
  expect(row.rows[0]!.basic_password_sealed).toMatch(/^v1\./);
  await expectSigned(before);
  await expectQuoteKeySigns();
});

it("the contract step refuses while a plain secret has no encrypted copy, changing nothing; after `migrate --contract` encrypts it, no table holds them plain", async () => {
  // The release before, still running, registers an endpoint after this release's start.
  const late = await plainEndpoint("/late");
  await expect(migrateToLatest(handle.db, { contract: true })).rejects.toThrow(
    "1 stored secrets are not encrypted yet",
  );
  expect(await hasColumn("webhook_endpoints", "secret")).toBe(true);

  // What `npm run cli -- migrate --contract` does: encrypt what is plain, then contract.
  expect(await prepareSecretsAtRest(handle.db, KEYS)).toEqual({ sealed: 2 });
  const contract = await migrateToLatest(handle.db, { contract: true });
  expect(contract.contracted).toContain("0020_sealed_secrets");
  for (const [table, column] of [
    ["webhook_endpoints", "secret"],
    ["webhook_endpoints", "previous_secret"],
    ["webhook_endpoints", "basic_password"],
    ["quote_signing_keys", "private_key"],
  ] as const)
    expect(await hasColumn(table, column), `${table}.${column}`).toBe(false);

  await start();
  await expectSigned(before);
  await expectSigned(late);
  await expectQuoteKeySigns();

  const dump =
    handle.kind === "postgres"
      ? execFileSync("pg_dump", ["--no-owner", handle.url!], { maxBuffer: 1 << 30 })
      : Buffer.from(JSON.stringify(await srv!.snapshot()));
  expect(dump.includes(rx.url("/late"))).toBe(true);
  const seed = quoteKey.privateKey.export({ format: "der", type: "pkcs8" }).subarray(-32);
  const plain = [before.secret, before.password, late.secret, late.password, quotePem, seed.toString("base64url")];
  expect(plain.filter((p) => dump.includes(p))).toEqual([]);
  expect(dump.includes(seed)).toBe(false);
});
