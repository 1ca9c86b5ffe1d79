// Shared plumbing of the contract tests: clients through the Prism proxies whose every response is
// recorded with its operation and must be checked (conforms / fails / refusedByPrism); coverage per
// operation and status. See inbound.contract.test.ts for why there are two proxies.
import type { Middleware } from "openapi-fetch";
import { expect } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { expectError } from "../helpers/fixtures.ts";
import { contractProblems, mediaType, type ContractExpectation, type PrismProxy, type SpecOperation } from "./prism.ts";

type S = components["schemas"];
export type Result = { response: Response; data?: unknown; error?: unknown };

interface Call {
  operationId: string;
  method: string;
  path: string;
  url: string;
  body: string;
  proxy: string;
}

export class ContractRecorder {
  private readonly calls = new WeakMap<Response, Call>();
  private readonly unchecked = new Set<Call>();
  readonly covered = new Map<string, Set<number>>();
  private readonly requestBodies = new WeakMap<Request, string>();

  constructor(private readonly operations: SpecOperation[]) {}

  private middleware(proxy: PrismProxy): Middleware {
    return {
      onRequest: async ({ request }) => {
        this.requestBodies.set(request, request.body ? await request.clone().text() : "");
        return undefined;
      },
      onResponse: ({ request, response, schemaPath }) => {
        const op = this.operations.find((o) => o.method === request.method && o.path === schemaPath);
        const call: Call = {
          operationId: op?.operationId ?? `(not in the spec: ${request.method} ${schemaPath})`,
          method: request.method,
          path: schemaPath,
          url: request.url,
          body: this.requestBodies.get(request) ?? "",
          proxy: proxy.strict ? "strict proxy (--errors)" : "lenient proxy",
        };
        this.calls.set(response, call);
        this.unchecked.add(call);
        return undefined;
      },
    };
  }

  /** A client whose requests go through `proxy` and are recorded. */
  via(proxy: PrismProxy, username?: string, secret?: string, headers?: Record<string, string>): LogisticsClient {
    const c = createLogisticsClient({ baseUrl: proxy.origin, username, secret, headers });
    c.use(this.middleware(proxy));
    return c;
  }

  describe(result: Result): string {
    const call = this.calls.get(result.response);
    const body = result.error ?? result.data;
    return [
      call
        ? `${call.operationId}: ${call.method} ${call.url} via the ${call.proxy}`
        : `(unrecorded) ${result.response.url}`,
      call?.body ? `request body: ${call.body}` : undefined,
      `-> ${result.response.status} ${result.response.headers.get("content-type")}`,
      `sl-violations: ${result.response.headers.get("sl-violations") ?? "(none)"}`,
      `response body: ${typeof body === "string" ? body : JSON.stringify(body)}`,
    ]
      .filter(Boolean)
      .join("\n");
  }

  /** The response conforms: expected status, application/json, no `sl-violations` (unless a lenient case). */
  conforms<R extends Result>(result: R, expected: number | ContractExpectation): R {
    const expectation = typeof expected === "number" ? { status: expected } : expected;
    const call = this.calls.get(result.response);
    if (call) this.unchecked.delete(call);
    expect(contractProblems(result.response, expectation), this.describe(result)).toEqual([]);
    expect(call, "response did not come through a recording client").toBeDefined();
    if (!this.covered.has(call!.operationId)) this.covered.set(call!.operationId, new Set());
    this.covered.get(call!.operationId)!.add(result.response.status);
    return result;
  }

  /** Expects `conforms` and the shared error body with this code. */
  fails(result: Result, expected: number | ContractExpectation, code: string): S["Error"] {
    this.conforms(result, expected);
    return expectError(result, typeof expected === "number" ? expected : expected.status, code);
  }

  /** Prism with --errors answered the request itself (not forwarded): its own problem+json. */
  refusedByPrism(result: Result, status: 401 | 422, violation: string): void {
    const call = this.calls.get(result.response);
    if (call) this.unchecked.delete(call);
    const message = this.describe(result);
    expect(result.response.status, message).toBe(status);
    expect(mediaType(result.response), message).toBe("application/problem+json");
    const body = result.error as { type?: string };
    expect(body.type, message).toMatch(/^https:\/\/stoplight\.io\/prism\/errors#/);
    expect(JSON.stringify(body), message).toContain(violation);
  }

  /** Every operation driven with every required status, and no response left unchecked. */
  expectComplete(required: Record<string, number[]>, what: string): void {
    const inSpec = this.operations.map((o) => o.operationId).sort();
    expect(inSpec.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const id of inSpec) {
      const seen = this.covered.get(id);
      if (!seen) missing.push(`${id}: not exercised`);
      for (const status of required[id] ?? []) if (!seen?.has(status)) missing.push(`${id}: ${status} not seen`);
    }
    expect(missing, `operations of the spec ${what} not driven through Prism`).toEqual([]);
    expect(Object.keys(required).sort(), `REQUIRED must list exactly the spec's operations ${what}`).toEqual(inSpec);
    expect(
      [...this.unchecked].map((c) => `${c.operationId} ${c.method} ${c.url}`),
      "responses nobody checked",
    ).toEqual([]);
  }
}
