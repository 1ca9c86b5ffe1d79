import type { UpdatedAt } from "../db/columns.ts";

export interface IdempotencyTables {
  idempotency_keys: {
    principal: string;
    key: string;
    operation: string;
    request_hash: string;
    response_status: number;
    /** The first response's JSON text, replayed as is. */
    response_body: string;
    /** Reset when an expired key is reclaimed. */
    created_at: UpdatedAt;
  };
}
