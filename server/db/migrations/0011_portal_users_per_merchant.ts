import { sql, type Kysely } from "kysely";

// A portal user's email is unique within its merchant, no longer over the service: one person may serve
// several shops under one address, and no merchant learns that another has a user with some address.
// The per-merchant index is built before the global one goes, so uniqueness holds throughout; a plain index
// on email keeps sign-in (which looks an address up over every merchant) off a scan.
// Rolling upgrades: the release before this one reads and signs in on this schema, but its create of a new
// portal user (API and CLI) says ON CONFLICT (email), which only the global index answers: those creates
// fail (500) until its last instance is gone. Create portal users after the upgrade, not during it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create unique index portal_users_merchant_email on portal_users (merchant_id, email)`.execute(db);
  await sql`create index portal_users_email on portal_users (email)`.execute(db);
  await sql`alter table portal_users drop constraint portal_users_email_key`.execute(db);
}
