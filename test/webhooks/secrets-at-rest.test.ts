// Secrets at rest (issue 55 item 1), on the engine this project runs on: a database dump (pg_dump) or the embedded
// database's backup holds no webhook secret, Basic password or quote signing key in any spelling; after a rotation
// of the main key and after a restart, deliveries are still signed and quotes still check; a process without the
// key the rows need does not start.
import { execFileSync } from "node:child_process";
import { createPrivateKey, randomBytes, randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { verifyQuote } from "../../client/quotes.ts";
import { verifyWebhook } from "../../client/webhooks.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { MainKeyMissing, resealAll, sealedByKey, sealedFor } from "../../server/secrets/at-rest.ts";
import { keyIdOf, MainKeys } from "../../server/secrets/main-keys.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { configure, list, order, orderLine, SETTINGS } from "../helpers/shipping.ts";

type S = components["schemas"];
type Handle = Awaited<ReturnType<typeof createTestDatabase>>;

const SHOP = "https://shop.secrets.example";
/** The merchant's Basic credentials, to sign in to each instance of the file's database. */
const MERCHANT: [string, string] = ["M-secrets.example.com", `secret-${randomUUID()}`];
const OLD_KEY = randomBytes(32);
const NEW_KEY = randomBytes(32);
const CART = { postalcode: "20780", country: "FI" as const, weight: 1200, cart_value: 59.8, item_count: 2 };

let handle: Handle;
let rx: Receiver;
let srv: TestServer | undefined;
let m: LogisticsClient;
let merchantId: string;
let publishableKey: string;
/** The endpoint registered before the rotation, its secret and Basic password as the merchant was given them. */
let ep: { id: string; secret: string; path: string };
const BASIC = `basic-${randomUUID()}`;
/** A quote a checkout page got before the rotation. */
let quoteBefore: string;
/** The endpoint's URL carries this marker: the dump holds it, which shows the grep reads the rows at all. */
const MARKER = `marker-${randomUUID()}`;

/** An instance on the file's database, with these keys, delivering webhooks to the loopback receiver. */
async function start(keys: MainKeys): Promise<TestServer> {
  return startTestServer({
    database: handle,
    keys,
    dispatcher: { pollMs: 100 },
    webhooks: { allowPrivateNetworks: true, retrySchedule: [0.1, 0.2] },
  });
}

async function restart(keys: MainKeys): Promise<TestServer> {
  await srv?.close();
  srv = undefined;
  srv = await start(keys);
  return srv;
}

/** What an operator's backup holds: pg_dump's text, or the embedded database's backup unpacked (its files' bytes). */
async function dump(): Promise<Buffer> {
  if (handle.kind === "postgres") return execFileSync("pg_dump", ["--no-owner", handle.url!], { maxBuffer: 1 << 30 });
  return gunzipSync(await handle.backup!());
}

/** Every spelling of the quote signing private keys' bytes: PEM, DER in base64, the 32-byte seed raw and encoded. */
async function signingKeySpellings(keys: MainKeys): Promise<[string, Buffer][]> {
  const rows = await handle.db.selectFrom("quote_signing_keys").select(["id", "private_key_sealed"]).execute();
  expect(rows.length).toBeGreaterThan(0);
  return rows.flatMap((r): [string, Buffer][] => {
    const pem = keys.open(r.private_key_sealed, sealedFor("quote_signing_keys", r.id));
    const der = createPrivateKey(pem).export({ format: "der", type: "pkcs8" });
    const seed = der.subarray(der.length - 32);
    return [
      [`signing key ${r.id} PEM`, Buffer.from(pem)],
      [`signing key ${r.id} DER`, der],
      [`signing key ${r.id} DER base64`, Buffer.from(der.toString("base64"))],
      [`signing key ${r.id} seed`, seed],
      [`signing key ${r.id} seed base64`, Buffer.from(seed.toString("base64"))],
      [`signing key ${r.id} seed base64url`, Buffer.from(seed.toString("base64url"))],
      [`signing key ${r.id} seed hex`, Buffer.from(seed.toString("hex"))],
    ];
  });
}

/** Every spelling of the endpoint's secret: as given, its base64 part, the 32 bytes it encodes; the Basic password. */
function webhookSecretSpellings(secret: string): [string, Buffer][] {
  const b64 = secret.slice("whsec_".length);
  return [
    ["endpoint secret", Buffer.from(secret)],
    ["endpoint secret base64 part", Buffer.from(b64)],
    ["endpoint secret bytes", Buffer.from(b64, "base64")],
    ["Basic password", Buffer.from(BASIC)],
  ];
}

async function expectNoSecretIn(bytes: Buffer, keys: MainKeys): Promise<void> {
  expect(bytes.includes(MARKER)).toBe(true);
  const spellings = [...webhookSecretSpellings(ep.secret), ...(await signingKeySpellings(keys))];
  expect(spellings.filter(([, s]) => bytes.includes(s)).map(([name]) => name)).toEqual([]);
}

async function quote(): Promise<string> {
  const page = createLogisticsClient({ baseUrl: srv!.baseUrl, publishableKey, headers: { Origin: SHOP } });
  const r = await page.GET("/shipping_options", { params: { query: CART } });
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  const home = r.data!.options.home as { available: true; quote: string };
  expect(home.available).toBe(true);
  return home.quote;
}

async function publishedKeys(): Promise<S["QuoteKeySet"]> {
  return (await (await fetch(`${srv!.baseUrl}/quote_keys`)).json()) as S["QuoteKeySet"];
}

/** A test event to the endpoint, as the receiver gets it: signed with the secret, with the Basic credentials. */
async function expectSignedDelivery(client: LogisticsClient, endpoint: { id: string; secret: string; path: string }) {
  const before = rx.received.filter((r) => r.path === endpoint.path).length;
  const sent = await client.POST("/webhook_endpoints/{webhook_id}/_test", {
    params: { path: { webhook_id: endpoint.id } },
  });
  expect(sent.response.status).toBe(202);
  const got = (await rx.waitFor(before + 1, { path: endpoint.path, timeoutMs: 30_000 })).at(-1)!;
  expect(verifyWebhook(endpoint.secret, got.headers, got.body)).toMatchObject({ event_type: "webhook.test" });
  expect(got.headers.authorization).toBe(`Basic ${Buffer.from(`erp:${BASIC}`).toString("base64")}`);
}

async function register(client: LogisticsClient, path: string) {
  const r = await client.POST("/webhook_endpoints/_create", {
    // With an Idempotency-Key: the answer, which shows the secret, is remembered for a retry.
    headers: { "Idempotency-Key": randomUUID() },
    body: {
      url: `${rx.url(path)}?${MARKER}`,
      event_types: ["webhook.test"],
      basic_auth: { username: "erp", password: BASIC },
    },
  });
  expect(r.response.status, JSON.stringify(r.error)).toBe(201);
  return { id: r.data!.id, secret: r.data!.secret, path };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  rx = await startReceiver();
  srv = await start(new MainKeys(OLD_KEY));
  await provisionAccount(handle.db, "merchant", "secrets.example.com", MERCHANT[1]);
  m = srv.client(...MERCHANT);
  await configure(m, { ...SETTINGS, letter: { enabled: false, max_weight_g: 2000 }, pickup: { enabled: false } }, [
    list("home"),
  ]);
  publishableKey = (await m.POST("/publishable_keys/_create", { body: { origins: [SHOP] } })).data!.key;
  ep = await register(m, "/before");
  quoteBefore = await quote();
  merchantId = (JSON.parse(Buffer.from(quoteBefore.split(".")[1]!, "base64url").toString()) as { merchant_id: string })
    .merchant_id;
});
afterAll(async () => {
  await srv?.close();
  await rx?.close();
  await handle?.close();
});

describe("secrets at rest", () => {
  it("a dump of the database holds no webhook secret, Basic password or quote signing key, in any spelling", async () => {
    await expectSignedDelivery(m, ep);
    await expectNoSecretIn(await dump(), new MainKeys(OLD_KEY));
    expect([...(await sealedByKey(handle.db)).keys()]).toEqual([keyIdOf(OLD_KEY)]);
  });

  it("after a rotation of the main key and a restart, deliveries are still signed and quotes still check", async () => {
    // Every instance is given the new key to encrypt with and the old one to read (docs/secrets.md).
    await restart(new MainKeys(NEW_KEY, [OLD_KEY]));
    m = srv!.client(...MERCHANT);
    await expectSignedDelivery(m, ep);
    const during = await register(m, "/during");
    // The CLI's `secrets rotate`: every stored secret again under the new key, while the instance serves.
    const { resealed, remaining } = await resealAll(handle.db, new MainKeys(NEW_KEY, [OLD_KEY]), { batch: 1 });
    expect(resealed).toBeGreaterThanOrEqual(3); // the endpoint's secret and password, a signing key
    expect(remaining).toBe(0);
    expect([...(await sealedByKey(handle.db)).keys()]).toEqual([keyIdOf(NEW_KEY)]);

    // A restart with the new key alone: the old key is gone from the configuration.
    await restart(new MainKeys(NEW_KEY));
    m = srv!.client(...MERCHANT);
    await expectSignedDelivery(m, ep);
    await expectSignedDelivery(m, during);
    const keys = await publishedKeys();
    expect(verifyQuote(quoteBefore, { keys, merchantId, cart: CART }).valid).toBe(true);
    const after = await quote();
    expect(verifyQuote(after, { keys, merchantId, cart: CART }).valid).toBe(true);
    const placed = await m.POST("/orders/_create", {
      body: {
        ...order({ customer: { postalcode: "20780", country: "FI" } }),
        products: [orderLine({ qty: 2, unit_price: 29.9, weight_g: 600 })],
        quote: after,
      },
    });
    expect(placed.response.status, JSON.stringify(placed.error)).toBe(201);
    await expectNoSecretIn(await dump(), new MainKeys(NEW_KEY));
  });

  it("a process without the key the stored secrets need does not start, and says which key it lacks", async () => {
    await srv?.close();
    srv = undefined;
    const attempt = start(new MainKeys(OLD_KEY));
    await expect(attempt).rejects.toThrow(MainKeyMissing);
    await expect(attempt).rejects.toThrow(`under main key ${keyIdOf(NEW_KEY)}`);
    // The right key still starts it: nothing was changed by the refused start.
    srv = await start(new MainKeys(NEW_KEY));
    await expectSignedDelivery(srv.client(...MERCHANT), ep);
  });
});
