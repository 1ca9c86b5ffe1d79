import type { Generated } from "kysely";
import type { components } from "../../generated/api.ts";
import type { CreatedAt } from "../db/columns.ts";

export type WarehouseUserRole = components["schemas"]["WarehouseUserRole"];

export interface WarehouseTables {
  warehouse_users: {
    id: string;
    email: string;
    name: string;
    password_hash: string;
    role: WarehouseUserRole;
    created_at: CreatedAt;
    /** Set when a supervisor reset the password (a temporary one); cleared when the user changes it. */
    must_change_password: Generated<boolean>;
  };
  station_sessions: {
    token_hash: string;
    user_id: string;
    csrf_token: string;
    created_at: CreatedAt;
    expires_at: Date;
  };
}
