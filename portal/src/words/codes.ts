// The codes the catalogue has words for. Those the spec enumerates come from the generated types, so that a code
// added to the spec is a type error in every language's file until it has words there; the detail codes (an
// ErrorDetail's `code` is a free string in the spec) are listed here, and test/unit/portal-words.test.ts checks
// that the list holds every code the server's sources and the spec's examples name.
import type { S } from "../api.ts";

// eslint-disable-next-line no-restricted-syntax -- the spec leaves Error's code enum unnamed
export type ErrorCode = S["Error"]["code"];
/** Answers that are not an Error body: sign-in's choice of merchant, an answer that is not the service's, none. */
export type PortalCode = "merchant_choice_required" | "unexpected_response" | "unreachable";
export type AnswerCode = ErrorCode | PortalCode;

/** JSON Schema keywords a failed check of the spec names as a detail's `code` (Ajv's keyword). */
export const SCHEMA_KEYWORDS = [
  "type",
  "required",
  "additionalProperties",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
] as const;
export type SchemaKeyword = (typeof SCHEMA_KEYWORDS)[number];

/** The service's own checks beyond the schema (grep server/ for `code: "`), by what they are about. */
export const RULE_CODES = [
  // The request itself
  "json",
  "encoding",
  "aborted",
  "nul",
  "unicode",
  "depth",
  "duplicate_key",
  "not_allowed",
  "method",
  "cursor",
  "stale",
  // Inbound shipments
  "duplicate",
  "gtin",
  "decimals",
  "future",
  "too_early",
  "below_zero",
  "above_maximum",
  "below_arrived",
  "has_arrivals",
  // Price lists and orders
  "unique",
  "unknown_fact",
  "operator_not_applicable",
  "too_large",
  "unknown_pickup_point",
  "quote_invalid",
  "quote_expired",
  "quote_not_yours",
  "quote_facts",
  "quote_destination",
  "quote_unavailable",
  "quote_price",
  // Webhook endpoints and publishable keys
  "invalid_url",
  "unsupported_scheme",
  "credentials_in_url",
  "missing_host",
  "destination_not_allowed",
  "origin",
  // Portal users
  "length",
  "wrong_password",
  "unchanged",
  "last_admin",
  "must_change_password",
  // The warehouse
  "range",
  "differences",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

export type DetailCode = SchemaKeyword | RuleCode;
export const DETAIL_CODES: readonly DetailCode[] = [...SCHEMA_KEYWORDS, ...RULE_CODES];
export const isDetailCode = (code: string | undefined): code is DetailCode =>
  code !== undefined && (DETAIL_CODES as readonly string[]).includes(code);

/** Who moved a shipment to a status (an entry of its status history). */
// eslint-disable-next-line no-restricted-syntax -- the spec leaves this enum (by) unnamed
export type StatusChanger = S["InboundStatusHistory"]["items"][number]["by"];
// eslint-disable-next-line no-restricted-syntax -- the spec leaves this enum (adjust) unnamed
export type Adjust = S["ModificationRule"]["adjust"];

/** Pickup point branches the portal names by their chain; others are named from the branch itself. */
export const CHAINS: Record<string, string> = {
  "fi.posti": "Posti",
  "fi.matkahuolto": "Matkahuolto",
  "fi.db_schenker": "DB Schenker",
};
