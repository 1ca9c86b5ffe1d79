// Query numbers are decimal literals. The validator coerces query strings with Number(), which reads
// `0x10` as 16, `0b11` as 3, and `Infinity` or `1e309` as infinite (then counted as 0 downstream): a merchant's
// typo or a hostile value must be refused, not reinterpreted. The numeric parameters come from the spec.
import type { NextFunction, Request } from "express";
import type { ErrorDetail } from "../shared/errors.ts";
import { invalid } from "../shared/errors.ts";
import { specDocument } from "../shared/spec-document.ts";
import { matchedOperation, type Res } from "./express.ts";

const DECIMAL = /^-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,15})?$/;
const INTEGER = /^-?(0|[1-9][0-9]{0,14})$/;

interface Parameter {
  $ref?: string;
  name?: string;
  in?: string;
  schema?: Schema;
}
interface Schema {
  $ref?: string;
  type?: string | string[];
}
interface Spec {
  paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] } & Parameter[]>>;
  components: { parameters?: Record<string, Parameter>; schemas?: Record<string, Schema> };
}

const refName = (ref: string) => ref.split("/").pop()!;

/** operationId -> query parameter -> "integer" | "number", for every numeric query parameter of the spec. */
function numericQueryParameters(spec: Spec): Map<string, Map<string, "integer" | "number">> {
  const byOperation = new Map<string, Map<string, "integer" | "number">>();
  const param = (p: Parameter) => (p.$ref ? (spec.components.parameters?.[refName(p.$ref)] ?? {}) : p);
  const schema = (s: Schema | undefined) => (s?.$ref ? spec.components.schemas?.[refName(s.$ref)] : s);
  for (const item of Object.values(spec.paths)) {
    const shared = item.parameters ?? [];
    for (const [method, op] of Object.entries(item)) {
      if (method === "parameters" || !op.operationId) continue;
      const numeric = new Map<string, "integer" | "number">();
      for (const p of [...shared, ...(op.parameters ?? [])].map(param)) {
        const types = [schema(p.schema)?.type].flat();
        if (p.in !== "query" || !p.name) continue;
        if (types.includes("integer")) numeric.set(p.name, "integer");
        else if (types.includes("number")) numeric.set(p.name, "number");
      }
      if (numeric.size) byOperation.set(op.operationId, numeric);
    }
  }
  return byOperation;
}

export function strictQueryNumbers() {
  const numeric = numericQueryParameters(specDocument() as Spec);
  return (req: Request, _res: Res, next: NextFunction) => {
    const params = numeric.get(matchedOperation(req)?.operationId ?? "");
    if (params) {
      const details: ErrorDetail[] = [];
      for (const [name, kind] of params) {
        const raw = req.query[name];
        if (raw === undefined) continue;
        for (const v of Array.isArray(raw) ? raw : [raw]) {
          if (typeof v === "string" && !(kind === "integer" ? INTEGER : DECIMAL).test(v)) {
            details.push({
              path: `/query/${name}`,
              message:
                kind === "integer"
                  ? "must be a whole number in decimal digits, e.g. 10"
                  : "must be a decimal number such as 350 or 12.5 (no exponent, hex, Infinity or blank)",
              code: "type",
            });
          }
        }
      }
      if (details.length) throw invalid(details);
    }
    next();
  };
}
