import { sql, type Kysely } from "kysely";

// The plain secrets leave the database (issue 55): every instance runs the release that reads only the sealed
// columns (0020), and `migrate --contract` sealed what the release before wrote just before this runs. A row whose
// plain secret has no sealed form yet stops it with nothing changed: dropping it would lose that secret.
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ n: string }>`
    select (select count(*) from webhook_endpoints
             where (secret is not null and secret_sealed is null)
                or (previous_secret is not null and previous_secret_sealed is null)
                or (basic_password is not null and basic_password_sealed is null))
         + (select count(*) from quote_signing_keys where private_key is not null and private_key_sealed is null) as n`.execute(
    db,
  );
  const unsealed = Number(rows[0]!.n);
  if (unsealed > 0)
    throw new Error(
      `${unsealed} stored secrets are not encrypted yet (a release before this one wrote them): apply the contract migrations with \`npm run cli -- migrate --contract\` and the main key, which encrypts them first`,
    );
  await db.schema
    .alterTable("webhook_endpoints")
    .dropColumn("secret")
    .dropColumn("previous_secret")
    .dropColumn("basic_password")
    .execute();
  await sql`alter table webhook_endpoints alter column secret_sealed set not null`.execute(db);
  await db.schema.alterTable("quote_signing_keys").dropColumn("private_key").execute();
  await sql`alter table quote_signing_keys alter column private_key_sealed set not null`.execute(db);
  // A dropped column's values stay in the table's pages until its rows are written again, and the embedded
  // database's backup copies those pages: both tables (a few rows per merchant) are rewritten without them.
  await sql`cluster webhook_endpoints using webhook_endpoints_pkey`.execute(db);
  await sql`cluster quote_signing_keys using quote_signing_keys_pkey`.execute(db);
}
