// The portal's words (portal/src/words): every code, fact, operator, status and event type the API can answer has
// words in English, Finnish and Swedish; every field the API's requests take resolves to a name; no message shows
// a schema keyword, pattern, JSON pointer or code; and the limits the messages quote are the spec's.
// UPDATE_PORTAL_WORDS=1 rewrites portal/src/words/limits.ts from generated/openapi.json.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import {
  CATALOGUES,
  DETAIL_CODES,
  LANGS,
  SCHEMA_KEYWORDS,
  describeAdjustment,
  describeCheck,
  describeCondition,
  describeCriteria,
  describeTrace,
  fieldMessage,
  formatDate,
  formatDay,
  formatMoney,
  formatWeight,
  pickLang,
  pickLocale,
  placeOf,
  problemsIn,
  words,
  type Catalogue,
  type Form,
  type Lang,
} from "../../portal/src/words/index.ts";
import { LIMITS, type Limits } from "../../portal/src/words/limits.ts";
import { FACT_KINDS, OPERATORS_BY_KIND } from "../../server/shipping/vocabulary.ts";

const LIMITS_FILE = "portal/src/words/limits.ts";
const doc = JSON.parse(readFileSync("generated/openapi.json", "utf8"));
const schemas: Record<string, any> = doc.components.schemas;
const enumOf = (name: string): string[] => schemas[name].enum ?? schemas[name].properties?.code?.enum;

// ---- The spec's requests: every field, its keywords and limits, by operation ----

const LIMIT_KEYS = [
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
] as const;

interface Node {
  /** Each branch's limits (oneOf/anyOf branches and $ref targets land on the same pattern). */
  limits: Record<string, unknown>[];
  keywords: Set<string>;
  required: boolean;
  /** The name's parent is a map (additionalProperties), not a field. */
}

function resolve(ref: string): any {
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref)!;
  return doc.components[kind!][name!];
}

/** Every place of a request: its path pattern (lists as #), the keywords that apply there, its limits. */
function walk(schema: any, pattern: string, out: Map<string, Node>, required = false, refs: string[] = []): void {
  if (!schema || typeof schema !== "object") return;
  if (schema.$ref) {
    if (refs.includes(schema.$ref)) return;
    walk(resolve(schema.$ref), pattern, out, required, [...refs, schema.$ref]);
    return;
  }
  const node = out.get(pattern) ?? { limits: [], keywords: new Set<string>(), required: false };
  out.set(pattern, node);
  node.required ||= required;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t: unknown) => typeof t === "string" && t !== "null",
  );
  const entry: Record<string, unknown> = {};
  // The types a form's text inputs can get wrong: strings and objects it always sends as such.
  if (types.length === 1 && types[0] !== "string" && types[0] !== "object") entry.type = types[0];
  for (const k of LIMIT_KEYS) if (typeof schema[k] === "number") entry[k] = schema[k];
  if (Object.keys(entry).length) node.limits.push(entry);
  for (const k of Object.keys(schema)) if ((SCHEMA_KEYWORDS as readonly string[]).includes(k)) node.keywords.add(k);
  if (schema.type && schema.type !== "null") node.keywords.add("type");
  for (const k of ["oneOf", "anyOf", "allOf"]) for (const b of schema[k] ?? []) walk(b, pattern, out, false, refs);
  for (const [name, prop] of Object.entries(schema.properties ?? {}))
    walk(prop, `${pattern}/${name}`, out, (schema.required ?? []).includes(name), refs);
  if (schema.items) walk(schema.items, `${pattern}/#`, out, false, refs);
}

/** Every operation's places: query, header and path parameters and the JSON body. */
function operationPlaces(): Map<Form, Map<string, Node>> {
  const all = new Map<Form, Map<string, Node>>();
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) {
      if (!op || typeof op !== "object" || !op.operationId) continue;
      const out = new Map<string, Node>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const param = p.$ref ? resolve(p.$ref) : p;
        const root = { query: "query", header: "headers", path: "path" }[param.in as string];
        if (!root) continue;
        const name = root === "headers" ? String(param.name).toLowerCase() : param.name;
        walk(param.schema, `/${root}/${name}`, out, Boolean(param.required));
      }
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body) walk(body, "/body", out, Boolean(op.requestBody.required));
      all.set(op.operationId, out);
    }
  }
  return all;
}

/** A pattern's limits: each that every branch stating it agrees on. */
function agreed(node: Node): Limits {
  const result: Record<string, unknown> = {};
  for (const key of new Set(node.limits.flatMap((l) => Object.keys(l)))) {
    const values = new Set(node.limits.filter((l) => key in l).map((l) => l[key]));
    if (values.size === 1) result[key] = [...values][0];
  }
  return result;
}

function specLimits(): Record<string, Record<string, Limits>> {
  const table: Record<string, Record<string, Limits>> = {};
  for (const [op, places] of [...operationPlaces()].sort(([a], [b]) => a.localeCompare(b))) {
    const rows = [...places]
      .map(([p, node]) => [p, agreed(node)] as const)
      .filter(([, l]) => Object.keys(l).length > 0)
      .sort(([a], [b]) => a.localeCompare(b));
    if (rows.length) table[op] = Object.fromEntries(rows);
  }
  return table;
}

async function writeLimits(table: Record<string, Record<string, Limits>>) {
  const text = `// The spec's limits of every field of every request (generated/openapi.json), by operation and by path with
// list positions as #, so that a message can say "at most 100 characters" without the portal bundling the
// spec. Generated: UPDATE_PORTAL_WORDS=1 npx vitest run --project pglite test/unit/portal-words.test.ts
// rewrites it, and without the variable that test fails when it no longer matches the spec.
import type { operations } from "../../../generated/api.ts";

/** An operation of the API (its operationId): the request whose answer is being read. */
export type Form = keyof operations;

export interface Limits {
  type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

export const LIMITS: Partial<Record<Form, Record<string, Limits>>> = ${JSON.stringify(table)};
`;
  const options = (await prettier.resolveConfig(LIMITS_FILE)) ?? {};
  writeFileSync(LIMITS_FILE, await prettier.format(text, { ...options, filepath: LIMITS_FILE }));
}

// ---- What no message may contain ----

/** The problems of a text shown to a shop's staff: regexes, schema words, pointers, codes. */
function unplain(text: string): string[] {
  const problems: string[] = [];
  const prose = text.replace(/https?:\/\/\S+/g, "").replace(/\S+@\S+/g, "");
  if (/[\^$\\]/.test(prose)) problems.push("regex-looking characters");
  if (
    /\b(minLength|maxLength|minItems|maxItems|multipleOf|uniqueItems|additionalProperties|oneOf|anyOf|allOf)\b/.test(
      prose,
    )
  )
    problems.push("a schema keyword");
  if (/\b(pattern|format|enum|const|required)\b/.test(prose)) problems.push("a schema keyword");
  if (/must (match|NOT|have)/i.test(prose)) problems.push("a validator's phrase");
  if (/\/(body|query|headers|path|params|status|method)\b/.test(prose)) problems.push("a JSON pointer");
  if (/\b[a-z]+_[a-z_]+\b/.test(prose)) problems.push("a snake_case code");
  if (/\b[a-z]{2,}\.[a-z_]{2,}\b/.test(prose)) problems.push("a dotted code");
  if (/\b[a-z]+[A-Z]\w*\b/.test(prose)) problems.push("a camelCase name");
  if (/==|!=|<=|>=|\bnot_in\b|\bin\b\s*\[/.test(prose)) problems.push("an operator");
  if (/\b(undefined|null|NaN)\b|\[object/.test(prose)) problems.push("a program's value");
  return problems;
}
/** Text with the locale's no-break spaces (1 000, 5,90 €) as plain spaces, to compare. */
const sp = (text: string | undefined) => text?.replace(/[\u00a0\u202f]/g, " ");
const expectPlain = (text: string, context: string) => expect(unplain(text), `${context}: ${text}`).toEqual([]);

/** A concrete path of a pattern: lists at positions 0 and 1 in turn (Product 1 and Product 2). */
const concrete = (pattern: string) => {
  let n = 0;
  return pattern.replace(/#/g, () => String(n++ % 2));
};

describe("the limits words quote", () => {
  it("are the spec's, request by request", async () => {
    const table = specLimits();
    if (process.env.UPDATE_PORTAL_WORDS) return writeLimits(table);
    expect(
      LIMITS,
      "portal/src/words/limits.ts is out of date: UPDATE_PORTAL_WORDS=1 npx vitest run --project pglite test/unit/portal-words.test.ts",
    ).toEqual(table);
  });
});

describe("every code the API answers has words in every language", () => {
  const every = (what: string, list: readonly string[], pick: (c: Catalogue) => Record<string, unknown>) =>
    it(what, () => {
      expect(list.length).toBeGreaterThan(0);
      for (const lang of LANGS) {
        const table = pick(CATALOGUES[lang]);
        for (const code of list) expect(table[code], `${lang} ${what}: ${code}`).toBeTruthy();
      }
    });
  every("error codes", enumOf("Error"), (c) => c.answers);
  every("sign-in's choice of merchant", [schemas.PortalMerchantChoice.properties.code.const], (c) => c.answers);
  every("facts", enumOf("ShippingFactName"), (c) => c.facts);
  every("facts of the server's vocabulary", Object.keys(FACT_KINDS), (c) => c.facts);
  every("operators", enumOf("RuleOperator"), (c) => c.operators);
  every(
    "operators of the server's vocabulary",
    [...new Set(Object.values(OPERATORS_BY_KIND).flat())],
    (c) => c.operators,
  );
  every("delivery methods", enumOf("ShippingMethodType"), (c) => c.methods);
  every("reasons a method is unavailable", enumOf("ShippingUnavailableReason"), (c) => c.unavailable);
  every("inbound shipment statuses", enumOf("InboundShipmentStatus"), (c) => c.statuses);
  every("inbound shipment actions", enumOf("InboundShipmentAction"), (c) => c.actions);
  every("problem types", enumOf("ProblemType"), (c) => c.problemTypes);
  every("webhook delivery statuses", enumOf("WebhookDeliveryStatus"), (c) => c.deliveryStatuses);
  every("webhook failure classes", enumOf("WebhookFailureClass"), (c) => c.failureClasses);
  every("webhook event types", enumOf("WebhookEventType"), (c) => c.eventTypes);
  every("feed event types", enumOf("FeedEventType"), (c) => c.eventTypes);
  every("portal roles", enumOf("PortalUserRole"), (c) => c.roles);
  every("price changes", schemas.ModificationRule.properties.adjust.enum, (c) => c.adjust);
  every("detail codes", DETAIL_CODES, (c) => c.details);
});

describe("every detail code the service can send has words", () => {
  const answerCodes = new Set([...enumOf("Error"), "merchant_choice_required"]);
  const known = new Set<string>([...DETAIL_CODES, ...enumOf("InboundShipmentStatus")]);

  it("those the server's sources set", () => {
    const found = new Set<string>();
    const files = readdirSync("server", { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    for (const file of files) {
      const text = readFileSync(path.join("server", file), "utf8");
      for (const re of [
        /\bcode:\s*"([A-Za-z_]+)"/g,
        /\bproblem\(\s*"([a-z_]+)"/g,
        /\brefuse\(\s*"([a-z_]+)"/g,
        /\bproblem:\s*"([a-z_]+)"/g,
      ])
        for (const m of text.matchAll(re)) found.add(m[1]!);
      for (const m of text.matchAll(/type \w*Problem = ((?:\s*\|?\s*"[a-z_]+")+);/g))
        for (const q of m[1]!.matchAll(/"([a-z_]+)"/g)) found.add(q[1]!);
    }
    const codes = [...found].filter((c) => /^[a-z]/.test(c) && !answerCodes.has(c));
    expect(codes.length).toBeGreaterThan(30);
    expect(codes.filter((c) => !known.has(c))).toEqual([]);
  });

  it("those the spec's examples and descriptions name", () => {
    const found = new Set<string>();
    const visit = (v: any) => {
      if (Array.isArray(v)) return v.forEach(visit);
      if (!v || typeof v !== "object") return;
      if (typeof v.path === "string" && typeof v.code === "string" && typeof v.message === "string") found.add(v.code);
      for (const [k, x] of Object.entries(v)) {
        if (k === "description" && typeof x === "string") {
          for (const m of x.matchAll(/\bcodes? ((?:`[a-z_]+`(?:,\s*|\s+or\s+|\s+and\s+)?)+)/g))
            for (const q of m[1]!.matchAll(/`([a-z_]+)`/g)) found.add(q[1]!);
        } else visit(x);
      }
    };
    visit(doc);
    const codes = [...found].filter((c) => !answerCodes.has(c));
    expect(codes.length).toBeGreaterThan(3);
    expect(codes.filter((c) => !known.has(c))).toEqual([]);
  });

  it("every schema keyword the spec uses", () => {
    const KEYWORDS = [
      "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
      "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
      "maxProperties", "minProperties", "required", "dependentRequired", "additionalProperties", "propertyNames",
      "oneOf", "anyOf", "allOf", "not", "format", "contains", "if", "unevaluatedProperties", "unevaluatedItems",
      "prefixItems", "dependentSchemas",
    ]; // prettier-ignore
    const used = new Set<string>();
    const visit = (v: any, inSchema: boolean) => {
      if (Array.isArray(v)) return v.forEach((x) => visit(x, inSchema));
      if (!v || typeof v !== "object") return;
      for (const [k, x] of Object.entries(v)) {
        if (inSchema && KEYWORDS.includes(k) && !(k === "required" && typeof x === "boolean")) used.add(k);
        if (k === "example" || k === "examples") continue;
        visit(x, inSchema || k === "schema" || k === "schemas");
      }
    };
    visit(doc, false);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((k) => !(SCHEMA_KEYWORDS as readonly string[]).includes(k))).toEqual([]);
  });
});

describe("field problems", () => {
  const places = operationPlaces();

  it("every field of every request has a name", () => {
    const unnamed: string[] = [];
    for (const [op, nodes] of places) {
      for (const pattern of nodes.keys()) {
        const place = placeOf(concrete(pattern), op);
        if (!place.known || (!place.field && !place.item)) unnamed.push(`${op} ${pattern}`);
      }
    }
    expect(unnamed).toEqual([]);
  });

  it("say what to do, in plain words, for every keyword of every field", () => {
    let n = 0;
    for (const [op, nodes] of places) {
      for (const [pattern, node] of nodes) {
        const codes = new Set([...node.keywords, ...(node.required ? ["required"] : [])]);
        codes.delete("oneOf");
        codes.delete("anyOf");
        codes.delete("allOf");
        for (const code of codes) {
          const detail = { path: concrete(pattern), message: "", code };
          for (const lang of LANGS) {
            const text = fieldMessage(lang, detail, op);
            expectPlain(text, `${lang} ${op} ${pattern} ${code}`);
            expect(text).not.toMatch(/ {2}|^\s|\s$/);
            n++;
          }
        }
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  // Details as the service sends them: its own checks' paths and codes (server/), with its messages.
  const REAL = [
    { path: "/query/cursor", code: "cursor", message: "not a cursor this service returned" },
    { path: "/headers/if-match", code: "stale", message: 'the current ETag is "3"' },
    { path: "/headers/authorization", code: "duplicate", message: "send one Authorization header" },
    { path: "/body/products/1/merchants_id", code: "duplicate", message: "merchants_id A-1 appears more than once" },
    { path: "/body/products/0/unit_price", code: "multipleOf", message: "at most two decimals" },
    { path: "/body/customer/postalcode", code: "pattern", message: "FI postal codes are five digits" },
    { path: "/body/destination", code: "unknown_pickup_point", message: "no pickup point 5a43 in the directory" },
    { path: "/method", code: "method", message: "unknown method" },
    { path: "/body", code: "not_allowed", message: "this operation takes no request body" },
    { path: "/body", code: "required", message: "a JSON request body is required" },
    { path: "/body", code: "json", message: "malformed JSON: Unexpected token" },
    { path: "/body", code: "encoding", message: "is not valid UTF-8" },
    { path: "/body", code: "aborted", message: "the body ended early" },
    { path: "/query/q", code: "nul", message: "must not contain the NUL character (\\u0000)" },
    { path: "/body/name", code: "unicode", message: "contains an unpaired UTF-16 surrogate (broken text)" },
    { path: "/body/products/0", code: "depth", message: "nested deeper than 32 levels" },
    { path: "/body/name", code: "duplicate_key", message: "this key appears more than once in its object" },
    { path: "/query/weight", code: "type", message: "must be a decimal number such as 350 or 12.5" },
    { path: "/body/ts", code: "future", message: "must not be in the future" },
    { path: "/body/ts", code: "too_early", message: "must not be before 2000-01-01T00:00:00Z" },
    { path: "/body/arrivals/0/change", code: "below_zero", message: "only 2 items of A-1 have arrived" },
    {
      path: "/body/arrivals/0/change",
      code: "above_maximum",
      message: "A-1 would have more than 1000000 arrived items",
    },
    { path: "/body/problems", code: "required", message: "at least one problem is required when moving to problem" },
    { path: "/body/problems", code: "not_allowed", message: "problems are only accepted when moving to problem" },
    { path: "/body/products_all", code: "oneOf", message: "send either products (merge) or products_all, not both" },
    { path: "/body/products/0/qty", code: "below_arrived", message: "5 items of A-1 have already arrived" },
    { path: "/body/products_all", code: "has_arrivals", message: "the line of A-1 has arrivals and cannot be removed" },
    { path: "/body/products", code: "maxItems", message: "a shipment has at most 500 lines" },
    { path: "/body/products/0/gtin", code: "gtin", message: "GTIN check digit is wrong" },
    { path: "/body/products/0/purchasePrice", code: "multipleOf", message: "at most two decimals" },
    { path: "/body/expected_at_wh", code: "format", message: "must be a real calendar date (YYYY-MM-DD)" },
    { path: "/body/method", code: "unique", message: "pickup already has a price list" },
    { path: "/query/cart_value", code: "multipleOf", message: "at most two decimals" },
    { path: "/body/price_lists/1/method", code: "unique", message: "a second draft for pickup" },
    { path: "/body/pricing_rules/0/criteria/0/fact", code: "unknown_fact", message: 'unknown fact "x"' },
    { path: "/body/pricing_rules/0/criteria/1/op", code: "enum", message: 'unknown operator "~"' },
    { path: "/body/pricing_rules/0/criteria/1/op", code: "operator_not_applicable", message: "< cannot apply" },
    { path: "/body/pricing_rules/0/criteria/0/value", code: "type", message: "< compares numbers" },
    {
      path: "/body/modification_rules/2/criteria/0/value/3",
      code: "pattern",
      message: 'must match pattern "^[a-z]{2}"',
    },
    { path: "/", code: "too_large", message: "a price list holds at most 2000 criterion values in all" },
    { path: "/body/price_lists/0", code: "too_large", message: "a price list is at most 131072 bytes of JSON" },
    { path: "/body/tax", code: "decimals", message: "must have at most two decimals" },
    { path: "/body/modification_rules/0/amount", code: "minimum", message: "a multiply factor must be >= 0" },
    { path: "/body/origins/1", code: "origin", message: "write it as a browser sends it: https://a.example" },
    { path: "/body/email", code: "unique", message: "already taken" },
    { path: "merchant_id", code: "pattern", message: "letters, digits, dots and hyphens, at most 100" },
    { path: "email", code: "format", message: "not an email address" },
    { path: "password", code: "length", message: "10 to 256 characters" },
    ...["quote_invalid", "quote_expired", "quote_not_yours", "quote_facts", "quote_destination"].map((code) => ({
      path: "/body/quote",
      code,
      message: "the quote is for home",
    })),
    ...["invalid_url", "unsupported_scheme", "credentials_in_url", "missing_host", "destination_not_allowed"].map(
      (code) => ({ path: "/body/url", code, message: "host 10.0.0.1 is a private address" }),
    ),
    { path: "/status", code: "confirmed", message: "current status is confirmed" },
    { path: "/body/current_password", code: "wrong_password", message: "not the current password" },
    { path: "/body/new_password", code: "unchanged", message: "the same password" },
    { path: "/body/role", code: "last_admin", message: "the last admin" },
    { path: "/path/user_id", code: "last_admin", message: "the last admin" },
    { path: "/params/webhook_id", code: "pattern", message: 'must match pattern "^[0-9a-f]{24}$"' },
    { path: "/headers/idempotency-key", message: "already used with another request body or operation" },
    { path: "/body/tags/2", code: "maxLength", message: "must NOT have more than 50 characters" },
    { path: "/body/weird_property", code: "additionalProperties", message: 'unknown property "weird_property"' },
    { path: "/body/" + "x".repeat(480) + "...", code: "additionalProperties", message: "unknown property" },
  ];

  it("of the service's own checks, in plain words", () => {
    for (const detail of REAL)
      for (const lang of LANGS) expectPlain(fieldMessage(lang, detail), `${lang} ${detail.path} ${detail.code}`);
  });

  it("of every detail code on any field, in plain words", () => {
    const paths = [
      "/body/name",
      "/body/products/1/gtin",
      "/body/tags/2",
      "/query/limit",
      "/body/settings/letter/max_weight_g",
    ];
    for (const code of DETAIL_CODES)
      for (const p of paths)
        for (const lang of LANGS)
          expectPlain(fieldMessage(lang, { path: p, code, message: "" }), `${lang} ${p} ${code}`);
  });

  it("name the field and its place, with the spec's limits", () => {
    const en = (path: string, code: string, form?: Form, message = "") =>
      fieldMessage("en", { path, code, message }, form);
    expect(en("/body/products/1/name", "maxLength", "createInboundShipment")).toBe(
      "Product 2: The name is too long: use at most 200 characters.",
    );
    expect(en("/body/products/0/merchants_id", "required", "createInboundShipment")).toBe(
      "Product 1: Enter the product code.",
    );
    expect(en("/body/products/0/gtin", "pattern", "createInboundShipment")).toBe(
      "Product 1: A GTIN has 8, 12, 13 or 14 digits: check the number.",
    );
    expect(en("/body/products/0/gtin", "gtin")).toBe(
      "Product 1: The GTIN's last digit does not match the others: check the number.",
    );
    expect(en("/body/products/2/purchasePrice", "multipleOf")).toBe(
      "Product 3: Use at most two decimals in the purchase price.",
    );
    expect(en("/body/email", "format", "createPortalUser")).toBe("Enter an email address like name@example.com.");
    expect(en("/body/password", "minLength", "createPortalUser")).toBe(
      "The password is too short: use at least 10 characters.",
    );
    expect(en("/body/password", "minLength", "createPortalSession")).toBe("Enter the password.");
    expect(en("/body/merchants_ref", "minLength", "createInboundShipment")).toBe("Enter your reference.");
    expect(en("/body/products", "minItems", "createInboundShipment")).toBe("Add at least one product.");
    expect(en("/body/products", "required", "createInboundShipment")).toBe("Add at least one product.");
    expect(en("/body/countries", "uniqueItems", "replaceShippingSettings")).toBe(
      "The same country is listed twice: remove the duplicate.",
    );
    expect(en("/body/letter/max_weight_g", "maximum", "replaceShippingSettings")).toBe(
      "Letter: The weight limit can be at most 5,000 g.",
    );
    expect(en("/body/tax", "maximum", "createPriceList")).toBe("The VAT rate can be at most 100%.");
    expect(en("/body/pricing_rules/2/criteria/0/value/1", "maxLength", "createPriceList")).toBe(
      "Pricing rule 3, condition 1: Value 2 is too long: use at most 200 characters.",
    );
    expect(
      en(
        "/body/price_lists/0/modification_rules/1/amount",
        "minimum",
        "previewShippingOptions",
        "a multiply factor must be >= 0",
      ),
    ).toBe("Price list 1, price change 2: The amount must be at least 0.");
    expect(en("/body/basic_auth/username", "pattern", "createWebhookEndpoint")).toBe(
      "Endpoint sign-in: The user name cannot contain a colon (:) or line breaks.",
    );
    expect(en("/body/origins/1", "pattern", "createPublishableKey")).toBe(
      "Enter only the web shop's address, like https://shop.example.com: no path and no slash at the end.",
    );
    expect(en("/query/limit", "maximum", "listInboundShipments")).toBe(
      "The number of rows per page can be at most 100.",
    );
    expect(en("/status", "en_route")).toBe("The shipment's status is now “On the way”.");
    expect(fieldMessage("fi", { path: "/body/products/1/name", code: "required", message: "" })).toBe(
      "Tuote 2: Anna nimi.",
    );
    expect(fieldMessage("sv", { path: "/body/products/1/name", code: "required", message: "" })).toBe(
      "Produkt 2: Fyll i namnet.",
    );
    expect(
      sp(fieldMessage("fi", { path: "/body/products/0/qty", code: "maximum", message: "" }, "createInboundShipment")),
    ).toBe("Tuote 1: Määrä on liian suuri: anna enintään 1 000 000.");
    expect(
      fieldMessage("sv", { path: "/body/countries", code: "maxItems", message: "" }, "replaceShippingSettings"),
    ).toBe("Högst 250 länder: ta bort några.");
  });
});

describe("an error answer", () => {
  it("becomes a sentence and messages by field", () => {
    const p = problemsIn(
      "en",
      {
        success: false,
        code: "validation_failed",
        message: "The request is not valid.",
        details: [
          { path: "/body/products/0/gtin", message: 'must match pattern "^(|\\d{8}|\\d{12,14})$"', code: "pattern" },
          { path: "/body/products/0/gtin", message: "GTIN check digit is wrong", code: "gtin" },
          { path: "/body/sender_name", message: "must NOT have fewer than 1 characters", code: "minLength" },
        ],
        details_total: 60,
        request_id: "r-1",
      },
      "createInboundShipment",
    );
    expect(p).toEqual({
      message:
        "Some details need fixing: see the marked fields. Only the first 50 of 60 problems are shown: fix them and save again to see the rest.",
      fields: {
        // The check digit of a GTIN of the wrong form is not a second problem of it.
        "/body/products/0/gtin": "Product 1: A GTIN has 8, 12, 13 or 14 digits: check the number.",
        "/body/sender_name": "Enter the sender's name.",
      },
      reference: "r-1",
    });
  });

  it("gives a field one message: each of its problems once, the most basic first, none that follows from another", () => {
    const answer = (details: { path: string; message: string; code: string }[], lang: Lang = "en") =>
      problemsIn(lang, { success: false, code: "validation_failed", details }, "createInboundShipment")!.fields;
    const code = "/body/products/0/merchants_id";
    // What the server answers for an empty product code: its minLength and its pattern (no spaces at the ends).
    const empty = [
      { path: code, message: "must NOT have fewer than 1 characters", code: "minLength" },
      { path: code, message: 'must match pattern "^\\S(.*\\S)?$"', code: "pattern" },
    ];
    expect(answer(empty)).toEqual({ [code]: "Product 1: Enter the product code." });
    expect(answer([...empty].reverse())).toEqual({ [code]: "Product 1: Enter the product code." });
    expect(answer(empty, "fi")[code]!.split(":")).toHaveLength(2);
    // Two problems of a value that is there: both, its size before its form, after one "Product 1:".
    const long = [
      { path: code, message: 'must match pattern "^\\S(.*\\S)?$"', code: "pattern" },
      { path: code, message: "must NOT have more than 100 characters", code: "maxLength" },
    ];
    expect(answer(long)).toEqual({
      [code]:
        "Product 1: The product code is too long: use at most 100 characters. Remove the spaces at the start and end of the product code.",
    });
  });

  it("says the status an action met, sign-in's refusal, and an unreachable service", () => {
    const state = problemsIn("sv", {
      success: false,
      code: "invalid_state",
      message: "Cannot confirm an inbound shipment in status en_route.",
      details: [{ path: "/status", message: "current status is en_route", code: "en_route" }],
    });
    expect(state).toEqual({
      message: "Det här går inte att göra i försändelsens nuvarande status. Försändelsens status är nu ”På väg”.",
      fields: {},
    });
    const signIn = { success: false, code: "unauthorized", message: "Wrong email or password.", details: [] };
    expect(problemsIn("fi", signIn, "createPortalSession")?.message).toBe("Sähköpostiosoite tai salasana on väärin.");
    expect(problemsIn("fi", signIn)?.message).toBe(
      "Et ole kirjautunut sisään, tai istuntosi on päättynyt: kirjaudu uudelleen.",
    );
    expect(problemsIn("en", new TypeError("Failed to fetch"))?.message).toBe(
      "The service cannot be reached: check your internet connection and try again.",
    );
    expect(problemsIn("en", "<html>")?.message).toBe(
      "The service gave an answer the portal did not understand: try again in a moment.",
    );
    expect(problemsIn("en", undefined)).toBeUndefined();
    expect(problemsIn("en", { code: "something_new", details: [] })?.message).toBe(CATALOGUES.en.answers.unknown);
  });
});

describe("price list rules", () => {
  it("read as sentences with units", () => {
    expect(describeCondition("en", "order.total_weight", ">", 10000)).toBe("Order weight is over 10 kg");
    expect(describeCondition("en", "order.total_weight", "<=", 500)).toBe("Order weight is at most 500 g");
    expect(describeCondition("en", "pup.branch", "==", "fi.posti")).toBe("Pickup point chain is Posti");
    expect(describeCondition("en", "pup.branch", "not_in", ["fi.posti", "fi.matkahuolto", "se.some_chain"])).toBe(
      "Pickup point chain is not Posti, Matkahuolto or Some chain",
    );
    expect(describeCondition("en", "pup.branch", "==", null)).toBe("No pickup point is chosen");
    expect(describeCondition("en", "customer.country", "in", ["FI", "SE"])).toBe(
      "Customer's country is Finland or Sweden",
    );
    expect(describeCondition("en", "order.tags", "contains", "vip")).toBe("The order has the tag “vip”");
    expect(describeCondition("en", "order.letter_possible", "==", false)).toBe("The order does not fit in a letter");
    expect(describeCondition("en", "order.shipping_type", "==", "pickup")).toBe("Delivery method is pickup point");
    expect(describeCondition("en", "customer.postalcode", "contains", "00")).toBe(
      "Customer's postal code contains “00”",
    );
    expect(describeCondition("en", "order.total_eur", ">=", 50)).toBe("Order value is at least €50.00");
    expect(describeCondition("fi", "order.total_weight", ">", 10000)).toBe("Tilauksen paino on yli 10 kg");
    expect(describeCondition("fi", "customer.country", "not_in", ["FI", "SE", "NO"])).toBe(
      "Asiakkaan maa ei ole mikään näistä: Suomi, Ruotsi, Norja",
    );
    expect(describeCondition("sv", "pup.branch", "==", "fi.posti")).toBe("Utlämningsställets kedja är Posti");
    expect(
      describeCriteria("en", [
        { fact: "order.total_weight", op: ">", value: 10000 },
        { fact: "customer.country", op: "==", value: "FI" },
      ]),
    ).toBe("Order weight is over 10 kg and customer's country is Finland");
    expect(describeCriteria("sv", [])).toBe("Alltid");
    expect(describeAdjustment("en", "multiply", 0.9)).toBe("Multiply by 0.9 (10% off)");
    expect(sp(describeAdjustment("fi", "add", -2))).toBe("Vähennä 2,00 €");
    expect(sp(describeAdjustment("sv", "set", 0))).toBe("Sätt priset till 0,00 €");
  });

  it("every fact with every operator it allows, in plain words", () => {
    // A value each fact can take; `contains` tests a substring of the fact as the merchant typed it.
    const sample: Record<keyof typeof FACT_KINDS, string | number | boolean> = {
      "pup.branch": "fi.posti",
      "customer.country": "FI",
      "customer.postalcode": "00100",
      "customer.address": "Mannerheimintie 1",
      "order.shipping_type": "pickup",
      "order.tags": "vip",
      "order.total_eur": 49.9,
      "order.letter_possible": true,
      "order.total_weight": 10000,
      "order.total_volume": 2.5,
      "order.item_count": 3,
      "order.item_article_count": 2,
    };
    for (const [fact, kind] of Object.entries(FACT_KINDS) as [
      keyof typeof FACT_KINDS,
      keyof typeof OPERATORS_BY_KIND,
    ][]) {
      for (const op of OPERATORS_BY_KIND[kind]) {
        const value =
          op === "in" || op === "not_in" ? [sample[fact] as string, "x"] : op === "contains" ? "posti" : sample[fact];
        for (const lang of LANGS) {
          const text = describeCondition(lang, fact, op, value);
          expectPlain(text, `${lang} ${fact} ${op}`);
          expectPlain(describeCheck(lang, { fact, op, value }, null), `${lang} check ${fact} ${op}`);
          if (lang !== "en") expect(text).not.toBe(describeCondition("en", fact, op, value));
        }
      }
    }
  });

  it("say a trace's steps", () => {
    const check = { fact: "order.total_weight", op: ">", value: 10000 } as const;
    expect(describeCheck("en", check, 1000)).toBe("Order weight is over 10 kg: no (it is 1 kg)");
    expect(describeCheck("fi", check, 1000)).toBe("Tilauksen paino on yli 10 kg: ei (se on 1 kg)");
    expect(describeCheck("sv", check, 1000)).toBe("Orderns vikt är över 10 kg: nej (värdet är 1 kg)");
    expect(describeCheck("en", { fact: "pup.branch", op: "==", value: "fi.posti" }, null)).toBe(
      "Pickup point chain is Posti: no (no pickup point is chosen)",
    );
    expect(describeCheck("en", { fact: "order.tags", op: "contains", value: "vip" }, [])).toBe(
      "The order has the tag “vip”: no (it has no tags)",
    );
    expect(describeCheck("en", check, 20000, true)).toBe("Order weight is over 10 kg: yes");

    const facts = {
      "pup.branch": "fi.matkahuolto",
      "customer.country": "FI",
      "customer.postalcode": "20780",
      "customer.address": null,
      "order.shipping_type": null,
      "order.tags": ["vip"],
      "order.total_eur": 40,
      "order.letter_possible": false,
      "order.total_weight": 1000,
      "order.total_volume": 0,
      "order.item_count": 2,
      "order.item_article_count": 0,
    } as const;
    const list = {
      id: null,
      name: "Pickup",
      pricing_rules: [
        { description: "Heavy", criteria: [check], price: 9.9 },
        {
          description: "Posti points are cheaper",
          criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }],
          price: 4.9,
        },
      ],
      modification_rules: [
        {
          description: "VIP",
          criteria: [{ fact: "order.tags", op: "contains", value: "vip" }],
          adjust: "add",
          amount: -1,
        },
        { criteria: [{ fact: "order.total_eur", op: ">=", value: 100 }], adjust: "set", amount: 0 },
      ],
    } as const;
    const trace = {
      base: { source: "fallback_price", rule_index: null, gross: 5.9 },
      pricing_rules: [
        { index: 0, matched: false, failed_criterion: 0 },
        { index: 1, matched: false, failed_criterion: 0 },
      ],
      modification_rules: [
        { index: 0, matched: true, failed_criterion: null, gross_after: 4.9 },
        { index: 1, matched: false, failed_criterion: 0 },
      ],
      rule_checks_omitted: 3,
    } as const;
    const input = { trace, list, facts, currency: "EUR" } as unknown as Parameters<typeof describeTrace>[1];
    expect(describeTrace("en", input)).toEqual([
      { kind: "fallback", text: "Base price €5.90: no pricing rule applied, so the default price is used" },
      {
        kind: "not_applied",
        text: "Pricing rule 1 “Heavy” did not apply",
        because: "Order weight is over 10 kg: no (it is 1 kg)",
      },
      {
        kind: "not_applied",
        text: "Pricing rule 2 “Posti points are cheaper” did not apply",
        because: "Pickup point chain is Posti: no (it is Matkahuolto)",
      },
      { kind: "applied", text: "Price change 1 “VIP” applied: the price is now €4.90" },
      {
        kind: "not_applied",
        text: "Price change 2 did not apply",
        because: "Order value is at least €100.00: no (it is €40.00)",
      },
      { kind: "omitted", text: "3 more checks are not shown" },
    ]);
    const matched = { ...trace, base: { source: "pricing_rule", rule_index: 1, gross: 4.9 } };
    expect(sp(describeTrace("fi", { ...input, trace: matched } as unknown as typeof input)[0]!.text)).toBe(
      "Perushinta 4,90 €: hinnoittelusääntö 2 ”Posti points are cheaper” täsmäsi",
    );
    for (const lang of LANGS)
      for (const step of describeTrace(lang, input)) {
        expectPlain(step.text, lang);
        if (step.because) expectPlain(step.because, lang);
      }
  });
});

describe("languages", () => {
  it("follow the browser's languages, English when none is Finnish or Swedish", () => {
    expect(pickLang(["fi-FI", "en"])).toBe("fi");
    expect(pickLang(["de-DE", "sv-SE", "en"])).toBe("sv");
    expect(pickLang(["en-US", "fi"])).toBe("en");
    expect(pickLang(["de", "fr"])).toBe("en");
    expect(pickLang([])).toBe("en");
    expect(pickLang(undefined)).toBe("en");
    expect(pickLocale(["sv-FI", "en"])).toEqual({ lang: "sv", locale: "sv-FI" });
    expect(pickLocale(["fi"])).toEqual({ lang: "fi", locale: "fi-FI" });
    expect(words(["sv-FI"]).t.methods.home).toBe("Hemleverans");
    expect(sp(words("fi").condition("order.total_weight", "<", 2500))).toBe("Tilauksen paino on alle 2,5 kg");
  });

  it("format dates, days, money and weights in the locale", () => {
    const at = "2025-03-31T12:05:00Z";
    expect(sp(formatDate("fi", at))).toMatch(/^31\.3\.2025 klo \d{1,2}\.\d{2}$/);
    expect(sp(formatDate("en", at))).toMatch(/^31 Mar 2025, \d{2}:\d{2}$/);
    expect(sp(formatDate({ lang: "en", locale: "en-US" }, at))).toMatch(/^Mar 31, 2025, \d{1,2}:\d{2} [AP]M$/);
    expect(formatDate("sv", null)).toBe("—");
    expect(formatDate("sv", "not a date")).toBe("—");
    expect(formatDay("fi", "2025-03-31")).toBe("31.3.2025");
    expect(formatMoney("en", 5.9)).toBe("€5.90");
    expect(sp(formatMoney("fi", 1234.5))).toBe("1 234,50 €");
    expect(sp(formatMoney("sv", 5.9, "SEK"))).toBe("5,90 kr");
    expect(sp(formatWeight("sv", 12500))).toBe("12,5 kg");
  });

  it("Finnish and Swedish say it in their own words", () => {
    // One argument that every function of a catalogue takes: a Say, a list of parts, a number, a text.
    const sample = Object.assign(["A", "B"], {
      l: "X",
      L: "X",
      n: "5",
      count: 5,
      item: { title: "T", one: "o", many: "m" },
      type: "string",
    });
    const leaves = (v: unknown, at: string, out: Map<string, string>) => {
      if (typeof v === "string") out.set(at, v);
      else if (typeof v === "function") out.set(at, String((v as (...a: unknown[]) => unknown)(sample, sample)));
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) leaves(x, `${at}.${k}`, out);
      return out;
    };
    const en = leaves(CATALOGUES.en, "", new Map());
    // Names that are the same word in the other language ("OK" is Finnish and Swedish too), and brand names (Shopify).
    // A product's GTIN, the preview's example tags, milliseconds and, in Swedish, Status and Webhooks too.
    const SAME = (lang: Lang) =>
      new Set([
        ".items.status.title",
        ".none",
        ".where",
        ".station.ok",
        ".shopify.title",
        ".shipments.gtin",
        ".pricingPage.tagsExample",
        ".webhooks.milliseconds",
        ".webhooks.sentAt", // a time alone after a first try
        ...(lang === "sv"
          ? [".common.areas.webhooks", ".webhooks.title", ".webhooks.status", ".shipments.status", ".checkout.status"]
          : []),
      ]);
    for (const lang of ["fi", "sv"] as Lang[]) {
      const shared = SAME(lang);
      const other = leaves(CATALOGUES[lang], "", new Map());
      expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
      const same = [...en].filter(([k, v]) => other.get(k) === v && !shared.has(k)).map(([k]) => k);
      expect(same, lang).toEqual([]);
      for (const [k, v] of other) expect(v.trim(), `${lang}${k}`).not.toBe("");
    }
  });

  it("every sentence of every catalogue is plain", () => {
    for (const lang of LANGS) {
      const t = CATALOGUES[lang];
      for (const table of [
        t.answers,
        t.signIn,
        t.fields,
        t.methods,
        t.unavailable,
        t.statuses,
        t.actions,
        t.problemTypes,
        t.deliveryStatuses,
        t.failureClasses,
        t.eventTypes,
        t.roles,
        t.operators,
        t.adjust,
      ] as Record<string, string>[])
        for (const [k, v] of Object.entries(table)) expectPlain(v, `${lang} ${k}`);
      for (const [k, f] of Object.entries(t.facts))
        expectPlain(
          Object.values(f)
            .filter((x) => typeof x === "string")
            .join(" "),
          `${lang} ${k}`,
        );
    }
  });
});
