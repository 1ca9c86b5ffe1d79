// Which connection a statement outside a transaction takes is chosen where the statement is made, never guessed from
// its SQL text (a `select` of a writing function, or a leading comment, once took the wrong path silently):
// - a statement Kysely builds says what it is by its node: a select (with no data-modifying CTE) is a read, an
//   insert, update, delete or merge (or a select whose CTE writes) a write;
// - raw SQL (`sql`...``, CompiledQuery.raw) is neither until its author says so with `reads`/`writes`
//   (`sql`...`.withPlugin(reads)`, or `rawAs("write", text, values)`); unsaid, it takes a connection of its own,
//   the way that is right for every statement, only not the cheapest;
// - any statement can be told its way the same way (a builder's select of a writing function: `.withPlugin(writes)`).
// A read shares a pipelined connection that PostgreSQL holds read-only (shared-connections.ts), so a statement
// that writes but was called a read fails there at once instead of committing on a connection others wait on.
import {
  CompiledQuery,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";

/** A shared read connection, a write batch (write-batches.ts), or a pool connection of its own. */
export type Way = "read" | "write" | "own";

const said = new WeakMap<QueryId, Way>();

class SendAs implements KyselyPlugin {
  constructor(private readonly way: Way) {}
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    said.set(queryId, this.way);
    return node;
  }
  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}

/** The statement only reads (and leaves nothing on its session): it may share a connection. */
export const reads: KyselyPlugin = new SendAs("read");
/** The statement writes and commits by itself: it goes in a write batch. */
export const writes: KyselyPlugin = new SendAs("write");
/** The statement needs a connection of its own (it leaves state on its session, or runs long). */
export const ownConnection: KyselyPlugin = new SendAs("own");

/** A raw statement with its way said. */
export function rawAs<R = unknown>(way: Way, text: string, values: readonly unknown[] = []): CompiledQuery<R> {
  const query = CompiledQuery.raw(text, [...values]) as CompiledQuery<R>;
  said.set(query.queryId, way);
  return query;
}

const WRITING = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode", "MergeQueryNode"]);

function writesIn(node: OperationNode): boolean {
  if (WRITING.has(node.kind)) return true;
  const ctes = (node as { with?: { expressions: readonly { expression: OperationNode }[] } }).with;
  return ctes?.expressions.some((cte) => writesIn(cte.expression)) ?? false;
}

/** The way `query` goes when it is sent outside a transaction. */
export function wayOf(query: CompiledQuery): Way {
  const way = said.get(query.queryId);
  if (way) return way;
  const node = query.query;
  if (writesIn(node)) return "write";
  return node.kind === "SelectQueryNode" ? "read" : "own";
}
