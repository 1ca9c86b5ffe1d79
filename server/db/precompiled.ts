// A query on the hot path is built and compiled by Kysely once; each call only fills in its parameters.
// Combined with named statements (named-statements.ts) PostgreSQL also parses and plans it once.
import type { Compilable, CompiledQuery } from "kysely";
import type { Executor } from "./transaction.ts";

/**
 * `build` receives one placeholder string per parameter; it must pass each straight into the query
 * as a value (not use it in logic), so that the compiled parameter list says where each one goes.
 */
export function precompiled<Row, Args extends unknown[]>(
  build: (db: Executor, ...placeholders: string[]) => Compilable<Row>,
  arity: Args["length"],
) {
  let compiled: { query: CompiledQuery<Row>; slots: number[] } | undefined;
  return async (db: Executor, ...args: Args): Promise<Row[]> => {
    if (!compiled) {
      const placeholders = Array.from({ length: arity }, (_, i) => `\u0001placeholder-${i}\u0001`);
      const query = build(db, ...placeholders).compile();
      compiled = { query, slots: query.parameters.map((p) => placeholders.indexOf(p as string)) };
      if (placeholders.some((_, i) => !compiled!.slots.includes(i)))
        throw new Error("precompiled: a placeholder is not used as a parameter");
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot, i) => (slot >= 0 ? args[slot] : query.parameters[i]));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
