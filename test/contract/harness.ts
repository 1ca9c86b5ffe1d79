// The real server behind a strict and a lenient Prism proxy (see prism.ts and inbound.contract.test.ts), with the
// shared ContractRecorder over the implemented operations under some path prefixes, and accounts whose clients
// go through either proxy.
import { expect } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { BASE_PATH } from "../../server/app.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { implemented } from "../helpers/spec.ts";
import { specOperations, startPrismProxy, type ContractExpectation, type PrismProxy } from "./prism.ts";
import { ContractRecorder, type Result } from "./recording.ts";

type S = components["schemas"];

export interface Account {
  username: string;
  strict: LogisticsClient;
  lenient: LogisticsClient;
}

export function contractHarness(prefixes: string[]) {
  const operations = prefixes.flatMap((p) => specOperations(p)).filter((o) => implemented.has(o.operationId));
  const rec = new ContractRecorder(operations);
  let srv: TestServer | undefined;
  let strict: PrismProxy | undefined;
  let lenient: PrismProxy | undefined;
  let seq = 0;

  return {
    operations,
    server: () => srv!,
    async start(): Promise<void> {
      srv = await startTestServer();
      const upstream = srv.origin + BASE_PATH;
      const [s, l] = await Promise.allSettled([
        startPrismProxy({ upstream, errors: true }),
        startPrismProxy({ upstream, errors: false }),
      ]);
      if (s.status === "fulfilled") strict = s.value;
      if (l.status === "fulfilled") lenient = l.value;
      if (s.status === "rejected") throw s.reason;
      if (l.status === "rejected") throw l.reason;
    },
    async stop(): Promise<void> {
      await Promise.all([strict?.close(), lenient?.close()]);
      await srv?.close();
    },
    // Arrow functions: the test files destructure these from the harness.
    account: async (role: "merchant" | "operator"): Promise<Account> => {
      const id = `contract-${role}-${++seq}.example.com`;
      const secret = `secret-${id}`;
      await provisionAccount(srv!.handle.db, role, id, secret);
      const username = `${role === "merchant" ? "M" : "W"}-${id}`;
      return { username, strict: rec.via(strict!, username, secret), lenient: rec.via(lenient!, username, secret) };
    },
    /** A client through one of the proxies that sends these headers (a portal session's Cookie and X-CSRF-Token). */
    withHeaders: (proxy: "strict" | "lenient", headers: Record<string, string>) =>
      rec.via((proxy === "strict" ? strict : lenient)!, undefined, undefined, headers),
    /** A client through one of the proxies with any credentials (or none): for the refused ones. */
    client: (proxy: "strict" | "lenient", username?: string, secret?: string) =>
      rec.via((proxy === "strict" ? strict : lenient)!, username, secret),
    conforms: <R extends Result>(result: R, expected: number | ContractExpectation) => rec.conforms(result, expected),
    /** `conforms`, the shared error body with this code, and `details` naming each of `paths`. */
    fails: (result: Result, expected: number | ContractExpectation, code: string, paths: string[] = []): S["Error"] => {
      const error = rec.fails(result, expected, code);
      for (const p of paths)
        expect(
          error.details.map((d) => d.path),
          JSON.stringify(error.details),
        ).toContain(p);
      return error;
    },
    refusedByPrism: (result: Result, status: 401 | 422, violation: string) =>
      rec.refusedByPrism(result, status, violation),
    expectComplete: (required: Record<string, number[]>) =>
      rec.expectComplete(required, `under ${prefixes.join(", ")}`),
  };
}
