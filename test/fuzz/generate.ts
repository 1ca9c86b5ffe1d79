// Requests for any operation of the spec: valid ones built from examples and schemas, and mutations
// of them (types, boundaries, sizes, nesting, odd text, missing and extra fields, duplicate keys,
// bad ids, query and header changes, methods, content types, credentials).
import fc from "fast-check";
import { METHODS, type Operation, type Param, type Schema } from "./spec-model.ts";

export type Who = "merchant" | "otherMerchant" | "operator" | "none" | "wrongSecret" | "garbage";

/** A path parameter: an id from the pool of created resources, or a literal. */
export type PathValue = { pool: string; index: number } | { literal: string };

export interface FuzzRequest {
  operationId: string;
  method: string;
  who: Who;
  path: Record<string, PathValue>;
  query: [string, string][];
  headers: Record<string, string>;
  /** Raw body bytes (as text or bytes), absent for none. */
  body?: string | number[];
  contentType?: string;
  /** What was changed from a valid request, for the failure report. */
  mutation: string;
}

const NOW = Date.now();
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const isoDate = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const isoTs = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "+00:00");
const dates = fc.date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(NOW - 60_000), noInvalidDate: true });

const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\ud83d\ude00",
  "\u202e\u202d",
  "\ufeff",
  "e\u0301",
  "\uffff",
  "\ufffd",
  "\u0085\u2028\u2029",
  "'; drop table merchants; --",
  "%00",
  "../../etc/passwd",
  "<script>",
  "${x}",
  "{{x}}",
  "\\",
  '"',
  "ä".repeat(300),
];
const BOUNDARY_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1e-9,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  1_000_000,
  1_000_001,
  -1_000_001,
  100000.001,
];

const oddString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 300_000 }).map((n) => "x".repeat(n)) },
);
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(...BOUNDARY_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  oddString,
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const deepValue = fc
  .integer({ min: 20, max: 5_000 })
  .chain((n) =>
    fc.constantFrom({ __raw: `${"[".repeat(n)}${"]".repeat(n)}` }, { __raw: `${'{"a":'.repeat(n)}1${"}".repeat(n)}` }),
  );

/** A valid value of `schema` (the server's own rules beyond the schema may still refuse it). */
export function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 10) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const alts = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alts) return fc.oneof(...alts.map((s) => valid(s, depth + 1)));
  if (schema.allOf) return valid(Object.assign({}, ...(schema.allOf as Schema[]), { allOf: undefined }), depth + 1);
  const examples = (schema.examples as unknown[] | undefined) ?? (schema.example !== undefined ? [schema.example] : []);
  const generated = bySchemaType(schema, depth);
  return examples.length
    ? fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...examples) }, { weight: 2, arbitrary: generated })
    : generated;
}

function bySchemaType(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type)
    ? schema.type
    : [schema.type ?? (schema.properties ? "object" : schema.items ? "array" : "string")];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => bySchemaType({ ...schema, type: t }, depth)));
  const notConst = schema.not?.const;
  switch (type[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const a = fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
      return notConst === undefined ? a : a.filter((x) => x !== notConst);
    }
    case "number": {
      const min = schema.minimum ?? -1_000_000,
        max = schema.maximum ?? 1_000_000;
      return fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((c) => c / 100);
    }
    case "string":
      return stringOf(schema);
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3));
      const items = valid(schema.items, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
    }
    default: {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set<string>(schema.required ?? []);
      const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s, depth + 1)])), {
        requiredKeys: [...required].filter((k) => k in props),
      });
      if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
        const keys = schema.propertyNames ? stringOf(schema.propertyNames) : fc.string({ minLength: 1, maxLength: 10 });
        const dict = fc.dictionary(keys, valid(schema.additionalProperties, depth + 1), {
          minKeys: schema.minProperties ?? 0,
          maxKeys: Math.min(schema.maxProperties ?? 2, 2),
        });
        return fc.tuple(record, dict).map(([a, b]) => ({ ...b, ...a }));
      }
      // minProperties on an object of optional properties: pick one when none came out.
      const min = schema.minProperties ?? 0;
      return min > 0 && Object.keys(props).length ? record.filter((o) => Object.keys(o).length >= min) : record;
    }
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 40;
  const fits = (s: string) => s.length >= minLength && s.length <= maxLength;
  if (schema.format === "date") return dates.map(isoDate);
  if (schema.format === "date-time") return dates.map(isoTs);
  if (schema.format === "email") return fc.emailAddress().filter(fits);
  if (schema.format === "uri") {
    const re = schema.pattern ? new RegExp(schema.pattern) : /./;
    return fc.webUrl({ validSchemes: ["https", "http"] }).filter((u) => fits(u) && re.test(u));
  }
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern), { maxLength: Math.min(maxLength, 60) }).filter(fits);
    } catch {
      // A pattern fast-check cannot generate from: fall back to the examples.
      if (schema.examples?.length) return fc.constantFrom(...(schema.examples as string[]));
    }
  }
  return fc.string({ minLength, maxLength: Math.min(maxLength, 40) });
}

// ---- mutations of a JSON value ----

type Json = unknown;
function nodePaths(
  v: Json,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
  depth = 0,
): (string | number)[][] {
  out.push(prefix);
  if (depth > 12 || out.length > 300) return out;
  if (Array.isArray(v)) v.forEach((x, i) => nodePaths(x, [...prefix, i], out, depth + 1));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) nodePaths(x, [...prefix, k], out, depth + 1);
  return out;
}
function setAt(
  v: Json,
  path: (string | number)[],
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- names REMOVE for the reader
  f: (old: Json, parent: any, key: string | number) => Json | typeof REMOVE,
): Json {
  if (path.length === 0) {
    const r = f(v, undefined, "");
    return r === REMOVE ? undefined : r;
  }
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  const [k, ...rest] = path;
  if (rest.length === 0) {
    const r = f(copy[k!], copy, k!);
    if (r === REMOVE) {
      if (Array.isArray(copy)) copy.splice(k as number, 1);
      else delete copy[k!];
    } else copy[k!] = r;
  } else copy[k!] = setAt(copy[k!], rest, f);
  return copy;
}
const REMOVE = Symbol("remove");

/** JSON text of a value in which `{__raw}` objects are spliced in verbatim (deep nesting). */
function toText(v: Json): string {
  const raws: string[] = [];
  const text = JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && "__raw" in x ? `\u0001RAW${raws.push((x as { __raw: string }).__raw) - 1}\u0001` : x,
  );
  return text === undefined ? "" : text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

interface Mutated {
  text?: string;
  bytes?: number[];
  what: string;
}

function mutateValue(base: Json): fc.Arbitrary<Mutated> {
  const paths = nodePaths(base);
  const at = fc.constantFrom(...paths);
  const value = (what: string, arb: fc.Arbitrary<Json>) =>
    fc.tuple(at, arb).map(([p, x]) => ({ text: toText(setAt(base, p, () => x)), what: `${what} at /${p.join("/")}` }));
  return fc.oneof(
    value("wrong type or value", anyJson),
    value("boundary number", fc.constantFrom(...BOUNDARY_NUMBERS)),
    value("odd string", oddString),
    value("deep nesting", deepValue),
    at.map((p) => ({ text: toText(setAt(base, p, () => REMOVE)), what: `removed /${p.join("/")}` })),
    fc.tuple(at, fc.constantFrom("extra", "__proto__", "constructor", "qty ", "x\u0000"), anyJson).map(([p, k, x]) => ({
      text: toText(
        setAt(base, p, (old) => (old && typeof old === "object" && !Array.isArray(old) ? { ...old, [k]: x } : old)),
      ),
      what: `extra property ${JSON.stringify(k)} at /${p.join("/")}`,
    })),
  );
}

function mutateText(base: Json): fc.Arbitrary<Mutated> {
  const text = toText(base);
  const dupKey =
    base && typeof base === "object" && !Array.isArray(base) && Object.keys(base).length
      ? fc.constantFrom(...Object.keys(base)).chain((k) =>
          anyJson.map((x) => ({
            text: `{${JSON.stringify(k)}:${toText(x)},${text.slice(1)}`,
            what: `duplicate key ${k}`,
          })),
        )
      : fc.constant({ text, what: "unchanged" });
  return fc.oneof(
    dupKey,
    fc
      .integer({ min: 0, max: Math.max(0, text.length - 1) })
      .map((n) => ({ text: text.slice(0, n), what: `truncated at ${n}` })),
    fc
      .constantFrom("", "null", "0", '"s"', "[]", "{}", "[{}]", "\ufeff{}", "{} x", '{"a":1}}', "NaN", "{'a':1}")
      .map((t) => ({ text: t, what: `body ${JSON.stringify(t)}` })),
    fc.constant({ text: `\ufeff${text}`, what: "byte order mark" }),
    fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]).map((bad) => {
      const b = [...Buffer.from(text)];
      const i = Math.max(1, b.indexOf(0x22) + 1); // inside the first string
      return {
        bytes: [...b.slice(0, i), ...bad, ...b.slice(i)],
        what: `invalid UTF-8 ${bad.map((x) => x.toString(16)).join(" ")}`,
      };
    }),
    fc
      .integer({ min: 1_048_000, max: 1_100_000 })
      .map((n) => ({ text: `{"pad":"${"x".repeat(n)}"}`, what: `body of about ${n} bytes` })),
  );
}

// ---- whole requests ----

/** `arb` with the given probability, else null. */
const sometimes = <T>(arb: fc.Arbitrary<T>, p: number) =>
  fc.oneof(
    { weight: Math.round((1 - p) * 100), arbitrary: fc.constant(null) },
    { weight: Math.round(p * 100), arbitrary: arb },
  );

const ID_LIKE = fc.oneof(
  fc.stringMatching(/^[0-9a-f]{24}$/),
  fc.constantFrom(
    "abc",
    "0".repeat(23),
    "0".repeat(25),
    "ABCDEF0123456789ABCDEF01",
    "_create",
    "%00",
    "\u0000",
    "null",
    " ",
    "-1",
  ),
  oddString.filter((s) => s.length > 0 && s.length < 200),
);

function pathValue(p: Param): fc.Arbitrary<PathValue> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.nat().map((index) => ({ pool: p.name, index })) },
    // No "/" and no dot segments: fetch would resolve those into another path before sending.
    {
      weight: 2,
      arbitrary: ID_LIKE.filter((s) => !s.includes("/") && !/^(\.|%2e){1,2}$/i.test(s)).map((literal) => ({ literal })),
    },
    { weight: 1, arbitrary: valid(p.schema).map((x) => ({ literal: String(x) })) },
  );
}

const qsValue = (x: unknown) => (typeof x === "string" ? x : JSON.stringify(x));

function queryOf(op: Operation): fc.Arbitrary<{ q: [string, string][]; what?: string }> {
  const params = op.params.filter((p) => p.in === "query");
  const one = (p: Param) => {
    const v =
      p.schema.type === "array"
        ? fc
            .array(valid(p.schema.items), { minLength: 1, maxLength: 3 })
            .map((xs) => xs.map((x) => [p.name, qsValue(x)] as [string, string]))
        : valid(p.schema).map((x) => [[p.name, qsValue(x)]] as [string, string][]);
    return p.required ? v : fc.option(v, { nil: [] as [string, string][], freq: 2 });
  };
  const validQ = params.length
    ? fc.tuple(...params.map(one)).map((xs) => xs.flat())
    : fc.constant([] as [string, string][]);
  const names = params.map((p) => p.name);
  const mutation = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          "__proto__",
          "constructor",
          "toString",
          "colour",
          "a[b]",
          "",
          "LIMIT",
          ...names.map((n) => `${n}[]`),
        ),
        oddString.map((s) => s.slice(0, 200)),
      )
      .map(([k, v]) => ({ add: [[k, v]] as [string, string][], what: `query ${k}` })),
    ...(names.length
      ? [
          fc
            .tuple(
              fc.constantFrom(...names),
              fc.oneof(
                oddString.map((s) => s.slice(0, 2_000)),
                anyJson.map(qsValue),
              ),
            )
            .map(([k, v]) => ({ add: [[k, v]] as [string, string][], what: `query ${k} value` })),
        ]
      : []),
  );
  return fc
    .tuple(validQ, sometimes(mutation, 0.2))
    .map(([q, m]) => (m ? { q: [...q, ...m.add], what: m.what } : { q }));
}

function headersOf(op: Operation): fc.Arbitrary<{ h: Record<string, string>; what?: string }> {
  const idem = op.params.find((p) => p.in === "header" && /^idempotency-key$/i.test(p.name));
  const key = idem
    ? fc.option(
        fc.oneof(
          fc.constantFrom("fuzz-key-1", "fuzz-key-2"),
          fc.uuid(),
          fc.constantFrom("", " ", "k".repeat(256), "ä", "a b"),
        ),
        { freq: 2 },
      )
    : fc.constant(null);
  const extra = sometimes(
    fc.constantFrom<[string, string]>(
      ["X-Request-Id", "x".repeat(200)],
      ["X-Request-Id", "bad id"],
      ["Accept", "text/html"],
      ["Content-Encoding", "gzip"],
      ["Content-Encoding", "br"],
      ["Content-Encoding", "identity"],
      ["Authorization", "Basic"],
      ["Cookie", "a=b"],
    ),
    0.15,
  );
  return fc.tuple(key, extra).map(([k, e]) => {
    const h: Record<string, string> = {};
    if (k !== null && idem) h[idem.name] = k;
    if (e) h[e[0]] = e[1];
    // fetch cannot send values outside Latin-1; such keys become percent-escaped text.
    for (const [name, v] of Object.entries(h)) h[name] = /^[\x20-\x7e]*$/.test(v) ? v : encodeURIComponent(v);
    return { h, what: e ? `header ${e[0]}: ${e[1].slice(0, 20)}` : undefined };
  });
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/vnd.api+json",
  "application/json; charset=latin1",
];

function bodyOf(op: Operation): fc.Arbitrary<{ body?: string | number[]; contentType?: string; what?: string }> {
  if (!op.body) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant({}) },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom("{}", "[]", '{"a":1}', "x", "null")
          .map((b) => ({ body: b, contentType: "application/json", what: `body ${b}` })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...CONTENT_TYPES)
          .map((t) => ({ body: "payload", contentType: t, what: `body as ${t}` })),
      },
    );
  }
  const base = op.bodyExamples.length
    ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...op.bodyExamples) }, { weight: 2, arbitrary: valid(op.body) })
    : valid(op.body);
  return base.chain((b) =>
    fc.oneof(
      { weight: 10, arbitrary: fc.constant({ body: toText(b), contentType: "application/json" }) },
      {
        weight: 6,
        arbitrary: mutateValue(b).map((m) => ({ body: m.text, contentType: "application/json", what: m.what })),
      },
      {
        weight: 3,
        arbitrary: mutateText(b).map((m) => ({
          body: m.bytes ?? m.text,
          contentType: "application/json",
          what: m.what,
        })),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(undefined, ...CONTENT_TYPES)
          .map((t) => ({ body: toText(b), contentType: t, what: `content type ${t}` })),
      },
    ),
  );
}

function whoFor(op: Operation): fc.Arbitrary<Who> {
  const right: Who[] = op.roles.map((r) => (r === "warehouse" ? "operator" : "merchant"));
  return fc.oneof(
    { weight: 32, arbitrary: fc.constantFrom(...(right.length ? right : (["merchant"] as Who[]))) },
    { weight: 6, arbitrary: fc.constantFrom<Who>("merchant", "otherMerchant", "operator") },
    { weight: 2, arbitrary: fc.constantFrom<Who>("none", "garbage") },
    // A wrong secret costs a key derivation (about 0.1 s): rare.
    { weight: 1, arbitrary: fc.constant<Who>("wrongSecret") },
  );
}

export function requestFor(op: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const path = pathParams.length
    ? fc.tuple(...pathParams.map(pathValue)).map((vs) => Object.fromEntries(pathParams.map((p, i) => [p.name, vs[i]!])))
    : fc.constant({});
  const others = [...METHODS, "head", "options"].filter((m) => m !== op.method);
  const method = fc.oneof(
    { weight: 30, arbitrary: fc.constant(op.method) },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
  );
  return fc
    .record({ who: whoFor(op), path, q: queryOf(op), h: headersOf(op), b: bodyOf(op), method })
    .map(({ who, path, q, h, b, method }) => ({
      operationId: op.operationId,
      method,
      who,
      path,
      query: q.q,
      headers: h.h,
      body: b.body,
      contentType: b.contentType,
      mutation:
        [method !== op.method && `method ${method}`, who, q.what, h.what, b.what].filter(Boolean).join("; ") || "valid",
    }));
}
