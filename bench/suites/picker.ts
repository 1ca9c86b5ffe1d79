// `npm run bench -- picker`: the checkout picker's script as a shop's page loads it (/picker.js): its size as built
// by `npm run build`, and compressed as a proxy or CDN would send it (gzip -9 and Brotli); and the map's script
// (/picker-map.js), which has a budget of its own.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { buildPicker } from "../../tools/build-picker.mjs";
import { goal, writeResults, type ResultRow } from "../results.ts";

const startedAt = new Date();
const dir = mkdtempSync(path.join(tmpdir(), "logistics-bench-picker-"));
try {
  const file = path.join(dir, "picker.js");
  await buildPicker(file);
  const bytes = readFileSync(file);
  const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
  const size = kb(bytes.length);
  const map = readFileSync(path.join(dir, "picker-map.js"));
  const mapSize = kb(map.length);
  const mapGzip = kb(gzipSync(map, { level: 9 }).length);
  const rows: ResultRow[] = [
    {
      case: "picker.js, minified",
      target: "bundle",
      errors: 0,
      value: size,
      unit: "KB",
      ...goal(["<=", 16, " KB", size]),
    },
    {
      case: "picker.js, gzip -9",
      target: "bundle",
      errors: 0,
      value: kb(gzipSync(bytes, { level: 9 }).length),
      unit: "KB",
    },
    { case: "picker.js, Brotli", target: "bundle", errors: 0, value: kb(brotliCompressSync(bytes).length), unit: "KB" },
    // The map (Leaflet and its style sheet), loaded only when a shopper opens it: a budget of its own.
    {
      case: "picker-map.js, minified",
      target: "bundle",
      errors: 0,
      value: mapSize,
      unit: "KB",
      ...goal(["<=", 170, " KB", mapSize]),
    },
    {
      case: "picker-map.js, gzip -9",
      target: "bundle",
      errors: 0,
      value: mapGzip,
      unit: "KB",
      ...goal(["<=", 50, " KB", mapGzip]),
    },
  ];
  writeResults({
    suite: "picker",
    title: "Checkout picker bundle",
    startedAt: startedAt.toISOString(),
    seconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    rows,
    notes: [
      "picker.js: one script, no dependencies, built by esbuild from client/picker/ (tools/build-picker.mjs).",
      "picker-map.js: the map (Leaflet 1.9 and its style sheet), imported by picker.js only when a shopper opens the map, and only when the operator set PICKER_MAP_TILE_URL.",
    ],
    problems: [],
  });
  for (const r of rows) console.log(`${r.case}: ${r.value} ${r.unit}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
