// The spec-driven fuzzer: every implemented operation (the registry's handlers), valid requests from
// the spec's examples and schemas and mutations of them, judged by the oracle. `npm test` runs a
// bounded form; `FUZZ_RUNS=100000 npm run fuzz` the long one. FUZZ_SEED (and FUZZ_PATH, printed on a
// failure) replay a run.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { requestFor, type FuzzRequest } from "./generate.ts";
import { Oracle } from "./oracle.ts";
import { ruleCasesFor } from "./rules.ts";
import { loadSpec } from "./spec-model.ts";

// `npm test`'s share of the suite's time: 2,000 cases a database were its longest file on both (135 s and 72 s of
// 3,500 file-seconds in CI); 600 on each, with another seed on each database, try 1,200 different requests a run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
// `npm test` replays the same cases every time (a failure there is a regression, not bad luck);
// `npm run fuzz` draws a new seed unless FUZZ_SEED is given.
const SEED =
  process.env.FUZZ_SEED === "random"
    ? (Date.now() ^ (Math.random() * 2 ** 31)) | 0
    : Number(process.env.FUZZ_SEED ?? (process.env.TEST_DB === "postgres" ? 20150102 : 20150101));
const PATH = process.env.FUZZ_PATH;

let srv: TestServer;
let oracle: Oracle;
const model = loadSpec();
const operations = model.operations.filter((o) => o.implemented);

// The fuzzer sends wrong credentials on purpose: the login throttle would soon answer only 429.
useTestServer(
  async (s) => {
    srv = s;
    const principals = {
      merchant: ["M-fuzz-a.example.com", "fuzz-secret-a"],
      otherMerchant: ["M-fuzz-b.example.com", "fuzz-secret-b"],
      operator: ["W-fuzz-wh.example.com", "fuzz-secret-w"],
    } as const;
    for (const [user, secret] of Object.values(principals)) {
      await provisionAccount(srv.handle.db, user.startsWith("M-") ? "merchant" : "operator", user.slice(2), secret);
    }
    oracle = new Oracle(srv, model, {
      merchant: [...principals.merchant],
      otherMerchant: [...principals.otherMerchant],
      operator: [...principals.operator],
    });
    await oracle.seed();
  },
  { loginLimits: { perAddress: 0, perAccount: 0, windowMs: 60_000 } },
);

describe("fuzzing every implemented operation from the spec", () => {
  it("covers the registry", () => {
    expect(operations.length).toBeGreaterThan(0);
    // Ids for every path parameter that a create operation provides; others are random (404 is fine).
    for (const name of oracle.fedParams())
      expect(oracle.pools.get(name)!.length, `fixtures for {${name}}`).toBeGreaterThan(0);
  });

  it("can build requests for every operation of the spec, implemented or not yet", () => {
    for (const op of model.operations) {
      const sample = fc.sample(requestFor(op), { numRuns: 30, seed: 42 });
      expect(sample.length, op.operationId).toBe(30);
      for (const r of sample) expect(() => oracle.describe(r), op.operationId).not.toThrow();
    }
  });

  it("refuses every odd query number, non-ISO country or currency and over-precise VAT, naming the place", async () => {
    const cases = operations.flatMap(ruleCasesFor);
    const covered = new Set(cases.map((c) => c.operationId));
    // The operations with number parameters or code fields in their examples, as the spec has them today.
    for (const id of [
      "getShippingOptions",
      "listInboundShipments",
      "createOrder",
      "createPriceList",
      "replaceShippingSettings",
    ])
      expect(covered, id).toContain(id);
    expect(cases.length).toBeGreaterThan(150);
    for (const c of cases) await oracle.check(c);
  });

  it(
    `${RUNS} requests: no 5xx, declared statuses, error shape, valid 2xx bodies, refusals change nothing`,
    { timeout: RUNS * 500 + 120_000 },
    async () => {
      const started = Date.now();
      const seen = new Map<string, number>();
      const perOperation = new Map(operations.map((op) => [op, requestFor(op)]));
      const ruleCases = operations.flatMap(ruleCasesFor);
      // One in ten breaks exactly one value rule, and must be refused for it.
      const arb = fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...operations).chain((op) => perOperation.get(op)!) },
        { weight: 1, arbitrary: fc.constantFrom(...ruleCases) },
      );
      const property = fc.asyncProperty(arb, async (r: FuzzRequest) => {
        seen.set(r.operationId, (seen.get(r.operationId) ?? 0) + 1);
        await oracle.check(r);
      });
      const result = await fc.check(property, {
        numRuns: RUNS,
        seed: SEED,
        ...(PATH && { path: PATH }),
        endOnFailure: false,
      });
      const summary = `fuzz: ${result.numRuns} runs, seed ${SEED}, ${((Date.now() - started) / 1000).toFixed(1)} s, database ${process.env.TEST_DB}; statuses ${JSON.stringify(Object.fromEntries(oracle.statuses))}; ms in requests ${oracle.timings.request.toFixed(0)}, in fingerprints ${oracle.timings.fingerprint.toFixed(0)}; per operation ${JSON.stringify(Object.fromEntries(seen))}`;
      console.log(summary);
      if (result.failed) {
        const shrunk = result.counterexample?.[0];
        const why = (result.errorInstance as Error | undefined)?.message ?? String(result.errorInstance);
        throw new Error(
          `Failed after ${result.numRuns} cases (seed ${result.seed}, shrunk ${result.numShrinks} times):\n` +
            `${why}${why.includes("--- request") || !shrunk ? "" : `\n--- request\n${oracle.describe(shrunk)}`}\n\n` +
            `Replay: FUZZ_SEED=${result.seed} FUZZ_PATH=${result.counterexamplePath} FUZZ_RUNS=${RUNS} npm run fuzz`,
        );
      }
    },
  );
});
