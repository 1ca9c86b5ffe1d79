// Idempotency-Key handling for the HTTP edge: the first answer is remembered with the effect it reports.
import { createHash } from "node:crypto";
import type { Db } from "../db/database.ts";
import { inTransaction, type Executor, type Tx } from "../db/transaction.ts";
import { AppError } from "../shared/errors.ts";
import { claimKey, deleteExpiredKeys, storeResponse } from "./db.ts";

/** Seals a remembered answer that holds a secret (the main keys, secrets/main-keys.ts), and opens it for a replay. */
export interface BodySealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** A retry: the first response's JSON text, to send back unchanged. */
export interface Replay {
  status: number;
  replayJson: string;
}

const TTL_HOURS = 24;

/** Housekeeping for the server: expired keys are reclaimed on reuse anyway, this bounds the table. */
export function forgetExpiredKeys(db: Db): Promise<number> {
  return deleteExpiredKeys(db, TTL_HOURS);
}

/**
 * Runs `work` in one transaction with the idempotency record, so the effect and the remembered
 * response commit together or not at all. A failed attempt (error thrown) leaves no record: the
 * client may retry it with the same key.
 */
export async function idempotent<R extends { status: number; body: unknown } | Replay>(
  db: Db,
  scope: { principal: string; key: string | undefined; operation: string; request: unknown; sealWith?: BodySealer },
  work: (trx: Tx) => Promise<R>,
): Promise<R | Replay> {
  return inTransaction(db, async (trx) => {
    const { key } = scope;
    if (key === undefined) return work(trx);
    const sealedFor = `idempotency_keys:${scope.principal}:${key}`;
    const hash = createHash("sha256")
      .update(scope.operation)
      .update("\0")
      .update(stableJson(scope.request))
      .digest("hex");
    const earlier = await claimKey(trx, scope.principal, key, scope.operation, hash, TTL_HOURS);
    if (earlier) {
      if (earlier.request_hash !== hash) {
        throw new AppError(
          "idempotency_key_reused",
          "This Idempotency-Key was already used with a different request.",
          [{ path: "/headers/idempotency-key", message: "already used with another request body or operation" }],
        );
      }
      // JSON never starts with `v1.`: an answer remembered before it was sealed (or unsealed) replays as it is.
      const body = earlier.response_body;
      const replayJson = scope.sealWith && body.startsWith("v1.") ? scope.sealWith.open(body, sealedFor) : body;
      return { status: earlier.response_status, replayJson };
    }
    const result = await work(trx);
    if ("body" in result) {
      const json = JSON.stringify(result.body);
      const stored = scope.sealWith ? scope.sealWith.seal(json, sealedFor) : json;
      await storeResponse(trx, scope.principal, key, result.status, stored);
    }
    return result;
  });
}

/**
 * `idempotent` for work that is atomic by itself (one statement, or a transaction it opens when it needs one):
 * without a key nothing needs the transaction, and a single statement outside one commits by itself: one round trip
 * instead of two (begin rides with the statement, begin-rides.ts, but commit has to wait for its answer).
 */
export function idempotentAtomic<R extends { status: number; body: unknown } | Replay>(
  db: Db,
  scope: { principal: string; key: string | undefined; operation: string; request: unknown },
  work: (db: Executor) => Promise<R>,
): Promise<R | Replay> {
  return scope.key === undefined ? work(db) : idempotent(db, scope, work);
}

/** JSON with sorted object keys: the same body hashes the same whatever its key order. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}
