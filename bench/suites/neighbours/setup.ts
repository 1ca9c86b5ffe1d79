// The server and the accounts of the neighbours bench: the demo merchant is the quiet one (its shipment, its
// portal user), `noisy.example.com` floods (a large pickup price list, 50 pickup points, a portal user whose
// email it then tries to take again), and a few hundred `cold-N.example.com` merchants each sign in with their
// API key once, so that every check of theirs is a cold one (no verified key cached).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { upsertAccount } from "../../../server/accounts/db.ts";
import { provisionAccount } from "../../../server/accounts/domain.ts";
import { hashSecret } from "../../../server/accounts/secrets.ts";
import { BASE_PATH } from "../../../server/app.ts";
import { SETTINGS } from "../../../server/config/settings.ts";
import { COUNTERS_TABLE } from "../../../server/db/counters.ts";
import { openDatabase } from "../../../server/db/database.ts";
import { migrateToLatest } from "../../../server/db/migrate.ts";
import { DEMO, seedDemo } from "../../../server/demo.ts";
import { createScratchDatabase } from "../../../tools/postgres.ts";
import { startServer, type Target } from "../../targets.ts";
import { basic, PASSWORD, type Context } from "./context.ts";

export interface Bench {
  kind: "pglite" | "postgres";
  /** A server process of its own for one flood: nothing queued or cached by the one before carries over. */
  serve(profileDir?: string): Promise<{ server: Target; ctx: Context }>;
  /** Stops the server and removes the database. */
  close(): Promise<void>;
}

const NOISY_ID = "noisy.example.com";
const NOISY_SECRET = "noisy-secret-for-the-bench";
const COLD_SECRET = "cold-secret-for-the-bench";
const COLD_MERCHANTS = 600;

export async function setUp(): Promise<Bench> {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-neighbours-"));
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  if (scratch && "unreachable" in scratch) throw new Error(`PostgreSQL unreachable: ${scratch.unreachable}`);
  const kind = scratch ? "postgres" : "pglite";
  const database = scratch ? { DATABASE_URL: scratch.url } : { PGLITE_DIR: path.join(dir, "db") };

  // Accounts straight into the database before the server starts (PGlite has one process at a time).
  const handle = await openDatabase({
    databaseUrl: scratch?.url,
    pgliteDir: path.join(dir, "db"),
    statementTimeoutMs: 0,
  });
  const cold = Array.from({ length: COLD_MERCHANTS }, (_, i) => `cold-${i}.example.com`);
  try {
    await migrateToLatest(handle.db);
    await seedDemo(handle.db);
    await provisionAccount(handle.db, "merchant", NOISY_ID, NOISY_SECRET);
    // One hash for all: each check still derives the key (scrypt), which is what a cold check costs.
    const hash = await hashSecret(COLD_SECRET);
    for (const id of cold) await upsertAccount(handle.db, "merchant", id, hash);
  } finally {
    await handle.close();
  }

  let server: Target | undefined;
  const stop = async () => {
    await server?.child.stop();
    server = undefined;
  };
  const close = async () => {
    await stop();
    if (scratch) await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    server = await startServer(kind, { database, stdout: "ignore" });
    const ctx = await throughTheApi(server.origin, cold);
    await stop();
    const serve = async (profileDir?: string) => {
      await stop();
      // Every flood starts with unspent limits: the minute windows are in the database, which outlives the
      // last flood's server (the noisy merchant would otherwise start this flood refused).
      const windows = await openDatabase({
        databaseUrl: scratch?.url,
        pgliteDir: path.join(dir, "db"),
        statementTimeoutMs: 0,
      });
      try {
        await windows.db.deleteFrom(COUNTERS_TABLE as never).execute();
      } finally {
        await windows.close();
      }
      server = await startServer(kind, {
        database,
        stdout: "ignore",
        defaultRateLimit: true,
        // Behind a load balancer, as the floods from many addresses come (floods.ts `forwarded`).
        env: { TRUST_PROXY: "loopback" },
        ...(profileDir && { profileDir }),
      });
      return { server, ctx: { ...ctx, api: `${server.origin}${BASE_PATH}` } };
    };
    return { kind, serve, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** What the merchants set up as any client would: a shipment, settings, a price list, a portal user. */
async function throughTheApi(origin: string, cold: string[]): Promise<Omit<Context, "api">> {
  const quietAuth = basic(`M-${DEMO.merchantId}`, DEMO.merchantSecret);
  const noisyAuth = basic(`M-${NOISY_ID}`, NOISY_SECRET);
  const send = async (auth: string, method: string, p: string, body: unknown, want: number) => {
    const r = await fetch(`${origin}${BASE_PATH}${p}`, {
      method,
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status !== want) throw new Error(`${method} ${p}: ${r.status}, expected ${want}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const shipment = await send(quietAuth, "POST", "/inbound_shipments/_create", QUIET_SHIPMENT, 201);
  await send(noisyAuth, "PUT", "/merchant/shipping_settings", NOISY_SETTINGS, 200);
  await send(noisyAuth, "POST", "/merchant/price_lists/_create", noisyPriceList(), 201);
  const takenEmail = "staff@noisy.example.com";
  await send(noisyAuth, "POST", "/portal_users/_create", { email: takenEmail, password: PASSWORD, role: "staff" }, 201);
  const readFailures = SETTINGS.loginFailuresPerAddress.read(
    process.env.BENCH_SERVER_LOGIN_FAILURES_PER_ADDRESS ?? process.env.LOGIN_FAILURES_PER_ADDRESS,
  );
  return {
    quiet: {
      auth: quietAuth,
      shipmentId: String(shipment.shipment_id),
      email: DEMO.portalEmail,
      password: DEMO.portalPassword,
    },
    noisy: { auth: noisyAuth, takenEmail },
    cold: { ids: cold, secret: COLD_SECRET },
    loginFailuresPerAddress: readFailures.value ?? 0,
  };
}

const QUIET_SHIPMENT = {
  merchants_ref: "BENCH-1",
  sender_name: "Acme Supplies Oy",
  products: [{ merchants_id: "SKU-1", name: "Blue T-shirt M", qty: 10 }],
};

// Every method on, and the most pickup points an answer may carry.
const NOISY_SETTINGS = {
  letter: { enabled: true, max_weight_g: 2000 },
  home: { enabled: true },
  pickup: { enabled: true },
  countries: ["FI"],
  pickup_points_limit: 50,
};

/**
 * The pickup price list: 100 pricing and 100 modification rules (the most the spec allows), none of which
 * ever matches, each with a 200-character description and a 200-character address to compare with: about
 * 100 KB, inside the 128 KB bound. Each pickup point of each answer is tested against every rule.
 */
export function noisyPriceList() {
  const long = (what: string, i: number) => `${what} ${i} `.padEnd(200, "x");
  // The generic query knows no address (null), so no rule ever matches.
  const never = (i: number) => [{ fact: "customer.address", op: "==", value: long("Nowhere street", i) }];
  return {
    name: "Pickup, many rules",
    method: "pickup",
    currency: "EUR",
    tax: 25.5,
    fallback_price: 4.9,
    pricing_rules: Array.from({ length: 100 }, (_, i) => ({
      description: long("pricing rule", i),
      criteria: never(i),
      price: 3.9,
    })),
    modification_rules: Array.from({ length: 100 }, (_, i) => ({
      description: long("modification rule", i),
      criteria: never(i + 100),
      adjust: "add",
      amount: 1,
    })),
  };
}
