// Answers of reads kept in memory, on the embedded database only (issue 53). PGlite belongs to this one process, so
// every change of its data passes through this process's dialect (dialect.ts), which counts them: the count moves
// when a statement that is not an explicit read (statement-ways.ts: the way is said where the statement is made) or a
// transaction (commit or rollback) completes, whether it succeeded or not. A kept answer is used only while the count
// is the one it was read at, and kept only if the count did not move while it was read: a read that raced a change,
// whichever of the two the database ran first, is never kept. A change's own request answers only after its count
// moved, so whoever saw that answer never reads what came before it.
// On PostgreSQL nothing is kept: several instances (and the CLI) change one database, and this process would not know.
import type { CompiledQuery, QueryId } from "kysely";
import type { Db } from "./database.ts";
import type { Executor } from "./transaction.ts";

/** The embedded database's count of completed changes (the dialect moves it). */
export class ChangeCount {
  private count = 0;
  get now(): number {
    return this.count;
  }
  changed(): void {
    this.count++;
  }
}

const counts = new WeakMap<object, ChangeCount>();

/** `db` (the embedded database's own Kysely, not a transaction of it) is counted by `count`. */
export function countChangesOf(db: Db, count: ChangeCount): void {
  counts.set(db, count);
}

/**
 * The count `db` changes by, or undefined where reads are never kept: PostgreSQL, and a transaction (whose reads
 * see its own uncommitted writes).
 */
export const changeCountOf = (db: Executor): ChangeCount | undefined => counts.get(db);

const leaving = new WeakSet<QueryId>();

/**
 * Says that `query` changes only rows no kept read reads (the limits' window counters, which every instance adds to
 * several times a second under traffic): its completion leaves what is kept. Whoever keeps a new kind of read checks
 * that it reads none of these rows.
 */
export function leavesKeptReads<Q extends CompiledQuery>(query: Q): Q {
  leaving.add(query.queryId);
  return query;
}

/** Whether `query`'s completion counts as a change (dialect.ts asks for statements not said to be reads). */
export const endsKeptReads = (query: CompiledQuery): boolean => !leaving.has(query.queryId);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

interface Entry<T> {
  at: number;
  value: T;
}

/**
 * Answers of one kind of read, by key, up to `max` per database (least recently used first out). A value handed out
 * is frozen: the next caller gets the same object.
 */
export class CoherentReads<T> {
  private readonly byDatabase = new WeakMap<ChangeCount, Map<string, Entry<T>>>();
  constructor(private readonly max: number) {}

  /** The answer kept for `key` if it is still current, else `load`'s (kept if nothing changed meanwhile). */
  async read(db: Executor, key: string, load: () => Promise<T>): Promise<T> {
    const count = changeCountOf(db);
    if (!count) return load();
    let entries = this.byDatabase.get(count);
    if (!entries) this.byDatabase.set(count, (entries = new Map<string, Entry<T>>()));
    const at = count.now;
    const kept = entries.get(key);
    if (kept) {
      entries.delete(key);
      if (kept.at === at) {
        entries.set(key, kept);
        return kept.value;
      }
    }
    const value = deepFreeze(await load());
    if (count.now === at) {
      entries.set(key, { at, value });
      if (entries.size > this.max) entries.delete(entries.keys().next().value!);
    }
    return value;
  }

  /** How many answers are kept for `db` (tests). */
  size(db: Executor): number {
    const count = changeCountOf(db);
    return (count && this.byDatabase.get(count)?.size) ?? 0;
  }
}
