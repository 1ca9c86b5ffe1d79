// Shared machinery of the contract tests: the real server behind a strict and a lenient Prism proxy, clients that
// record every response with its operation, and the checks every response must pass (see prism.ts and
// inbound.contract.test.ts for how Prism treats requests).
import type { Middleware } from "openapi-fetch";
import { expect } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { provisionAccount } from "../../server/accounts/domain.ts";
import { BASE_PATH } from "../../server/app.ts";
import { expectError } from "../helpers/fixtures.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { implemented } from "../helpers/spec.ts";
import { contractProblems, mediaType, specOperations, startPrismProxy, type ContractExpectation, type PrismProxy, type SpecOperation } from "./prism.ts";

type S = components["schemas"];
export type Result = { response: Response; data?: unknown; error?: unknown };

interface Call { operationId: string; method: string; path: string; url: string; body: string; proxy: string }

export interface Account {
  id: string;
  username: string;
  secret: string;
  strict: LogisticsClient;
  lenient: LogisticsClient;
}

/** The implemented operations under `prefixes`, driven through Prism; `coverage` says what was not. */
export function contractHarness(prefixes: string[]) {
  const operations: SpecOperation[] = prefixes.flatMap((p) => specOperations(p)).filter((o) => implemented.has(o.operationId));
  const calls = new WeakMap<Response, Call>();
  const unchecked = new Set<Call>();
  const covered = new Map<string, Set<number>>();
  const requestBodies = new WeakMap<Request, string>();
  const h = {
    operations,
    srv: undefined as unknown as TestServer,
    strict: undefined as unknown as PrismProxy,
    lenient: undefined as unknown as PrismProxy,
  };

  async function start(): Promise<void> {
    h.srv = await startTestServer();
    const upstream = h.srv.origin + BASE_PATH;
    const [s, l] = await Promise.allSettled([startPrismProxy({ upstream, errors: true }), startPrismProxy({ upstream, errors: false })]);
    if (s.status === "fulfilled") h.strict = s.value;
    if (l.status === "fulfilled") h.lenient = l.value;
    if (s.status === "rejected") throw s.reason;
    if (l.status === "rejected") throw l.reason;
  }

  async function stop(): Promise<void> {
    await Promise.all([h.strict?.close(), h.lenient?.close()]);
    await h.srv?.close();
  }

  function recorder(proxy: PrismProxy): Middleware {
    return {
      async onRequest({ request }) {
        requestBodies.set(request, request.body ? await request.clone().text() : "");
        return undefined;
      },
      onResponse({ request, response, schemaPath }) {
        const op = operations.find((o) => o.method === request.method && o.path === schemaPath);
        const call: Call = {
          operationId: op?.operationId ?? `(not in the spec: ${request.method} ${schemaPath})`,
          method: request.method, path: schemaPath, url: request.url, body: requestBodies.get(request) ?? "",
          proxy: proxy.strict ? "strict proxy (--errors)" : "lenient proxy",
        };
        calls.set(response, call);
        unchecked.add(call);
        return undefined;
      },
    };
  }

  function via(proxy: PrismProxy, username?: string, secret?: string): LogisticsClient {
    const c = createLogisticsClient({ baseUrl: proxy.origin, username, secret });
    c.use(recorder(proxy));
    return c;
  }

  function describeCall(result: Result): string {
    const call = calls.get(result.response);
    const body = result.error ?? result.data;
    return [
      call ? `${call.operationId}: ${call.method} ${call.url} via the ${call.proxy}` : `(unrecorded) ${result.response.url}`,
      call?.body ? `request body: ${call.body}` : undefined,
      `-> ${result.response.status} ${result.response.headers.get("content-type")}`,
      `sl-violations: ${result.response.headers.get("sl-violations") ?? "(none)"}`,
      `response body: ${typeof body === "string" ? body : JSON.stringify(body)}`,
    ].filter(Boolean).join("\n");
  }

  /** The response conforms: expected status, application/json, no `sl-violations` (unless a lenient case). */
  function conforms<R extends Result>(result: R, expected: number | ContractExpectation): R {
    const expectation = typeof expected === "number" ? { status: expected } : expected;
    const call = calls.get(result.response);
    if (call) unchecked.delete(call);
    expect(contractProblems(result.response, expectation), describeCall(result)).toEqual([]);
    expect(call, "response did not come through a recording client").toBeDefined();
    if (!covered.has(call!.operationId)) covered.set(call!.operationId, new Set());
    covered.get(call!.operationId)!.add(result.response.status);
    return result;
  }

  /** Expects `conforms` and the shared error body with this code. */
  function fails(result: Result, expected: number | ContractExpectation, code: string, paths: string[] = []): S["Error"] {
    conforms(result, expected);
    return expectError(result, typeof expected === "number" ? expected : expected.status, code, paths);
  }

  /** Prism with --errors answered the request itself (not forwarded): its own problem+json. */
  function refusedByPrism(result: Result, status: 401 | 422, violation: string): void {
    const call = calls.get(result.response);
    if (call) unchecked.delete(call);
    const message = describeCall(result);
    expect(result.response.status, message).toBe(status);
    expect(mediaType(result.response), message).toBe("application/problem+json");
    expect(JSON.stringify(result.error), message).toContain(violation);
  }

  let seq = 0;
  async function account(role: "merchant" | "operator"): Promise<Account> {
    const id = `contract-${role}-${++seq}.example.com`;
    const secret = `secret-${id}`;
    await provisionAccount(h.srv.handle.db, role, id, secret);
    const username = `${role === "merchant" ? "M" : "W"}-${id}`;
    return { id, username, secret, strict: via(h.strict, username, secret), lenient: via(h.lenient, username, secret) };
  }

  /** Every operation exercised with each required status, REQUIRED listing exactly them, every response checked. */
  function coverage(required: Record<string, number[]>): void {
    const inSpec = operations.map((o) => o.operationId).sort();
    const missing: string[] = [];
    for (const id of inSpec) {
      const seen = covered.get(id);
      if (!seen) missing.push(`${id}: not exercised`);
      for (const status of required[id] ?? []) if (!seen?.has(status)) missing.push(`${id}: ${status} not seen`);
    }
    expect(missing, `operations under ${prefixes.join(", ")} not driven through Prism`).toEqual([]);
    expect(Object.keys(required).sort(), "REQUIRED must list exactly the implemented operations").toEqual(inSpec);
    expect([...unchecked].map((c) => `${c.operationId} ${c.method} ${c.url}`), "responses nobody checked").toEqual([]);
  }

  return Object.assign(h, { start, stop, via, conforms, fails, refusedByPrism, account, coverage });
}
