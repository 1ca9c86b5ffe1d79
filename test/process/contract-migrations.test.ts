// The operator's side of a rolling upgrade over 0011, through the real entry points: the start and `migrate` say
// that contract migrations wait, `migrate --contract` applies them, and only then does one email serve two shops.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { MIGRATIONS } from "../../server/db/migrations/index.ts";
import { newId } from "../../server/shared/ids.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { cli, startServerProcess } from "./helpers.ts";

const A = "shop-a.example.com";
const B = "shop-b.example.com";
const NOTICE =
  "contract migrations pending (0011_drop_global_portal_email, 0016_rule_postal_codes, 0020_sealed_secrets): once every instance runs this release, apply them with `npm run cli -- migrate --contract`";

let env: Record<string, string>;
let cleanup: () => Promise<void>;

/** What the release before 0011 leaves: its schema, two merchants, and a portal user of A. */
async function asThePreviousReleaseLeftIt(handle: DatabaseHandle): Promise<void> {
  const provider = { getMigrations: async () => MIGRATIONS };
  const { error } = await new Migrator({ db: handle.db, provider }).migrateTo("0010_delivery_receiver_wait");
  if (error) throw new Error("migrating to the release before failed", { cause: error });
  for (const id of [A, B]) await provisionAccount(handle.db, "merchant", id, `secret-${id}`);
  await sql`insert into portal_users (id, merchant_id, email, password_hash, role)
    values (${newId(Date.now())}, ${A}, 'shared@example.org', 'hash', 'admin')
    on conflict (email) do nothing`.execute(handle.db);
}

beforeAll(async () => {
  if (process.env.TEST_DB === "postgres") {
    const handle = await createTestDatabase({ empty: true });
    await asThePreviousReleaseLeftIt(handle);
    env = { DATABASE_URL: handle.url! };
    cleanup = () => handle.close();
    return;
  }
  // PGlite belongs to one process: the processes below open it after this one has closed it.
  const dir = mkdtempSync(path.join(tmpdir(), "logistics-contract-"));
  const handle = await openDatabase({ pgliteDir: path.join(dir, "db") });
  await asThePreviousReleaseLeftIt(handle);
  await handle.close();
  env = { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" };
  cleanup = async () => rmSync(dir, { recursive: true, force: true });
});
afterAll(() => cleanup?.());

// Five processes in a row, each opening the database: generous on a busy machine, as in start-and-cli.
const PROCESS_TEST_TIMEOUT = 120_000;

const count = (text: string, part: string) => text.split(part).length - 1;

describe("contract migrations for the operator", () => {
  it(
    "the start applies the expand migrations and says once that contract migrations wait, and how to apply them",
    async () => {
      const server = await startServerProcess(env);
      expect(await server.stop()).toBe(0);
      expect(count(server.proc.output(), NOTICE)).toBe(1);
      const again = await cli(["migrate"], env);
      expect(again.code).toBe(0);
      expect(again.output).toContain("nothing to apply");
      expect(count(again.output, NOTICE)).toBe(1);
    },
    PROCESS_TEST_TIMEOUT,
  );

  it(
    "until migrate --contract, an email another merchant has cannot be given to a portal user; then it can",
    async () => {
      const refused = await cli(
        ["portal-user", "create", B, "shared@example.org", "--password", "a-long-password"],
        env,
      );
      expect(refused.code).toBe(1);
      expect(refused.output).toContain("until the service operator finishes the current upgrade");
      expect(refused.output).not.toContain(A);

      const contract = await cli(["migrate", "--contract"], env);
      expect(contract.code).toBe(0);
      expect(contract.output).toContain(
        "applied contract/0011_drop_global_portal_email, contract/0016_rule_postal_codes, contract/0020_sealed_secrets.",
      );
      expect(contract.output).not.toContain("pending");

      const made = await cli(["portal-user", "create", B, "shared@example.org", "--password", "a-long-password"], env);
      expect(made.output).toContain(`Created portal user shared@example.org (admin) of merchant ${B}.`);
      const last = await cli(["migrate"], env);
      expect(last.output).toContain("nothing to apply");
      expect(last.output).not.toContain("pending");
    },
    PROCESS_TEST_TIMEOUT,
  );
});
