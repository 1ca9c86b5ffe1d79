// A valid request for any operation of the spec, as a partner on the mock sends it: the role the operation allows,
// the sessions' cookies and CSRF token, required parameters from the spec's own examples and the body's first
// example. Shared by the run of `npm run mock` (test/contract/mock.test.ts) and the Prefer table (prefer.test.ts).
import type { Operation, Schema } from "../fuzz/spec-model.ts";

export const MOCK_BASE = "/2015-01-01";
export const MERCHANT_AUTH = {
  authorization: `Basic ${Buffer.from("M-shop.example.com:any-secret").toString("base64")}`,
};
const OPERATOR_AUTH = { authorization: `Basic ${Buffer.from("W-warehouse-1:any-secret").toString("base64")}` };

/** A value Prism accepts for a parameter: the schema's example, enum or an id of the spec's story. */
function sample(name: string, schema: Record<string, any>): string {
  if (schema.examples?.[0] !== undefined) return String(schema.examples[0]);
  if (schema.example !== undefined) return String(schema.example);
  if (schema.enum) return String(schema.enum[0]);
  if (schema.pattern === "^[0-9a-f]{24}$") return "569c9d3ab7e4f1a2c3d4e5f6";
  if (name === "postalcode") return "20780";
  if (name === "country") return "FI";
  if (schema.type === "number" || schema.type === "integer") return String(schema.minimum ?? 1);
  return "x";
}

/**
 * Sends `op` to the mock at `origin`: required query parameters sampled, overridden or added by `query` (a postal
 * code and country of one of the spec's places, say), and any extra `headers` (a Prefer header).
 */
export function mockRequest(
  origin: string,
  doc: Schema,
  op: Operation,
  headers: Record<string, string> = {},
  query: Record<string, string> = {},
) {
  let path = op.path;
  const params = new URLSearchParams();
  for (const p of op.params) {
    if (p.in === "path") path = path.replace(`{${p.name}}`, sample(p.name, p.schema));
    else if (p.in === "query" && p.required)
      params.set(p.name, sample(p.name, p.schema.type === "array" ? p.schema.items : p.schema));
  }
  for (const [name, value] of Object.entries(query)) params.set(name, value);
  const body = op.bodyExamples[0];
  return fetch(`${origin}${MOCK_BASE}${path}${params.size ? `?${params}` : ""}`, {
    method: op.method.toUpperCase(),
    // The cookies: for the operations only a portal or a station session may call; their writes carry the
    // sign-in example's csrf_token of that session, as the server wants the session's.
    headers: {
      // As the server wants them: the role the operation allows, and no Basic credentials where only a session
      // may call.
      ...(op.roles.includes("merchant") ? MERCHANT_AUTH : op.roles.includes("warehouse") ? OPERATOR_AUTH : {}),
      Cookie: "portal_session=mock; station_session=mock",
      "x-csrf-token":
        doc.paths[op.schemes.includes("stationCookieAuth") ? "/station_sessions/_create" : "/portal_sessions/_create"]
          .post.responses["201"].content["application/json"].example.csrf_token,
      ...(body !== undefined && { "content-type": "application/json" }),
      ...headers,
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}
