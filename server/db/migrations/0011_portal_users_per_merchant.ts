import { sql, type Kysely } from "kysely";

// A portal user's email is unique within its merchant, no longer over the service: one person may serve
// several shops under one address, and no merchant learns that another has a user with some address.
// Expand only: the per-merchant index and a plain index on email (sign-in looks an address up over every
// merchant). The global unique constraint stays until contract/0011_drop_global_portal_email, because the
// release before this one creates portal users with ON CONFLICT (email), which only that constraint answers.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index portal_users_merchant_email on portal_users (merchant_id, email)`.execute(db);
  await sql`create index portal_users_email on portal_users (email)`.execute(db);
}
