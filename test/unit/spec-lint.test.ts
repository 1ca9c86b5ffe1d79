// Rules every operation of the contract keeps, so that a merchant can rely on them.
import { describe, expect, it } from "vitest";
import { IMPLEMENTED } from "../../server/handlers.ts";
import { webhookBodyProblems } from "../helpers/webhook-schemas.ts";
import { spec } from "../helpers/spec.ts";

interface Operation {
  operationId?: string;
  tags?: string[];
  description?: string;
  security?: { basicAuth?: string[] }[];
  parameters?: { $ref?: string; in?: string }[];
  requestBody?: unknown;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { $ref?: string } }> }>;
}

const doc = spec;
const METHODS = ["get", "post", "put", "delete", "patch"];
const ops: [string, string, Operation][] = Object.entries(
  doc.paths as Record<string, Record<string, Operation>>,
).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => [p, m, item[m]!] as [string, string, Operation]));

interface MediaType {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
const hasExample = (m: MediaType) =>
  m.example !== undefined || Object.values(m.examples ?? {}).some((e) => e.value !== undefined);

describe("spec/openapi.yaml", () => {
  it("is OpenAPI 3.1 with the versioned base path and HTTP Basic", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(new URL(doc.servers[0].url).pathname).toBe("/2015-01-01");
    expect(doc.components.securitySchemes.basicAuth).toMatchObject({ type: "http", scheme: "basic" });
  });

  it("the registry implements only operations of the spec", () => {
    const ids = new Set(ops.map(([, , op]) => op.operationId));
    expect([...IMPLEMENTED].filter((id) => !ids.has(id))).toEqual([]);
  });

  it("has unique operationIds", () => {
    const ids = ops.map(([, , op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(ops)(
    "%s %s has an id, a known tag, a description and every failure status it can return",
    (path, method, op) => {
      const tags = new Set((doc.tags as { name: string }[]).map((t) => t.name));
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.tags?.length).toBeGreaterThan(0);
      for (const t of op.tags!) expect(tags).toContain(t);
      expect(op.description?.length ?? 0).toBeGreaterThan(30);
      const statuses = Object.keys(op.responses);
      // What the shared pipeline can answer on any operation: bad input, credentials, the rate limit and
      // login throttle, an oversized header block (HTTP parser), our failures.
      for (const s of ["400", "401", "429", "431", "500", "503"])
        expect(statuses, `${op.operationId} ${s}`).toContain(s);
      const security = op.security ?? doc.security;
      const roles = new Set(security.flatMap((r: { basicAuth?: string[] }) => r.basicAuth ?? []));
      // An operation open to everyone (signing in) has no role to refuse.
      if (security.length > 0 && !(roles.has("merchant") && roles.has("warehouse")))
        expect(statuses, `${op.operationId} 403`).toContain("403");
      if (path.includes("{")) expect(statuses, `${op.operationId} 404`).toContain("404");
      if (op.requestBody) for (const s of ["413", "415"]) expect(statuses, `${op.operationId} ${s}`).toContain(s);
      // 501 is declared exactly while the registry has no handler for the operation.
      if (IMPLEMENTED.has(op.operationId!)) expect(statuses, `${op.operationId} 501`).not.toContain("501");
      else expect(statuses, `${op.operationId} 501`).toContain("501");
      for (const s of statuses.filter((x) => Number(x) >= 400)) {
        const ref = op.responses[s]!.$ref ?? op.responses[s]!.content?.["application/json"]?.schema?.$ref;
        // The shared error, or an error of its own schema that extends its shape (a lookup's candidates, a feed
        // cursor's restart_cursor).
        expect(ref, `${op.operationId} ${s} uses the shared error`).toMatch(
          /^#\/components\/(responses\/\w+|schemas\/(Error|AmbiguousReference|CursorFromOtherHistory))$/,
        );
      }
    },
  );

  it.each(ops)("%s %s has a summary, and an example of its request and of every response", (_path, _method, op) => {
    const o = op as Operation & { summary?: string; requestBody?: { content?: Record<string, MediaType> } };
    expect(o.summary?.length ?? 0, `${op.operationId} summary`).toBeGreaterThan(5);
    for (const [type, media] of Object.entries(o.requestBody?.content ?? {}))
      expect(hasExample(media), `${op.operationId} request ${type}`).toBe(true);
    for (const [status, response] of Object.entries(op.responses)) {
      const resolved = (response.$ref ? doc.components.responses[response.$ref.split("/").pop()!] : response) as {
        content?: Record<string, MediaType>;
      };
      const media = resolved.content?.["application/json"];
      // Every answer with a body shows one: partners build against these examples (Prism's mock serves them).
      if (media) expect(hasExample(media), `${op.operationId} ${status}`).toBe(true);
    }
  });

  it("declares every webhook event with a signed envelope", () => {
    for (const type of [...doc.components.schemas.WebhookEventType.enum, "batch"]) {
      expect(doc.webhooks[type]?.post?.operationId, type).toBeTruthy();
      const headers = (doc.webhooks[type].post.parameters as { $ref: string }[]).map((p) => p.$ref.split("/").pop());
      expect(headers, type).toEqual([
        type === "batch" ? "WebhookBatchIdHeader" : "WebhookIdHeader",
        "WebhookTimestampHeader",
        "WebhookSignatureHeader",
      ]);
    }
  });

  it("has no request object that silently accepts unknown properties", () => {
    type Schema = {
      type?: string;
      additionalProperties?: unknown;
      unevaluatedProperties?: unknown;
      properties?: unknown;
      allOf?: { $ref?: string }[];
    };
    const schemas = doc.components.schemas as Record<string, Schema>;
    // A base written once (the webhook envelope) is closed by every schema built on it (unevaluatedProperties: false).
    const closedBases = new Set(
      Object.values(schemas)
        .filter((s) => s.unevaluatedProperties === false)
        .flatMap((s) => (s.allOf ?? []).map((a) => a.$ref?.split("/").pop())),
    );
    const open: string[] = [];
    for (const [name, schema] of Object.entries(schemas)) {
      if (
        schema.type === "object" &&
        schema.properties &&
        schema.additionalProperties === undefined &&
        schema.unevaluatedProperties === undefined &&
        !closedBases.has(name)
      )
        open.push(name);
    }
    expect(open).toEqual([]);
    expect(closedBases).toEqual(new Set(["WebhookEnvelope"]));
    // Built on it, every event still refuses a property the spec does not name.
    const users = Object.entries(schemas).filter(([, s]) =>
      s.allOf?.some((a) => a.$ref === "#/components/schemas/WebhookEnvelope"),
    );
    // Every event the webhooks section delivers one at a time (the batch is an array of them).
    const delivered = Object.values(spec.webhooks as Record<string, any>)
      .map((w) => w.post.requestBody.content["application/json"].schema.$ref as string | undefined)
      .filter((ref) => ref !== undefined)
      .map((ref) => ref.split("/").pop()!)
      .filter((name) => schemas[name]?.type !== "array");
    expect(delivered.length).toBeGreaterThan(5);
    expect(users.map(([n]) => n).sort()).toEqual(delivered.sort());
  });
});

describe("the webhook envelope, written once", () => {
  const event = {
    event_id: "5a41e2f3a4b5c6d7e8f9a0b1",
    event_type: "webhook.test",
    webhook_id: "5a41e2f3a4b5c6d7e8f9a0b2",
    ts: "2026-11-24T10:00:00.000Z",
    retry_count: 0,
    payload: { message: "hi" },
  };
  it("accepts an event as the spec writes it, and refuses an unknown property, a wrong type or payload, a missing field", () => {
    expect(webhookBodyProblems("webhook.test", event)).toEqual([]);
    expect(webhookBodyProblems("webhook.test", { ...event, extra: 1 })).not.toEqual([]);
    expect(webhookBodyProblems("webhook.test", { ...event, event_type: "inbound_shipment.processed" })).not.toEqual([]);
    expect(webhookBodyProblems("webhook.test", { ...event, payload: { message: "hi", more: true } })).not.toEqual([]);
    const { retry_count: _, ...withoutCount } = event;
    expect(webhookBodyProblems("webhook.test", withoutCount)).not.toEqual([]);
  });
});
