// The embedded database's thread opens PostgreSQL under a large WebAssembly tiering budget and with its functions
// validated as they compile (embedded-worker.mjs), unless the operator gave node a setting of its own: V8's flags are
// the whole process's.
import { describe, expect, it } from "vitest";
import { lazyValidationGiven, tieringBudgetGiven } from "../../server/db/embedded-thread.ts";

describe("an operator's own wasm tiering budget", () => {
  it("is seen in NODE_OPTIONS or node's arguments, and nowhere else", () => {
    expect(tieringBudgetGiven({ NODE_OPTIONS: "--max-old-space-size=512 --wasm-tiering-budget=100" }, [])).toBe(true);
    expect(tieringBudgetGiven({}, ["--enable-source-maps", "--wasm-tiering-budget=100"])).toBe(true);
    expect(tieringBudgetGiven({ NODE_OPTIONS: "--max-old-space-size=512" }, ["--enable-source-maps"])).toBe(false);
    expect(tieringBudgetGiven({}, [])).toBe(false);
  });
});

describe("an operator's own wasm validation setting", () => {
  it("is seen in either form, in NODE_OPTIONS or node's arguments, and nowhere else", () => {
    expect(lazyValidationGiven({ NODE_OPTIONS: "--no-wasm-lazy-validation" }, [])).toBe(true);
    expect(lazyValidationGiven({}, ["--wasm-lazy-validation"])).toBe(true);
    expect(lazyValidationGiven({ NODE_OPTIONS: "--wasm-tiering-budget=100" }, ["--enable-source-maps"])).toBe(false);
    expect(lazyValidationGiven({}, [])).toBe(false);
  });
});
