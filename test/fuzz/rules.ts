// Requests that break exactly one of the service's value rules beyond plain JSON Schema types: query numbers
// that are not decimal literals, country and currency codes that are not ISO, VAT with more than two
// decimals. Everything else is valid, so the answer must be 400 validation_failed naming that place.
import type { FuzzRequest } from "./generate.ts";
import type { Operation, Param, Schema } from "./spec-model.ts";

/** What a request breaking one rule must get. */
export interface Expectation {
  status: number;
  code: string;
  path: string;
}

export type RuleRequest = FuzzRequest & { expect: Expectation };

// Each is refused by the strict query numbers: only -?digits(.digits)? without leading zeros.
export const ODD_NUMBER_LITERALS = [
  "Infinity",
  "-Infinity",
  "1e309",
  "1e3",
  "0x10",
  "0b11",
  "0o7",
  "",
  " ",
  "NaN",
  "1_000",
  "--1",
  "+5",
  "05",
  ".5",
  "5.",
  "\u0661\u0662",
  "1,5",
  "0.1.2",
];
export const NOT_COUNTRIES = ["XX", "ZZ", "UK", "fi", "Fi", "EU", "F", "FIN", "AA", "QZ"];
export const NOT_CURRENCIES = ["ZZZ", "eur", "EU", "EURO", "BTC", "E", "QQQ"];
export const OVER_PRECISE_VAT = [25.123456789, 24.001, 10.125, 0.001];

type Kind = "country" | "currency" | "tax";

/** The places of an example body whose schema is a country or currency code, or a VAT rate. */
function codePlaces(
  schema: Schema | undefined,
  value: unknown,
  at: (string | number)[] = [],
): { at: (string | number)[]; kind: Kind }[] {
  if (!schema || value === undefined || value === null) return [];
  const enumOf = (schema.enum ?? []) as unknown[];
  if (enumOf.includes("FI") && enumOf.includes("SE")) return [{ at, kind: "country" }];
  if (enumOf.includes("EUR") && enumOf.includes("SEK")) return [{ at, kind: "currency" }];
  if (at[at.length - 1] === "tax" && typeof value === "number") return [{ at, kind: "tax" }];
  const alts = (schema.oneOf ?? schema.anyOf ?? schema.allOf) as Schema[] | undefined;
  if (alts)
    return alts
      .flatMap((s) => codePlaces(s, value, at))
      .filter((p, i, all) => all.findIndex((q) => q.at.join("/") === p.at.join("/")) === i);
  if (Array.isArray(value) && schema.items)
    return value.flatMap((v, i) => codePlaces(schema.items as Schema, v, [...at, i]));
  if (typeof value === "object" && schema.properties) {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      codePlaces((schema.properties as Record<string, Schema>)[k], v, [...at, k]),
    );
  }
  return [];
}

function setAt(base: unknown, at: (string | number)[], x: unknown): unknown {
  if (!at.length) return x;
  const [head, ...rest] = at;
  if (Array.isArray(base)) return base.map((v, i) => (i === head ? setAt(v, rest, x) : v));
  return { ...(base as Record<string, unknown>), [head!]: setAt((base as Record<string, unknown>)[head!], rest, x) };
}

const isNumberParam = (p: Param) => p.in === "query" && (p.schema.type === "number" || p.schema.type === "integer");

/** A value for a required query parameter that the service accepts (the spec's example or a known-good one). */
function goodQueryValue(p: Param): string {
  const s = p.schema;
  const example = (s.examples as unknown[] | undefined)?.[0] ?? s.example ?? p.schema.default;
  if (example !== undefined) return String(example);
  if (p.name === "postalcode") return "20780";
  if (p.name === "country") return "FI";
  if (s.enum) return String((s.enum as unknown[])[0]);
  if (s.type === "number" || s.type === "integer") return String(s.minimum ?? 1);
  return "x";
}

/** Every rule-breaking request for `op`: each odd literal in each number parameter, each bad code in each place. */
export function ruleCasesFor(op: Operation): RuleRequest[] {
  const who = op.roles.includes("merchant") ? "merchant" : "operator";
  const pathParams = Object.fromEntries(
    op.params.filter((p) => p.in === "path").map((p) => [p.name, { pool: p.name, index: 0 }]),
  );
  const required = op.params.filter((p) => p.in === "query" && p.required);
  const example = op.bodyExamples[0];
  const make = (query: [string, string][], body: unknown, mutation: string, path: string): RuleRequest => ({
    operationId: op.operationId,
    method: op.method,
    who,
    path: pathParams,
    query,
    headers: {},
    ...(body !== undefined && { body: JSON.stringify(body), contentType: "application/json" }),
    mutation: `rule: ${mutation}`,
    expect: { status: 400, code: "validation_failed", path },
  });
  const cases: RuleRequest[] = [];
  for (const p of op.params.filter(isNumberParam)) {
    const others = required
      .filter((r) => r.name !== p.name)
      .map((r) => [r.name, goodQueryValue(r)] as [string, string]);
    for (const v of ODD_NUMBER_LITERALS)
      cases.push(make([...others, [p.name, v]], example, `query ${p.name}=${JSON.stringify(v)}`, `/query/${p.name}`));
  }
  if (op.body && example !== undefined) {
    const query = required.map((r) => [r.name, goodQueryValue(r)] as [string, string]);
    for (const place of codePlaces(op.body, example)) {
      const bad: unknown[] =
        place.kind === "country" ? NOT_COUNTRIES : place.kind === "currency" ? NOT_CURRENCIES : OVER_PRECISE_VAT;
      const pointer = `/body/${place.at.join("/")}`;
      for (const v of bad)
        cases.push(make(query, setAt(example, place.at, v), `${pointer}=${JSON.stringify(v)}`, pointer));
    }
  }
  return cases;
}
