import { sql, type Kysely } from "kysely";

// Secrets at rest (issue 55): each secret the service reads back gets a column for its sealed form (AES-256-GCM
// under the operator's main key, server/secrets/). Expand: the new columns are nullable, and the plain columns
// lose NOT NULL, since this release writes only the sealed form; the release before still finds its columns and
// the rows it wrote keep their plain values. Existing plain values are sealed at the next start (the key is not
// the migration's to know) and the plain columns are dropped by contract/0020_sealed_secrets.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("webhook_endpoints")
    .addColumn("secret_sealed", "text")
    .addColumn("previous_secret_sealed", "text")
    .addColumn("basic_password_sealed", "text")
    .execute();
  await sql`alter table webhook_endpoints alter column secret drop not null`.execute(db);
  await db.schema.alterTable("quote_signing_keys").addColumn("private_key_sealed", "text").execute();
  await sql`alter table quote_signing_keys alter column private_key drop not null`.execute(db);
}
