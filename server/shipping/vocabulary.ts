// The vocabulary of price list rules: the JSON type of every shipping fact and the operators that can apply to
// it. The server's write-time checks of price lists read it, and the client package re-exports it for rule editors
// (the merchant portal's among them), so an editor never offers what a save would refuse.
import type { components } from "../../generated/api.ts";

type ShippingFactName = components["schemas"]["ShippingFactName"];
type RuleOperator = components["schemas"]["RuleOperator"];

/** The JSON type of each fact; `satisfies` makes a fact added to the spec a compile error until it is listed. */
export const FACT_KINDS = {
  "pup.branch": "string",
  "customer.country": "string",
  "customer.postalcode": "string",
  "customer.address": "string",
  "order.shipping_type": "string",
  "order.tags": "string_array",
  "order.total_eur": "number",
  "order.letter_possible": "boolean",
  "order.total_weight": "number",
  "order.total_volume": "number",
  "order.item_count": "number",
  "order.item_article_count": "number",
} as const satisfies Record<ShippingFactName, FactKind>;
export type FactKind = "string" | "number" | "boolean" | "string_array";

/** Which operators can apply to a fact of each kind (the spec's RuleOperator description). */
export const OPERATORS_BY_KIND: Record<FactKind, readonly RuleOperator[]> = {
  string: ["==", "!=", "in", "not_in", "contains"],
  number: ["==", "!=", "<", "<=", ">", ">=", "in", "not_in"],
  boolean: ["==", "!="],
  string_array: ["contains"],
};
