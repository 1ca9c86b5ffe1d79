// The validator is given the spec as it is, not bundled again at every start (server/http/validator.ts; our patch
// of express-openapi-validator adds the "none" mode). That is safe only while bundling it again would change nothing:
// this asks the validator's own reference parser, the version it would have used.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { specDocument } from "../../server/shared/spec-document.ts";

const fromValidator = createRequire(createRequire(import.meta.url).resolve("express-openapi-validator"));
const $RefParser = fromValidator("@apidevtools/json-schema-ref-parser") as {
  bundle(doc: object): Promise<object>;
};

describe("the spec document given to the validator", () => {
  it("is already bundled: bundling it again gives the same document", async () => {
    const doc = structuredClone(specDocument()) as object;
    expect(await $RefParser.bundle(structuredClone(doc))).toEqual(doc);
  });

  it("refers only within itself", () => {
    const refs = JSON.stringify(specDocument()).match(/"\$ref":"[^"]*"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((r) => !r.startsWith('"$ref":"#/'))).toEqual([]);
  });
});
