import type { CreatedAt } from "../db/columns.ts";

export interface AccountsTables {
  merchants: { id: string; secret_hash: string; created_at: CreatedAt };
  operators: { id: string; secret_hash: string; created_at: CreatedAt };
}
