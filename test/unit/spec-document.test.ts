// The parsed spec is kept as JSON beside node_modules by the YAML's hash: an edited spec must never be served
// from the cache of the old one, and a broken or unwritable cache only costs the parse.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCached, specDocument } from "../../server/shared/spec-document.ts";
import { spec } from "../helpers/spec.ts";

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "spec-cache-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the spec's parse cache", () => {
  it("is the same document as parsing the YAML", () => {
    expect(specDocument()).toEqual(spec);
  });

  it("writes the cache on the first parse, reads it on the next, and parses again when the YAML changes", () => {
    const file = path.join(scratch(), "cache", "openapi.json");
    expect(parseCached("a: 1\n", file)).toEqual({ a: 1 });
    const written = JSON.parse(readFileSync(file, "utf8")) as { hash: string; spec: unknown };
    expect(written.spec).toEqual({ a: 1 });
    // A cache entry for this text is used as it is (here deliberately different from the text).
    writeFileSync(file, JSON.stringify({ ...written, spec: { from: "cache" } }));
    expect(parseCached("a: 1\n", file)).toEqual({ from: "cache" });
    expect(parseCached("a: 2\n", file)).toEqual({ a: 2 });
    expect(JSON.parse(readFileSync(file, "utf8")).spec).toEqual({ a: 2 });
  });

  it("ignores a corrupt cache and still parses when the cache cannot be written", () => {
    const dir = scratch();
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, "{ half a fil");
    expect(parseCached("b: [1, 2]\n", file)).toEqual({ b: [1, 2] });
    const readOnly = path.join(scratch(), "ro");
    writeFileSync(readOnly, "not a directory");
    chmodSync(readOnly, 0o400);
    expect(parseCached("c: true\n", path.join(readOnly, "openapi.json"))).toEqual({ c: true });
  });
});
