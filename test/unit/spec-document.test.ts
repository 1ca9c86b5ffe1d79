// The server reads the committed bundle and serves it as JSON and as YAML: the YAML, written from the bundle,
// must be the same document to every reader, YAML 1.1 ones included (which take a bare NO or 2016-01-18 for a
// boolean or a date).
import express from "express";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { validator } from "../../server/http/validator.ts";
import { specDocument, specYaml } from "../../server/shared/spec-document.ts";

describe("the spec document", () => {
  it("is generated/openapi.json", () => {
    expect(specDocument()).toEqual(JSON.parse(readFileSync("generated/openapi.json", "utf8")));
  });

  it("is left as it is by the request validator, which rewrites a copy of its own", async () => {
    const before = structuredClone(specDocument());
    // One of its own, prepared here: the one every app of the process shares may have prepared in an earlier file.
    const checks = validator(undefined, undefined, { fresh: true });
    const app = express().use(...checks.match, checks.validate[0]!, (_req, res) => void res.json({}));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // The first request waits for the validator to be ready: its preparation has rewritten its document by then.
      const res = await fetch(`http://127.0.0.1:${port}/2015-01-01/pickup_points?postalcode=00100&country=FI`);
      expect(res.status).toBe(200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(specDocument()).toEqual(before);
  });

  it("as YAML is the same document to a YAML 1.2 and a YAML 1.1 reader", () => {
    const text = specYaml();
    expect(text).toMatch(/^openapi: 3\.1\.0$/m);
    expect(parse(text)).toEqual(specDocument());
    expect(parse(text, { version: "1.1" })).toEqual(specDocument());
    expect(specYaml()).toBe(text);
  });
});
