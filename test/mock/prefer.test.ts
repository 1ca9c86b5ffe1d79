// When a partner on the mock asks for an error with `Prefer: code=...`, it gets that error, on every operation and
// for every error status the operation documents, whatever else of the request the mock follows: the postal code
// of one of the spec's own places (20780, 00100) chooses that place's example only for a success answer.
// The mock runs in process (tools/mock/app.ts, what `npm run mock` serves).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockApp } from "../../tools/mock/app.ts";
import { loadSpec, type Operation, type Schema } from "../fuzz/spec-model.ts";
import { mockRequest } from "./requests.ts";

const { doc, deref, operations } = loadSpec();
let mock: Server;
let origin: string;

beforeAll(async () => {
  const app = await createMockApp({ logger: pino({ level: "silent" }) });
  mock = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  origin = `http://127.0.0.1:${(mock.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mock?.closeAllConnections();
  await new Promise((r) => mock?.close(r));
});

/** The operation's declared response for a status, with every $ref resolved. */
function declared(op: Operation, status: number): Schema {
  return deref(doc.paths[op.path][op.method].responses[String(status)]) as Schema;
}

/**
 * The queries to walk for an operation that takes a postal code: each place the spec writes a success example for
 * (a postal code and country in the answer's facts or on top), and one it does not (Tampere's 33100: the generic
 * example). Other operations: their sampled request alone.
 */
function places(op: Operation): Record<string, string>[] {
  if (!op.params.some((p) => p.in === "query" && p.name === "postalcode")) return [{}];
  const examples = (declared(op, 200)?.content?.["application/json"]?.examples ?? {}) as Record<
    string,
    { value: Schema }
  >;
  const out: Record<string, string>[] = [{ postalcode: "33100", country: "FI" }];
  for (const { value } of Object.values(examples)) {
    const postalcode = value.postalcode ?? value.facts?.["customer.postalcode"];
    const country = value.country ?? value.facts?.["customer.country"] ?? "FI";
    if (typeof postalcode === "string") out.push({ postalcode, country });
  }
  return out;
}

const cases = operations.flatMap((op) =>
  [...op.responses.keys()]
    .filter((status) => status >= 400)
    .flatMap((status) =>
      places(op).map((query) => {
        const where = query.postalcode ? ` postalcode=${query.postalcode}` : "";
        return [`${op.operationId}${where} Prefer: code=${status}`, op, status, query] as const;
      }),
    ),
);

describe("the mock answers Prefer: code=<status> with that documented error", () => {
  it("walks every operation, every documented error status and every example's postal code", () => {
    // Guard against an empty walk: the spec documents hundreds of error statuses, and the places of two operations.
    expect(cases.length).toBeGreaterThan(500);
    expect(cases.filter(([, , , query]) => query.postalcode).map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "getShippingOptions postalcode=20780 Prefer: code=429",
        "getShippingOptions postalcode=00100 Prefer: code=503",
        "lookupPickupPoints postalcode=00100 Prefer: code=401",
      ]),
    );
  });

  it.each(cases)("%s", async (_name, op, status, query) => {
    const res = await mockRequest(origin, doc, op, { prefer: `code=${status}` }, query);
    const body = await res.json();
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    // The documented example (or one of them), as the server's errors are: with this answer's request id.
    const response = declared(op, status);
    const json = response.content["application/json"];
    const examples =
      json.example !== undefined ? [json.example] : Object.values(json.examples ?? {}).map((e: any) => e.value);
    expect(examples.map((e) => ({ ...e, request_id: res.headers.get("x-request-id") }))).toContainEqual(body);
    // The headers a partner's error handling reads (Retry-After, WWW-Authenticate, ETag) with their examples' values.
    for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Schema>)) {
      const example = header.example ?? header.schema?.example;
      if (example !== undefined) expect(res.headers.get(name), name).toBe(String(example));
    }
  });
});
