// The server reads the committed bundle and serves it as JSON and as YAML: the YAML, written from the bundle,
// must be the same document to every reader, YAML 1.1 ones included (which take a bare NO or 2016-01-18 for a
// boolean or a date).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { specDocument, specYaml } from "../../server/shared/spec-document.ts";

describe("the spec document", () => {
  it("is generated/openapi.json", () => {
    expect(specDocument()).toEqual(JSON.parse(readFileSync("generated/openapi.json", "utf8")));
  });

  it("as YAML is the same document to a YAML 1.2 and a YAML 1.1 reader", () => {
    const text = specYaml();
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    expect(parse(text)).toEqual(specDocument());
    expect(parse(text, { version: "1.1" })).toEqual(specDocument());
    expect(specYaml()).toBe(text);
  });
});
