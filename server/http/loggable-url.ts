// What a request log may say of a request's URL: its path, and of its query only what cannot identify a shopper.
// Query strings carry postal codes, cart tags, searches (a name, an email); traces never held them, logs did. So a
// value is shown only where the spec's parameter of that name is closed: a number, a boolean, one of an enum, a
// date; and only when the value sent is of that form. Everything else, an unknown parameter too, is `***`: a new
// free-text parameter is hidden until its schema says it cannot hold a person's data.
import { specDocument } from "../shared/spec-document.ts";

export const HIDDEN = "***";

type Check = (value: string) => boolean;
interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  format?: string;
  items?: Schema;
}
interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  schema?: Schema;
}
interface Spec {
  paths: Record<string, Record<string, { parameters?: Parameter[] }> & { parameters?: Parameter[] }>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, Schema> };
}

const NUMBER = /^-?\d{1,15}(\.\d{1,6})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

/** The check of a closed schema's values, or undefined for one that can hold free text. */
function closedCheck(spec: Spec, schema: Schema | undefined): Check | undefined {
  if (!schema) return undefined;
  if (schema.$ref) return closedCheck(spec, spec.components.schemas[schema.$ref.split("/").pop()!]);
  if (schema.enum) {
    const values = new Set(schema.enum.map(String));
    return (v) => values.has(v);
  }
  if (schema.type === "array") return closedCheck(spec, schema.items);
  if (schema.type === "number" || schema.type === "integer") return (v) => NUMBER.test(v);
  if (schema.type === "boolean") return (v) => v === "true" || v === "false";
  if (schema.format === "date") return (v) => DATE.test(v);
  if (schema.format === "date-time") return (v) => DATE_TIME.test(v);
  return undefined;
}

let checks: Map<string, Check> | undefined;

/** Per query parameter name: its values' check, when every operation's parameter of that name is closed. */
function queryChecks(): Map<string, Check> {
  if (checks) return checks;
  const spec = specDocument() as Spec;
  const found = new Map<string, Check | undefined>();
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) {
      if (!op || typeof op !== "object" || Array.isArray(op)) continue;
      for (const declared of [...(op.parameters ?? []), ...(item.parameters ?? [])]) {
        const p = declared.$ref ? spec.components.parameters[declared.$ref.split("/").pop()!]! : declared;
        if (p.in !== "query") continue;
        const check = closedCheck(spec, p.schema);
        const before = found.get(p.name);
        // One free-text declaration of a name hides it everywhere; closed ones (`status` of shipments and of
        // deliveries) show a value of either.
        if (!found.has(p.name)) found.set(p.name, check);
        else if (!before || !check) found.set(p.name, undefined);
        else found.set(p.name, (v) => before(v) || check(v));
      }
    }
  }
  checks = new Map([...found].filter((e): e is [string, Check] => e[1] !== undefined));
  return checks;
}

const NAME = /^[A-Za-z0-9_.-]{1,40}$/;

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * The URL as sent, with every query value that could identify someone as `***` (and a parameter's name too when
 * it is not a plain name: `?jane@example.com`). The path stays as it is: it holds ids and the route.
 */
export function loggableUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const known = queryChecks();
  const parts = url
    .slice(at + 1)
    .split("&")
    .map((part) => {
      if (part === "") return part;
      const eq = part.indexOf("=");
      const rawName = eq < 0 ? part : part.slice(0, eq);
      const name = decoded(rawName);
      const shownName = name !== undefined && NAME.test(name) ? rawName : HIDDEN;
      if (eq < 0) return shownName;
      const value = decoded(part.slice(eq + 1));
      const check = name === undefined ? undefined : known.get(name);
      return `${shownName}=${value !== undefined && check?.(value) ? part.slice(eq + 1) : HIDDEN}`;
    });
  return `${url.slice(0, at)}?${parts.join("&")}`;
}
