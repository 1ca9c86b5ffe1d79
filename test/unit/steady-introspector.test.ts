// The dialect's introspector reads the table list again when the catalogue changed under the read (a column or table
// another transaction dropped meanwhile), and only then: any other failure is the caller's at once.
import {
  CompiledQuery,
  Kysely,
  PostgresAdapter,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from "kysely";
import { describe, expect, it } from "vitest";
import { SteadyIntrospector } from "../../server/db/introspector.ts";

/** A driver whose first `failures` statements fail with `code`, then answer one table's column. */
function kyselyFailing(failures: number, code: string) {
  let statements = 0;
  const connection: DatabaseConnection = {
    executeQuery: <R>(_q: CompiledQuery): Promise<QueryResult<R>> => {
      statements++;
      if (statements <= failures)
        return Promise.reject(Object.assign(new Error(`column "gone" of relation "t" does not exist`), { code }));
      const row = {
        column: "id",
        not_null: true,
        has_default: false,
        table: "t",
        table_type: "r",
        schema: "public",
        type: "text",
        type_schema: "pg_catalog",
        column_description: null,
        auto_incrementing: null,
      };
      return Promise.resolve({ rows: [row as R] });
    },
    streamQuery: () => {
      throw new Error("not used");
    },
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (k) => new SteadyIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
  return { db, statements: () => statements };
}

describe("the dialect's introspector", () => {
  it.each(["42703", "42P01", "XX000"])("reads the tables again after a catalogue change (%s)", async (code) => {
    const { db, statements } = kyselyFailing(2, code);
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((t) => t.name)).toEqual(["t"]);
    expect(statements()).toBe(3);
  });

  it("gives up after five reads that each found the catalogue changing", async () => {
    const { db, statements } = kyselyFailing(5, "42703");
    await expect(db.introspection.getTables()).rejects.toMatchObject({ code: "42703" });
    expect(statements()).toBe(5);
  });

  it("passes any other failure on at once", async () => {
    const { db, statements } = kyselyFailing(1, "57014");
    await expect(db.introspection.getTables()).rejects.toMatchObject({ code: "57014" });
    expect(statements()).toBe(1);
  });
});
