import { sql, type Kysely } from "kysely";

// Contract of 0011_portal_users_per_merchant: the same email may now serve several merchants. Applied once no
// instance of the release before 0011 runs (its creates say ON CONFLICT (email)). `if exists`: a development
// database may have dropped it in an early draft of 0011.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table portal_users drop constraint if exists portal_users_email_key`.execute(db);
}
