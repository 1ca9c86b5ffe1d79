// Operator CLI: `npm run cli -- <command>`. Uses DATABASE_URL / PGLITE_DIR like the server.
import { Command } from "commander";
import { provisionAccount } from "./accounts/domain.ts";
import { loadConfig } from "./config.ts";
import { openDatabase, type DatabaseHandle } from "./db/database.ts";
import { migrateToLatest } from "./db/migrate.ts";
import { DEMO, seedDemo } from "./demo.ts";
import type { Role } from "./accounts/db.ts";

async function withDb(fn: (h: DatabaseHandle) => Promise<void>, migrate = true): Promise<void> {
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: config.pgliteDir, poolSize: 2 });
  try {
    if (migrate) await migrateToLatest(handle.db);
    await fn(handle);
  } finally {
    await handle.close();
  }
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
        console.log(`${created ? "Created" : "Updated the secret of"} ${role} ${stored}. Username: ${prefix}-${stored}`);
        if (generated) console.log(`Secret (shown once, store it now): ${secret}`);
      }),
    );
}

const program = new Command().name("npm run cli --").description("Logistics API operator commands").showHelpAfterError();

program
  .command("migrate")
  .description("apply pending database migrations")
  .action(() =>
    withDb(async ({ db, kind }) => {
      const applied = await migrateToLatest(db);
      console.log(`Database (${kind}) is at the latest migration${applied.length ? `: applied ${applied.join(", ")}` : " (nothing to apply)"}.`);
    }, false),
  );
accountCommand(program, "merchant", "merchant", "M");
accountCommand(program, "operator", "operator", "W");
program
  .command("seed-demo")
  .description("create (or reset the secrets of) the demo merchant and warehouse operator")
  .action(() =>
    withDb(async ({ db }) => {
      await seedDemo(db);
      console.log(`Demo merchant M-${DEMO.merchantId} / ${DEMO.merchantSecret}; operator W-${DEMO.operatorId} / ${DEMO.operatorSecret}`);
    }),
  );

program.parseAsync().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
