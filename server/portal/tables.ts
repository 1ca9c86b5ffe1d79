import type { Generated } from "kysely";
import type { CreatedAt } from "../db/columns.ts";

export type PortalUserRole = "admin" | "staff";

export interface PortalTables {
  portal_users: {
    id: string;
    merchant_id: string;
    email: string;
    password_hash: string;
    role: PortalUserRole;
    created_at: CreatedAt;
    /** Set when an admin reset the password (a temporary one); cleared when the user changes it (0014). */
    must_change_password: Generated<boolean>;
  };
  portal_sessions: { token_hash: string; user_id: string; csrf_token: string; created_at: CreatedAt; expires_at: Date };
}
