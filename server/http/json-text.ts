// Checks of a JSON request body that JSON.parse cannot make: one iterative walk of the parsed value
// (depth, NUL, unpaired surrogates) and duplicate keys, looked for only when the text may have them.
import { visit } from "jsonc-parser";
import type { ErrorDetail } from "../shared/errors.ts";

/** Deeper than any body of the spec; deeper input would only feed recursive code further on. */
export const MAX_DEPTH = 32;
const MAX_DETAILS = 20;
// Node 20 has String.prototype.isWellFormed; TypeScript's lib here predates it.
type WellFormed = string & { isWellFormed(): boolean };

const pointer = (parts: readonly (string | number)[]) =>
  parts.map((p) => `/${String(p).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");

/** Every string of `value` (keys too) is free of NUL and of unpaired UTF-16 surrogates; nesting is bounded. */
export function checkParsed(
  value: unknown,
  root: string,
): { details: ErrorDetail[]; keys: number; colonsInStrings: number } {
  const details: ErrorDetail[] = [];
  let keys = 0;
  let colonsInStrings = 0;
  const checkString = (s: string, at: () => string) => {
    if (s.includes("\u0000"))
      details.push({ path: at(), message: "must not contain the NUL character (\\u0000)", code: "nul" });
    else if (!(s as WellFormed).isWellFormed())
      details.push({ path: at(), message: "contains an unpaired UTF-16 surrogate (broken text)", code: "unicode" });
    for (let i = s.indexOf(":"); i !== -1; i = s.indexOf(":", i + 1)) colonsInStrings++;
  };
  // An explicit stack instead of recursion, so that no input can overflow the call stack. Entries
  // link to their parent: a path is spelled out only for a finding.
  interface Node {
    v: unknown;
    key: string | number;
    parent: Node | undefined;
    depth: number;
  }
  const pathOf = (n: Node): string => {
    const parts: (string | number)[] = [];
    for (let p = n; p?.parent; p = p.parent) parts.push(p.key);
    return root + pointer(parts.reverse());
  };
  const stack: Node[] = [{ v: value, key: "", parent: undefined, depth: 0 }];
  while (stack.length && details.length < MAX_DETAILS) {
    const node = stack.pop()!;
    const v = node.v;
    // Keys are checked as their values are reached, so that findings come in document order.
    if (typeof node.key === "string" && node.parent) checkString(node.key, () => pathOf(node));
    if (typeof v === "string") {
      checkString(v, () => pathOf(node));
    } else if (v !== null && typeof v === "object") {
      if (node.depth >= MAX_DEPTH) {
        details.push({ path: pathOf(node), message: `nested deeper than ${MAX_DEPTH} levels`, code: "depth" });
        break;
      }
      const depth = node.depth + 1;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], key: i, parent: node, depth });
      } else {
        const ks = Object.keys(v);
        keys += ks.length;
        for (let i = ks.length - 1; i >= 0; i--)
          stack.push({ v: (v as Record<string, unknown>)[ks[i]!], key: ks[i]!, parent: node, depth });
      }
    }
  }
  return { details, keys, colonsInStrings };
}

/**
 * JSON.parse keeps the last of two equal keys. Every ':' of the text is a key separator or inside a
 * string; without an escaped colon (\u003a) the text has more colons than the parsed value accounts
 * for exactly when a key was dropped. Only then is the text scanned to name the duplicate.
 */
export function mayHaveDuplicateKeys(text: string, keys: number, colonsInStrings: number): boolean {
  let colons = 0;
  for (let i = text.indexOf(":"); i !== -1; i = text.indexOf(":", i + 1)) colons++;
  return colons !== keys + colonsInStrings || /\\u003a/i.test(text);
}

export function findDuplicateKeys(text: string, root: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const open: Set<string>[] = [];
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (name, _offset, _length, _line, _char, pathSupplier) => {
      const seen = open[open.length - 1]!;
      if (seen.has(name) && details.length < MAX_DETAILS) {
        details.push({
          path: root + pointer([...pathSupplier(), name]),
          message: "this key appears more than once in its object",
          code: "duplicate_key",
        });
      }
      seen.add(name);
    },
  });
  return details;
}
