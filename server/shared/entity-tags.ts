// Optimistic concurrency for resources replaced whole (RFC 9110 ETag / If-Match): the tag is a digest of
// the resource's wire representation, so any change (its updated_at too) gives a new one.
import { createHash } from "node:crypto";
import { AppError } from "./errors.ts";

export function entityTag(representation: unknown): string {
  return `"${createHash("sha256").update(JSON.stringify(representation)).digest("base64url").slice(0, 27)}"`;
}

/**
 * Throws 412 precondition_failed unless `ifMatch` (the header as sent; absent: no condition) names the
 * current tag or is `*`. Weak tags (W/"…") never match: If-Match uses the strong comparison.
 */
export function checkIfMatch(ifMatch: string | undefined, current: string, what: string): void {
  if (ifMatch === undefined) return;
  const given = ifMatch.split(",").map((t) => t.trim());
  if (given.includes("*") || given.includes(current)) return;
  throw new AppError(
    "precondition_failed",
    `The ${what} changed since you read it (If-Match does not name its current ETag): read it again, apply your change, and retry.`,
    [{ path: "/headers/if-match", message: `the current ETag is ${current}`, code: "stale" }],
    { ETag: current },
  );
}
