// The way a statement outside a transaction takes is said where it is made (server/db/statement-ways.ts): by the node
// Kysely built, or by its author for raw SQL; never read from the SQL text.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type Compilable,
  type RawBuilder,
} from "kysely";
import { describe, expect, it } from "vitest";
import { rawAs, reads, wayOf, writes, ownConnection } from "../../server/db/statement-ways.ts";

const db = new Kysely<{ t: { id: number; name: string } }>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const way = (q: Compilable) => wayOf(q.compile());
const rawWay = (q: RawBuilder<unknown>) => wayOf(q.compile(db));

describe("a statement Kysely builds goes by what it is", () => {
  it("a select reads; an insert, update, delete or merge writes", () => {
    expect(way(db.selectFrom("t").selectAll())).toBe("read");
    expect(way(db.insertInto("t").values({ id: 1, name: "a" }))).toBe("write");
    expect(way(db.updateTable("t").set({ name: "b" }))).toBe("write");
    expect(way(db.deleteFrom("t"))).toBe("write");
    expect(way(db.mergeInto("t").using("t as s", "s.id", "t.id").whenMatched().thenDelete())).toBe("write");
  });

  it("a select whose CTE writes is a write", () => {
    const q = db
      .with("gone", (d) => d.deleteFrom("t").returning("id"))
      .selectFrom("gone")
      .selectAll();
    expect(way(q)).toBe("write");
    const reading = db
      .with("x", (d) => d.selectFrom("t").select("id"))
      .selectFrom("x")
      .selectAll();
    expect(way(reading)).toBe("read");
  });

  it("its author's word wins: a select of a writing function said to write", () => {
    expect(way(db.selectNoFrom(sql<number>`nextval('s')`.as("n")).withPlugin(writes))).toBe("write");
    expect(way(db.selectFrom("t").selectAll().withPlugin(ownConnection))).toBe("own");
  });
});

describe("raw SQL goes its own way until its author says otherwise", () => {
  it("whatever its text begins with", () => {
    expect(rawWay(sql`select 1`)).toBe("own");
    expect(rawWay(sql`/* leading comment */ insert into t values (1, 'a')`)).toBe("own");
    expect(rawWay(sql`with x as (delete from t returning id) select * from x`)).toBe("own");
  });

  it("said with a plugin or rawAs", () => {
    expect(rawWay(sql`-- a comment first\nselect 1`.withPlugin(reads))).toBe("read");
    expect(rawWay(sql`select pg_notify('c', '')`.withPlugin(writes))).toBe("write");
    expect(wayOf(rawAs("write", "insert into t values ($1, $2)", [1, "a"]))).toBe("write");
    expect(wayOf(rawAs("read", "select $1::int", [1]))).toBe("read");
  });

  it("keeps its word when compiled once and sent many times (precompiled.ts spreads the query)", () => {
    const compiled = sql`select ${1}::int`.withPlugin(reads).compile(db);
    expect(wayOf({ ...compiled, parameters: [2] })).toBe("read");
  });
});
