// Micro-costs of the JSON body checks (issue 6): JSON.parse alone against JSON.parse plus the one
// iterative walk (depth, NUL, surrogates, key count) and the colon count that decides whether the
// duplicate-key scan runs; and the scan itself when it does. `npm run bench -- body-checks`
import { performance } from "node:perf_hooks";
import { checkParsed, findDuplicateKeys, mayHaveDuplicateKeys } from "../../server/http/json-text.ts";

const small = JSON.stringify({
  merchants_ref: "PO-2016-0042",
  sender_name: "Acme Supplies Oy",
  products: [
    { merchants_id: "SKU-1001", name: "Blue T-shirt M", gtin: "6410405082657", qty: 10 },
    { merchants_id: "SKU-1002", name: "Blue T-shirt L", gtin: "", qty: 5 },
  ],
});
const lines = (n: number, name: (i: number) => string) =>
  JSON.stringify({
    merchants_ref: "PO-1",
    sender_name: "Acme: Supplies",
    products: Array.from({ length: n }, (_, i) => ({
      merchants_id: `SKU-${i}`,
      name: name(i),
      gtin: "6410405082657",
      qty: i + 1,
      purchasePrice: 12.5,
    })),
  });
// About 1 MB each: many small objects (the costly shape), and a few long strings.
const manyObjects = lines(9_000, (i) => `Product number ${i}: blue, size M`);
const longStrings = lines(4, () => "x".repeat(260_000));

function time(label: string, text: string, f: (t: string) => unknown, minMs = 400) {
  f(text); // warm-up
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    f(text);
    n++;
  }
  const us = ((performance.now() - start) / n) * 1000;
  console.log(`${label.padEnd(48)} ${(text.length / 1024).toFixed(0).padStart(5)} KB  ${us.toFixed(1).padStart(9)} µs`);
  return us;
}

const parseOnly = (t: string): unknown => JSON.parse(t);
const parseAndCheck = (t: string) => {
  const v: unknown = JSON.parse(t);
  const r = checkParsed(v, "/body");
  if (mayHaveDuplicateKeys(t, r.keys, r.colonsInStrings)) findDuplicateKeys(t, "/body");
  return v;
};

for (const [name, text] of [
  ["small (create example)", small],
  ["1 MB, 9,000 lines", manyObjects],
  ["1 MB, 4 long strings", longStrings],
] as const) {
  const a = time(`${name}: JSON.parse`, text, parseOnly);
  const b = time(`${name}: parse + walk + colon count`, text, parseAndCheck);
  time(`${name}: duplicate scan (jsonc-parser), if run`, text, (t) => findDuplicateKeys(t, "/body"));
  console.log(
    `${"".padEnd(48)} checks add ${(b - a).toFixed(1)} µs (${(((b - a) / a) * 100).toFixed(0)} % of JSON.parse)\n`,
  );
}
