// Validators compiled from the spec's own component schemas, for input that does not arrive through HTTP
// (CLI imports, demo data, price-list rule values), so that one definition decides what is valid.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { components } from "../../generated/api.ts";
import type { OperationId, QueryOf } from "./contract.ts";
import { specDocument } from "./spec-document.ts";

export type SchemaName = keyof components["schemas"];

let ajv: Ajv2020 | undefined;
const cache = new Map<string, ValidateFunction>();

/** OpenAPI 3.1 schemas are JSON Schema 2020-12; their refs point at `#/components/schemas/X`, here `#/$defs/X`. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === "$ref" && typeof value === "string"
        ? value.replace(/^#\/components\/schemas\//, "#/$defs/")
        : rewriteRefs(value);
  }
  return out;
}

function instance(): Ajv2020 {
  if (ajv) return ajv;
  const doc = specDocument() as { components: { schemas: Record<string, unknown> } };
  // allErrors: an import reports every bad field of a record, not only the first.
  // The spec's formats (email, date-time, uri) are not needed by these validators, so they are not checked here.
  ajv = new Ajv2020({ allErrors: true, strict: true, validateFormats: false });
  ajv.addVocabulary(["example"]); // OpenAPI annotation, not JSON Schema
  ajv.addSchema({ $id: "spec", $defs: rewriteRefs(doc.components.schemas) });
  return ajv;
}

/** A validator for a component schema, or for a JSON pointer inside one (`ShippingFacts/properties/order.tags`). */
export function specValidator(pointer: SchemaName | `${SchemaName}/${string}`): ValidateFunction {
  let fn = cache.get(pointer);
  if (!fn) {
    const ref =
      "spec#/$defs/" +
      pointer
        .split("/")
        .map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1")))
        .join("/");
    fn = instance().compile({ $ref: ref });
    cache.set(pointer, fn);
  }
  return fn;
}

/** The raw spec schema (after ref rewriting) of a component, e.g. to read a fact's declared type. */
export function specSchema(name: SchemaName): Record<string, unknown> {
  const schema = instance().getSchema("spec")?.schema as { $defs: Record<string, Record<string, unknown>> } | undefined;
  const found = schema?.$defs[name];
  if (!found) throw new Error(`no schema ${name} in the spec`);
  return found;
}

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
  schema?: { default?: unknown };
}

/**
 * The `default` the spec gives a query parameter of an operation: what the validator fills in when the parameter is
 * absent, for an input that has the same meaning but reaches a handler another way (a request body, say).
 */
export function queryDefault<Id extends OperationId, K extends keyof QueryOf<Id> & string>(
  operationId: Id,
  name: K,
): Required<QueryOf<Id>>[K] {
  const doc = specDocument() as {
    paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
    components: { parameters: Record<string, Parameter> };
  };
  for (const item of Object.values(doc.paths)) {
    const op = Object.values(item).find((o) => o.operationId === operationId);
    if (!op) continue;
    for (const p of [...((item.parameters as Parameter[] | undefined) ?? []), ...(op.parameters ?? [])]) {
      const param = p.$ref ? doc.components.parameters[p.$ref.split("/").pop()!] : p;
      if (param?.in === "query" && param.name === name && param.schema?.default !== undefined)
        return param.schema.default as Required<QueryOf<Id>>[K];
    }
  }
  throw new Error(`the spec gives ${operationId}'s query parameter ${name} no default`);
}

export interface SchemaProblem {
  /** JSON pointer inside the validated value, "" for the value itself. */
  path: string;
  message: string;
  code: string;
}

/**
 * Ajv errors as one problem per offending place. The branches of a failed `oneOf`/`anyOf` (which Ajv reports just
 * before it) fold into one message ("must be string or null"); a bad property name points at that property;
 * several problems of one place become one, their messages joined.
 */
export function schemaProblems(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  const problems: (SchemaProblem & { raw?: ErrorObject })[] = [];
  for (const e of errors ?? []) {
    if (e.keyword === "propertyNames") continue; // its cause carries `propertyName` and is reported below
    if (e.keyword === "oneOf" || e.keyword === "anyOf") {
      const branches = problems.filter((p) => p.raw && p.path === e.instancePath);
      for (const b of branches) problems.splice(problems.indexOf(b), 1);
      const specific = branches.filter((b) => b.code !== "type");
      const types = [...new Set(branches.filter((b) => b.code === "type").map((b) => String(b.raw!.params.type)))];
      const message =
        specific.length > 0
          ? specific.map((b) => b.message).join("; ")
          : types.length > 0
            ? `must be ${types.join(" or ")}`
            : (e.message ?? "is not valid");
      problems.push({ path: e.instancePath, message, code: specific[0]?.code ?? "type" });
      continue;
    }
    const propertyName = (e as ErrorObject & { propertyName?: string }).propertyName;
    let message = e.message ?? "is not valid";
    let where = e.instancePath;
    if (propertyName !== undefined) {
      where += "/" + propertyName.replace(/~/g, "~0").replace(/\//g, "~1");
      message = `property name ${JSON.stringify(propertyName)} ${message}`;
    }
    if (e.keyword === "additionalProperties")
      message = `unknown property ${JSON.stringify(e.params.additionalProperty)}`;
    if (e.keyword === "required") message = `${JSON.stringify(e.params.missingProperty)} is required`;
    if (e.keyword === "enum")
      message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    problems.push({ path: where, message, code: e.keyword, raw: e });
  }
  // One problem per place: an id both too short and off-pattern is one line with both reasons.
  const merged = new Map<string, SchemaProblem>();
  for (const { path, message, code } of problems) {
    const seen = merged.get(path);
    if (seen) seen.message += `; ${message}`;
    else merged.set(path, { path, message, code });
  }
  return [...merged.values()];
}
