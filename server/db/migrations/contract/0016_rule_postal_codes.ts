import type { Kysely } from "kysely";
import { normaliseRulePostalCodes } from "../../../shipping/rule-postal-codes.ts";

// Price rules saved before postal codes were normalised where they enter keep the spelling they were written in:
// this release compares them with the customer's code in any spelling (the expand side, no schema change), and
// this rewrites them in their country's form (`customer.country == "SE"` beside `98138`: `981 38`). A contract
// step: the release before compares exact strings, so it must no longer run when its rules' spelling changes.
export async function up(db: Kysely<any>): Promise<void> {
  const lists = (await db
    .selectFrom("price_lists")
    .select(["id", "pricing_rules", "modification_rules"])
    .execute()) as { id: string; pricing_rules: never[]; modification_rules: never[] }[];
  for (const list of lists) {
    const pricing = normaliseRulePostalCodes(list.pricing_rules);
    const modification = normaliseRulePostalCodes(list.modification_rules);
    if (
      JSON.stringify(pricing) === JSON.stringify(list.pricing_rules) &&
      JSON.stringify(modification) === JSON.stringify(list.modification_rules)
    )
      continue;
    await db
      .updateTable("price_lists")
      .set({ pricing_rules: JSON.stringify(pricing), modification_rules: JSON.stringify(modification) })
      .where("id", "=", list.id)
      .execute();
  }
}
