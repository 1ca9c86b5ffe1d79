import { sql, type Kysely } from "kysely";

// A CORS preflight carries no key: it asks whether any working publishable key lists its origin
// (publishable-keys/db.ts, isListedOrigin: `origins @> '["<origin>"]'` among keys not revoked). Without an index that
// read every key, revoked ones included, for each new origin an anonymous caller made up. A GIN index of the working
// keys' origins (jsonb_path_ops serves `@>`) answers it from the origins listed only.
// Expand only: the release before neither needs nor minds it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists publishable_keys_working_origins on publishable_keys
    using gin (origins jsonb_path_ops) where revoked_at is null`.execute(db);
}
