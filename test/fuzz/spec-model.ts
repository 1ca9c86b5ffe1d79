// What the fuzzer knows, all read from generated/openapi.json and the operation registry: operations,
// their parameters, bodies, examples, roles and declared responses, with every $ref resolved.
import { readFileSync } from "node:fs";
import { IMPLEMENTED } from "../../server/handlers.ts";

export type Schema = Record<string, any>;

export interface Param {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
  style?: string;
  explode?: boolean;
}

export interface Operation {
  operationId: string;
  method: string;
  /** Path template relative to the base path, e.g. /inbound_shipments/{shipment_id}. */
  path: string;
  params: Param[];
  /** The JSON body schema, when the operation takes a body. */
  body?: Schema;
  bodyExamples: unknown[];
  /** Roles of the spec's security requirements: merchant, warehouse. */
  roles: string[];
  /** The security schemes that may authenticate it (basicAuth, cookieAuth, stationCookieAuth, publishableKey). */
  schemes: string[];
  /** Declared statuses, with the JSON schema of each (absent when the response has no JSON body). */
  responses: Map<number, Schema | undefined>;
  /** Declared statuses whose answer is a page (text/html: the receiving label), not JSON. */
  pages: Set<number>;
  implemented: boolean;
}

export const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export function loadSpec(file = "generated/openapi.json") {
  const doc = JSON.parse(readFileSync(file, "utf8")) as Schema;
  const seen = new Map<string, unknown>();
  // Resolves local $refs; the result shares resolved subtrees (the spec has no recursive schemas).
  const deref = (node: unknown, depth = 0): any => {
    if (depth > 60) throw new Error("spec too deep or recursive");
    if (Array.isArray(node)) return node.map((n) => deref(n, depth + 1));
    if (!node || typeof node !== "object") return node;
    const ref = (node as Schema).$ref as string | undefined;
    if (ref) {
      if (!seen.has(ref)) {
        const target = ref
          .replace(/^#\//, "")
          .split("/")
          .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
          .reduce<any>((o, k) => o?.[k], doc);
        if (target === undefined) throw new Error(`unresolved ${ref}`);
        seen.set(ref, deref(target, depth + 1));
      }
      // Siblings of $ref (OpenAPI 3.1 allows them, e.g. a description) are kept beside the target.
      const { $ref: _, ...siblings } = node as Schema;
      return Object.keys(siblings).length
        ? { ...(seen.get(ref) as Schema), ...deref(siblings, depth + 1) }
        : seen.get(ref);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(v, depth + 1)]));
  };

  const implemented = IMPLEMENTED;
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths as Record<string, Schema>)) {
    const item = deref(rawItem) as Schema;
    for (const method of METHODS) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const params: Param[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const json = op.requestBody?.content?.["application/json"];
      const responses = new Map<number, Schema | undefined>();
      const pages = new Set<number>();
      for (const [status, r] of Object.entries(op.responses as Record<string, Schema>)) {
        responses.set(Number(status), r.content?.["application/json"]?.schema);
        if (r.content?.["text/html"]) pages.add(Number(status));
      }
      const examples = [
        json?.example,
        ...Object.values((json?.examples ?? {}) as Record<string, { value: unknown }>).map((e) => e.value),
      ].filter((e) => e !== undefined);
      operations.push({
        operationId: op.operationId,
        method,
        path,
        params,
        body: json?.schema,
        bodyExamples: examples,
        roles: ((op.security ?? doc.security) as { basicAuth?: string[] }[]).flatMap((s) => s.basicAuth ?? []),
        schemes: [...new Set(((op.security ?? doc.security) as Record<string, string[]>[]).flatMap(Object.keys))],
        responses,
        pages,
        implemented: implemented.has(op.operationId),
      });
    }
  }
  return { doc, deref, operations, errorSchema: deref({ $ref: "#/components/schemas/Error" }) as Schema };
}

export type SpecModel = ReturnType<typeof loadSpec>;

/** The operation a method and concrete path reach, if any (what the server will match). */
export function operationAt(ops: Operation[], method: string, path: string): Operation | undefined {
  const m = method === "head" ? "get" : method;
  // The most literal template wins (/inbound_shipments/_create over /{shipment_id}), whatever the method.
  const literals = (t: string) => t.split("/").filter((x) => x && !x.startsWith("{")).length;
  const templates = [...new Set(ops.map((o) => o.path))]
    .filter((t) => templateRegex(t).test(path))
    .sort((a, b) => literals(b) - literals(a));
  return templates.length ? ops.find((o) => o.path === templates[0] && o.method === m) : undefined;
}

const regexCache = new Map<string, RegExp>();
function templateRegex(template: string): RegExp {
  let re = regexCache.get(template);
  if (!re) {
    re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    regexCache.set(template, re);
  }
  return re;
}
