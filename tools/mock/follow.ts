// What makes the mock's answers follow the request where the server's do: a postal code gets that place's
// example when the spec has one, a list's cursor leads to a last page, and an error names the request.
import type { Request } from "express";
import { cursorNameOf } from "../../server/inbound/queries.ts";
import type { ListOrder } from "../../server/inbound/db.ts";
import { decodeCursor, decodeFeedCursor, encodeCursor } from "../../server/shared/pagination.ts";
import { fromOtherHistory } from "../../server/webhooks/feed-history.ts";
import { specDocument } from "../../server/shared/spec-document.ts";

type Json = Record<string, unknown>;
interface Place {
  example: string;
  postalcode: unknown;
  country: unknown;
}

/** Where an answer says which postal code and country it is for: on top (lookup) or in its facts (options). */
function placeOf(value: Json): { postalcode: unknown; country: unknown } {
  const facts = (value.facts ?? {}) as Json;
  return {
    postalcode: value.postalcode ?? facts["customer.postalcode"],
    country: value.country ?? facts["customer.country"],
  };
}

/** operationId -> the named success examples that answer for one place. */
function placesByOperation(): Map<string, Place[]> {
  type Examples = Record<string, { value: Json }>;
  type Op = { operationId?: string; responses?: Record<string, { content?: Record<string, { examples?: Examples }> }> };
  const doc = specDocument() as { paths: Record<string, Record<string, Op>> };
  const out = new Map<string, Place[]>();
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) {
      const examples = op.responses?.["200"]?.content?.["application/json"]?.examples;
      if (!op.operationId || !examples) continue;
      const places = Object.entries(examples)
        .map(([example, { value }]) => ({ example, ...placeOf(value) }))
        .filter((p) => typeof p.postalcode === "string");
      if (places.length) out.set(op.operationId, places);
    }
  }
  return out;
}

const places = placesByOperation();

/**
 * The example written for the request's postal code and country, if the spec has one. The places' examples are
 * success answers: a `Prefer: code=` of another status asks for that status's own example, which must win (Prism
 * would otherwise answer 200 with the place's example, and a partner's error handling would never run).
 */
export function exampleFor(operationId: string, query: Request["query"], code?: number): string | undefined {
  if (code !== undefined && code !== 200) return undefined;
  const { postalcode, country } = query;
  return places.get(operationId)?.find((p) => p.postalcode === postalcode && (p.country ?? "FI") === (country ?? "FI"))
    ?.example;
}

/**
 * Shapes Prism's answer for this request: the place asked about (when no example was written for it), the page
 * asked for, and the request id in an error body.
 */
export function follow(operationId: string, req: Request, body: unknown, requestId: string): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const answer = body as Json;
  if (answer.success === false) return { ...answer, request_id: requestId };
  if ("next_cursor" in answer && Array.isArray(answer.items)) {
    // The inbound shipments list names its order in its cursors, as the server does (the validator filled in `sort`).
    const order = operationId === "listInboundShipments" ? cursorNameOf(req.query.sort as ListOrder) : undefined;
    return page(answer, req.query.cursor, order);
  }
  if (typeof req.query.postalcode === "string" && places.has(operationId) && !exampleFor(operationId, req.query))
    return inPlace(answer, req.query);
  return body;
}

/** A generic example, said to be for the place asked about (its pickup points stay the example's). */
function inPlace(answer: Json, query: Request["query"]): Json {
  const { postalcode, country } = query as { postalcode: string; country: string };
  if (answer.facts) {
    return {
      ...answer,
      facts: { ...(answer.facts as Json), "customer.postalcode": postalcode, "customer.country": country },
    };
  }
  return { ...answer, postalcode, country };
}

/**
 * Lists: two pages, the second repeating the example's items (the mock keeps no others): without a cursor, the
 * first page and a cursor to the second; with one, the last page. The events feed: the example, then (with its
 * cursor) nothing new, the cursor staying where it is, as a caught-up feed answers; no event comes twice. The
 * cursors are the server's own kind: a cursor the server would refuse is refused with the server's answer.
 */
function page(answer: Json, cursor: unknown, order?: string): Json {
  const items = answer.items as Json[];
  if ("has_more" in answer) {
    if (typeof cursor !== "string") return answer;
    // The mock's one history is its example: a cursor naming any other event is from another one, as the
    // server's cursors are after a restore, and gets the server's refusal (to go on from the example's cursor).
    const from = decodeFeedCursor(cursor);
    if ("mark" in from && cursor !== answer.next_cursor) throw fromOtherHistory(String(answer.next_cursor));
    return { ...answer, items: [], has_more: false, next_cursor: cursor };
  }
  if (typeof cursor !== "string") {
    const last = items[items.length - 1];
    const at = new Date(Date.parse(String(last?.updated_at ?? last?.created_at)) || 0);
    const id = typeof last?.id === "string" ? last.id : "0".repeat(24);
    return items.length ? { ...answer, next_cursor: encodeCursor({ at, id }, order) } : answer;
  }
  decodeCursor(cursor, order);
  return { ...answer, next_cursor: null };
}
