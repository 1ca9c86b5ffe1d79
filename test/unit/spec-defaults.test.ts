// Query defaults are the spec's: the validator fills them in, handlers take what it filled, and the types that
// say so (DEFAULTED_QUERY_PARAMS) name exactly the query parameters that have a default wherever they appear.
import { describe, expect, it } from "vitest";
import { DEFAULTED_QUERY_PARAMS } from "../../server/shared/contract.ts";
import { queryDefault } from "../../server/shared/spec-schemas.ts";
import { specDocument } from "../../server/shared/spec-document.ts";

interface Param {
  $ref?: string;
  name?: string;
  in?: string;
  schema?: { default?: unknown };
}
const doc = specDocument() as {
  paths: Record<string, Record<string, { operationId?: string; parameters?: Param[] } | Param[]>>;
  components: { parameters: Record<string, Param> };
};
const resolve = (p: Param) => (p.$ref ? doc.components.parameters[p.$ref.split("/").pop()!]! : p);
const queryParams = Object.values(doc.paths).flatMap((item) =>
  Object.entries(item)
    .filter(([key]) => key !== "parameters")
    .flatMap(([, op]) => [
      ...((item.parameters as Param[] | undefined) ?? []),
      ...((op as { parameters?: Param[] }).parameters ?? []),
    ])
    .map(resolve)
    .filter((p) => p.in === "query"),
);

describe("query parameters with a spec default", () => {
  it("are exactly those DEFAULTED_QUERY_PARAMS names, wherever a parameter of that name appears", () => {
    const defaulted = new Set(queryParams.filter((p) => p.schema?.default !== undefined).map((p) => p.name));
    expect([...defaulted].sort()).toEqual([...DEFAULTED_QUERY_PARAMS].sort());
    for (const p of queryParams.filter((q) => DEFAULTED_QUERY_PARAMS.includes(q.name as never)))
      expect(p.schema?.default, p.name).toBeDefined();
  });

  it("are read from the spec by operation: country FI, limits 10 and 50", () => {
    expect(queryDefault("getShippingOptions", "country")).toBe("FI");
    expect(queryDefault("lookupPickupPoints", "limit")).toBe(10);
    expect(queryDefault("listWebhookEndpoints", "limit")).toBe(50);
    expect(() => queryDefault("getShippingOptions", "postalcode")).toThrow(/no default/);
  });
});
