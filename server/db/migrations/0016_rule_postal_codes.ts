import type { Kysely } from "kysely";

// The expand side of normalised postal codes in price rules needs no schema change: this release compares a rule's
// postal code with the customer's in any spelling, so rules saved in another spelling price as they should.
// contract/0016_rule_postal_codes rewrites them in their country's form once the release before is gone.
export async function up(_db: Kysely<unknown>): Promise<void> {}
