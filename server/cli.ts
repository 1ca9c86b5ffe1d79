// Operator CLI: `npm run cli -- <command>`. Uses DATABASE_URL / PGLITE_DIR like the server.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Command, Option } from "commander";
import { provisionAccount } from "./accounts/domain.ts";
import { provisionPortalUser } from "./portal/users.ts";
import { provisionWarehouseUser } from "./warehouse/users.ts";
import { loadConfig } from "./config.ts";
import { backupStopped, requestBackup, restoreEmbedded } from "./db/backup.ts";
import { openDatabase, type DatabaseHandle } from "./db/database.ts";
import { ownerOnlyFromNowOn } from "./db/owner-only.ts";
import { migrateToLatest, pendingContractNotice } from "./db/migrate.ts";
import { DEMO, seedDemo } from "./demo.ts";
import {
  describeImportError,
  importPickupPoints,
  importPostalCodes,
  type ImportReport,
} from "./pickup-points/imports.ts";
import type { Role } from "./accounts/db.ts";
import { addSigningKey } from "./quotes/signing-keys.ts";
import { announceCacheChange } from "./db/cache-signal.ts";
import { AppError } from "./shared/errors.ts";
import { prepareSecretsAtRest, resealAll, sealedByKey } from "./secrets/at-rest.ts";
import { describeKeySource, loadMainKeys } from "./secrets/key-source.ts";
import { newMainKeyText, type MainKeys } from "./secrets/main-keys.ts";

// Backups, restored directories and the embedded database the CLI opens are the service user's alone.
ownerOnlyFromNowOn();

async function withDb(fn: (h: DatabaseHandle) => Promise<void>, migrate = true): Promise<void> {
  const config = loadConfig();
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.pgliteDir,
    durability: config.pgliteDurability,
    poolSize: 2,
    // The server's own limit: imports commit in slices that each fit in it.
    statementTimeoutMs: config.dbStatementTimeoutMs,
    poolMode: config.dbPoolMode,
    listenUrl: config.dbListenUrl,
    onNotice: (message) => console.log(message),
  });
  try {
    if (migrate) await migrateToLatest(handle.db);
    await fn(handle);
  } finally {
    await handle.close();
  }
}

/** The main keys as the server would load them; a key file made now is said, like at the server's start. */
async function mainKeys(): Promise<MainKeys> {
  const loaded = await loadMainKeys(loadConfig());
  if (loaded.source.from === "file" && (loaded.source.generated || loaded.source.tightened))
    console.log(describeKeySource(loaded));
  return loaded.keys;
}

function accountCommand(program: Command, name: string, role: Role, prefix: string) {
  program
    .command(name)
    .description(`manage ${role} accounts`)
    .command("create <id>")
    .description(`create a ${role} (or give it a new secret); prints the secret when generated`)
    .option("--secret <secret>", "use this secret (8-256 characters) instead of generating one")
    .action(async (id: string, opts: { secret?: string }) =>
      withDb(async ({ db }) => {
        const { created, secret, generated, id: stored } = await provisionAccount(db, role, id, opts.secret);
        console.log(
          `${created ? "Created" : "Updated the secret of"} ${role} ${stored}. Username: ${prefix}-${stored}`,
        );
        if (generated) console.log(`Secret (shown once, store it now): ${secret}`);
      }),
    );
}

const program = new Command()
  .name("npm run cli --")
  .description("Logistics API operator commands")
  .showHelpAfterError();

program
  .command("migrate")
  .description("apply pending database migrations (contract migrations too on an empty database)")
  .option("--contract", "also apply the contract migrations: only once every instance runs this release")
  .action((opts: { contract?: boolean }) =>
    withDb(async ({ db, kind }) => {
      const expand = await migrateToLatest(db);
      // What a release before stored plain is encrypted before a contract migration drops the plain columns.
      const { sealed } = await prepareSecretsAtRest(db, await mainKeys());
      if (sealed > 0) console.log(`Encrypted ${sealed} secrets stored plain by an earlier release.`);
      const contract = opts.contract ? await migrateToLatest(db, opts) : undefined;
      const applied = expand.applied;
      const contracted = [...expand.contracted, ...(contract?.contracted ?? [])];
      const pendingContract = contract ? contract.pendingContract : expand.pendingContract;
      const done = [...applied, ...contracted.map((name) => `contract/${name}`)];
      console.log(
        `Database (${kind}) is at the latest migration${done.length ? `: applied ${done.join(", ")}` : " (nothing to apply)"}.`,
      );
      if (pendingContract.length) console.log(pendingContractNotice(pendingContract));
    }, false),
  );
accountCommand(program, "merchant", "merchant", "M");
accountCommand(program, "operator", "operator", "W");
program
  .command("portal-user")
  .description("manage the people who sign in to the merchant portal")
  .command("create <merchant_id> <email>")
  .description(
    "create a portal user of a merchant (or give an existing one a new password, ending its sessions; its role changes only with --role)",
  )
  .requiredOption("--password <password>", "the password, 10-256 characters")
  .addOption(
    new Option("--role <role>", "admin may also create portal users (a new user: admin when left out)").choices([
      "admin",
      "staff",
    ]),
  )
  .action(async (merchantId: string, email: string, opts: { password: string; role?: "admin" | "staff" }) =>
    withDb(async ({ db }) => {
      const r = await provisionPortalUser(db, merchantId, email, opts.password, opts.role);
      console.log(
        `${r.created ? "Created" : "Updated"} portal user ${r.email} (${r.role}) of merchant ${merchantId.toLowerCase()}.`,
      );
    }),
  );
program
  .command("warehouse-user")
  .description("manage the warehouse's staff, who sign in at a receiving station")
  .command("create <email>")
  .description(
    "create a warehouse user (or give an existing one a new password, ending its sessions; its name and role change only with --name and --role)",
  )
  .requiredOption("--password <password>", "the password, 10-256 characters")
  .addOption(
    new Option(
      "--role <role>",
      "supervisor may also finish with differences, cancel and manage warehouse users (a new user: receiver when left out)",
    ).choices(["receiver", "supervisor"]),
  )
  .option(
    "--name <name>",
    "the name merchants see on the arrivals the person records (a new user: the email's local part when left out)",
  )
  .action(async (email: string, opts: { password: string; role?: "receiver" | "supervisor"; name?: string }) =>
    withDb(async ({ db }) => {
      const r = await provisionWarehouseUser(db, email, opts.password, { role: opts.role, name: opts.name });
      console.log(`${r.created ? "Created" : "Updated"} warehouse user ${r.email} (${r.name}, ${r.role}).`);
    }),
  );
program
  .command("seed-demo")
  .description("create (or reset) the demo merchant and warehouse operator, the demo pickup points and the demo prices")
  .action(() =>
    withDb(async ({ db }) => {
      await seedDemo(db);
      console.log(
        `Demo merchant M-${DEMO.merchantId} / ${DEMO.merchantSecret}; operator W-${DEMO.operatorId} / ${DEMO.operatorSecret}; portal user ${DEMO.portalEmail} / ${DEMO.portalPassword}`,
      );
    }),
  );

program
  .command("rotate-quote-key")
  .description(
    "add the next key that signs checkout quotes: published at once, signing a day later (the old one stays published until its quotes expire)",
  )
  .option("--now", "sign with the new key at once (the old one may have leaked)")
  .action((opts: { now?: boolean }) =>
    withDb(async ({ db }) => {
      const keys = await mainKeys();
      // Announced in its transaction: every running instance reads the keys again at its commit.
      const { id, activeFrom } = await db.transaction().execute(async (trx) => {
        const added = await addSigningKey(trx, keys, { now: opts.now === true });
        await announceCacheChange(trx);
        return added;
      });
      console.log(`Added quote signing key ${id}; it signs from ${activeFrom.toISOString()}.`);
    }),
  );

const secrets = program
  .command("secrets")
  .description(
    "the main key that encrypts stored secrets (webhook signing secrets and Basic passwords, quote signing keys)",
  );
secrets
  .command("new-key")
  .description("print a new main key (base64 of 32 random bytes) for SECRETS_MAIN_KEY; stores nothing")
  .action(() => console.log(newMainKeyText()));
secrets
  .command("status")
  .description("how many stored secrets each main key encrypted, and whether this configuration holds that key")
  .action(() =>
    withDb(async ({ db }) => {
      const keys = await mainKeys();
      const counts = await sealedByKey(db);
      console.log(
        `Main key: ${keys.currentId}${keys.ids.length > 1 ? `; also reads ${keys.ids.slice(1).join(", ")}` : ""}.`,
      );
      if (counts.size === 0) console.log("No encrypted secrets are stored yet.");
      for (const [id, n] of counts)
        console.log(
          `${n} secrets under key ${id}${id === keys.currentId ? " (the main key)" : keys.has(id) ? " (read only: run `secrets rotate`)" : " (NOT HELD: they cannot be read)"}`,
        );
    }),
  );
secrets
  .command("rotate")
  .description(
    "encrypt every stored secret again under SECRETS_MAIN_KEY, in batches, while servers run (each must already read both keys: docs/secrets.md)",
  )
  .option("--batch <rows>", "rows per transaction", "200")
  .action((opts: { batch: string }) =>
    withDb(async ({ db }) => {
      const batch = Number(opts.batch);
      if (!Number.isInteger(batch) || batch < 1 || batch > 10_000) throw new Error("--batch must be 1-10000 rows");
      const keys = await mainKeys();
      // Every stored secret must open first: a key missing here is said before anything is rewritten.
      await prepareSecretsAtRest(db, keys);
      const { resealed, remaining } = await resealAll(db, keys, { batch });
      console.log(`Encrypted ${resealed} secrets again under main key ${keys.currentId}.`);
      if (remaining > 0) {
        console.error(
          `${remaining} secrets are still under another key: an instance still encrypts with it. Give every instance SECRETS_MAIN_KEY=<the new key> and run this again.`,
        );
        process.exitCode = 1;
      } else console.log("No stored secret is under another key: the old key may leave SECRETS_READ_KEYS.");
    }),
  );

const MAX_PRINTED_ERRORS = 1000;

/** Prints what an import did, or every bad record and that nothing was stored (exit code 1). */
function report(what: string, file: string, r: ImportReport): void {
  if (r.errors.length > 0) {
    for (const e of r.errors.slice(0, MAX_PRINTED_ERRORS)) console.error(describeImportError(e));
    if (r.errors.length > MAX_PRINTED_ERRORS)
      console.error(`... and ${r.errors.length - MAX_PRINTED_ERRORS} more problems`);
    console.error(`${file}: ${r.errors.length} problem${r.errors.length === 1 ? "" : "s"}; nothing was imported.`);
    process.exitCode = 1;
    return;
  }
  const merged = r.merged ? ` (${r.merged} repeated lines merged)` : "";
  console.log(
    `${file}: ${r.read} ${what}${merged}: ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged.`,
  );
}

const readText = (file: string) => readFileSync(file, "utf8");

program
  .command("pickup-points")
  .description("the pickup point directory")
  .command("import <file>")
  .description(
    "import pickup points from a JSON array or a CSV file (upsert by id; a file with a bad record stores nothing)",
  )
  .addOption(
    new Option("--format <format>", "file format (default: by the file name, else by content)").choices([
      "json",
      "csv",
    ]),
  )
  .action((file: string, opts: { format?: "json" | "csv" }) =>
    withDb(async ({ db }) => {
      const text = readText(file);
      report(
        "pickup points",
        file,
        await importPickupPoints(db, text, { fileName: path.basename(file), format: opts.format }),
      );
    }),
  );
program
  .command("postal-codes")
  .description("postal-code locations (where customers are placed)")
  .command("import <file>")
  .description(
    "import postal-code locations in the GeoNames text format (upsert by country and postal code; a file with a bad line stores nothing)",
  )
  .action((file: string) =>
    withDb(async ({ db }) => {
      const text = readText(file);
      report("postal codes", file, await importPostalCodes(db, text));
    }),
  );

const POSTGRES_BACKUPS =
  'On PostgreSQL, back up with pg_dump and restore with pg_restore (docs/operating.md, "Backups and restores").';
const sizeOf = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

program
  .command("backup <file>")
  .description(
    "write a backup of the embedded database to <file> (a new file), also while the server runs: the running server takes it",
  )
  .action(async (file: string) => {
    const config = loadConfig();
    if (config.databaseUrl) throw new Error(POSTGRES_BACKUPS);
    if (existsSync(file)) throw new Error(`${file} exists: a backup is written to a new file.`);
    const fromServer = await requestBackup(path.resolve(config.pgliteDir));
    const bytes = fromServer ?? (await backupStopped(path.resolve(config.pgliteDir)));
    // 0600 whatever the umask: a backup holds what the database holds.
    writeFileSync(file, bytes, { flag: "wx", mode: 0o600 });
    console.log(
      `Backed up ${config.pgliteDir} to ${file} (${sizeOf(bytes.length)}, ${fromServer ? "taken by the running server" : "no server was running"}).`,
    );
    // The backup holds the secrets encrypted, not the key: without a copy of it the backup's secrets are lost.
    const { keys, source } = await loadMainKeys(config);
    console.log(
      `Its webhook secrets and quote signing keys are encrypted under main key ${keys.currentId}, which it does not hold: keep ${source.from === "file" ? source.file : "SECRETS_MAIN_KEY"} apart from it (docs/secrets.md).`,
    );
  });
program
  .command("restore <file>")
  .description(
    "replace the embedded database with the backup in <file>; refused while a server runs on it (what was there is kept beside it)",
  )
  .action(async (file: string) => {
    const config = loadConfig();
    if (config.databaseUrl) throw new Error(POSTGRES_BACKUPS);
    const { setAside, tightened } = await restoreEmbedded(path.resolve(config.pgliteDir), readFileSync(file));
    console.log(
      `Restored ${config.pgliteDir} from ${file}.${setAside ? ` What was there is in ${setAside}.` : ""} Start the server to use it.`,
    );
    if (tightened > 0)
      console.log(
        `${tightened} files and directories in ${setAside} were readable or writable by other users; they are now this user's alone.`,
      );
  });

program.parseAsync().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  // What is wrong with each value, as the API's details would say it.
  for (const d of err instanceof AppError ? err.details : []) console.error(`  ${d.path}: ${d.message}`);
  process.exit(1);
});
