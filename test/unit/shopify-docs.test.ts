// docs/shopify.md and the portal say the same registration call: the page's GraphQL block is what the portal's
// Checkout page shows (portal/src/pages/checkout/shopify-call.ts) for the page's example address, and the curl line
// sends that same mutation; the README's docs list links the page.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { registrationCall } from "../../portal/src/pages/checkout/shopify-call.ts";

const page = readFileSync("docs/shopify.md", "utf8");
const URL = "https://api.example.com/2015-01-01/shopify/carrier_service/cs_7Hq2LmX9pR4tV8wZ1bN6cK3dF5gJ0sYa";
/** A GraphQL document's tokens: commas and white space are insignificant in GraphQL. */
const tokens = (s: string) =>
  s
    .replace(/[\s,]+/g, " ")
    .replace(/([({]) /g, "$1")
    .replace(/ ([)}])/g, "$1")
    .trim();

describe("docs/shopify.md", () => {
  it("shows the registration call the portal shows", () => {
    const block = /```graphql\n([\s\S]*?)\n```/.exec(page)?.[1];
    expect(block).toBe(registrationCall(URL));
  });

  it("sends the same mutation with curl", () => {
    const json = /<<'EOF'\n(.*)\nEOF/.exec(page)?.[1];
    const { query } = JSON.parse(json!) as { query: string };
    expect(tokens(query)).toBe(tokens(registrationCall(URL)));
  });

  it("is in the README's list of docs", () => {
    expect(readFileSync("README.md", "utf8")).toContain("[docs/shopify.md](docs/shopify.md)");
  });
});
