// Column types that several resources' tables share.
import type { ColumnType } from "kysely";

export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
