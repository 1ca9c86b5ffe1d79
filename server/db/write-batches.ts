// Writes outside a transaction (a create without an Idempotency-Key, the shared limits' counters) commit by
// themselves, and each commit is a round trip and a WAL flush of its own. While every connection this takes is busy,
// the writes that arrive meanwhile wait, and the next free one sends them together, in one write to the socket, as
// one transaction: `begin`, the statements, `commit`. The database wakes once and flushes once for all of them. Each
// caller still hears of its write only once the commit that holds it is durable (group commit, done by the caller).
// A write that arrives while a connection is free goes at once and alone, as before: batching never adds a wait.
//
// One failed statement aborts the transaction: then nothing of the batch was written, and each statement runs again
// by itself (pipelined, each committing alone), so that each caller gets its own statement's own answer. When the
// connection fails instead, no one can know whether the commit happened: each caller gets the failure, as a lost
// connection gives it for a statement sent alone, and nothing is sent again.
//
// Writes of one mergeable text in a batch go as one statement (write-merges.ts: several creates of shipments). Its
// failure rolls the batch back like any statement's, and each of its writes then runs alone as well.
import type pg from "pg";
import { socketOf } from "./client-socket.ts";
import type { Send } from "./pool-clients.ts";
import { mergeCounts, mergerOf, type Merger, type WriteAnswer } from "./write-merges.ts";

type Query = Parameters<Send>[0];

/** Connections that send batches at once; the pool's others stay free for transactions. */
export const BATCH_CONNECTIONS = 4;
/** The most statements in one batch: each holds its row locks until the batch commits. */
export const MAX_BATCH = 32;

export interface Item {
  text: string;
  values?: unknown[];
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
}

export interface Settled {
  ok: boolean;
  value: unknown;
}

export interface WriteBatches {
  send(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * `connect` gives a pool connection in pipeline mode with its own `query` (not one that traces: the caller's
 * statement was traced where it was sent) and `release`; `send` is the pool's policy (named statements).
 */
export function writeBatches(
  connect: () => Promise<{ query: Query; client: pg.PoolClient }>,
  send: Send,
  connections = BATCH_CONNECTIONS,
): WriteBatches {
  const waiting: Item[] = [];
  let running = 0;
  let connecting = 0;

  /** Sends each unit, in a transaction when there are several, corked: one write to the socket. */
  const sendTogether = (query: Query, client: pg.PoolClient, units: Unit[], inTransaction: boolean) => {
    const stream = socketOf(client);
    stream?.cork();
    try {
      const begun = inTransaction ? settle(() => query("begin")) : undefined;
      const answers = units.map((u) => settle(() => send(query, u.text, u.values, client)));
      const committed = inTransaction ? settle(() => query("commit")) : undefined;
      return { begun, answers, committed };
    } finally {
      stream?.uncork();
    }
  };

  /** Each item alone, pipelined, each committing by itself; false when the connection failed. */
  const runAlone = async (query: Query, client: pg.PoolClient, items: Item[]): Promise<boolean> => {
    const alone = sendTogether(query, client, items.map(unitOf), false).answers;
    let alive = true;
    for (const [i, item] of items.entries()) {
      const a = await alone[i]!;
      give(item, a);
      if (!a.ok && !isDatabaseError(a.value)) alive = false;
    }
    return alive;
  };

  /** Runs `items` on the connection; false when the connection failed (the pool must drop it). */
  const run = async (query: Query, client: pg.PoolClient, items: Item[]): Promise<boolean> => {
    const units = unitsOf(items);
    if (units.length === 1) {
      // One statement commits by itself: no transaction around it.
      const [unit] = units;
      const [answer] = sendTogether(query, client, units, false).answers;
      const a = await answer!;
      if (a.ok || unit!.items.length === 1) {
        giveUnit(unit!, a);
        return a.ok || isDatabaseError(a.value);
      }
      if (!isDatabaseError(a.value)) {
        unit!.items.forEach((item) => item.reject(a.value));
        return false;
      }
      // The merged statement failed, so nothing of it was written: each write again, alone.
      mergeCounts.refused++;
      return runAlone(query, client, unit!.items);
    }
    const sent = sendTogether(query, client, units, true);
    const answers = await Promise.all(sent.answers);
    const begun = await sent.begun!;
    const committed = await sent.committed!;
    const result = committed.ok && (committed.value as { command?: string }).command;
    if (begun.ok && result === "COMMIT") {
      units.forEach((unit, i) => giveUnit(unit, answers[i]!));
      return true;
    }
    const rolledBack = begun.ok && (result === "ROLLBACK" || (!committed.ok && isDatabaseError(committed.value)));
    if (!rolledBack) {
      // The connection failed: the commit may or may not have happened.
      const failure = !committed.ok ? committed.value : !begun.ok ? begun.value : new Error("the batch did not commit");
      units.forEach((unit, i) =>
        unit.items.forEach((item) => item.reject(answers[i]!.ok ? failure : answers[i]!.value)),
      );
      return false;
    }
    // Nothing was written: each statement again, alone. A merge counts as refused only when its own statement failed,
    // not when it was rolled back for another's (those answer 25P02, "current transaction is aborted").
    mergeCounts.refused += units.filter((u, i) => u.items.length > 1 && failedItself(answers[i]!)).length;
    return runAlone(query, client, items);
  };

  // Another connection for what waits, unless one is on its way: it takes everything waiting once it has one.
  const kick = () => {
    if (waiting.length && running < connections && connecting === 0) void drain();
  };

  const drain = async () => {
    running++;
    try {
      while (waiting.length) {
        let conn;
        connecting++;
        try {
          conn = await connect();
        } catch (err) {
          for (const item of waiting.splice(0)) item.reject(err);
          return;
        } finally {
          connecting--;
        }
        let alive = true;
        try {
          while (waiting.length && alive) {
            const batch = waiting.splice(0, MAX_BATCH);
            kick();
            alive = await run(conn.query, conn.client, batch).catch((err: unknown) => {
              // Not expected (run settles every answer): no caller is left waiting, and the connection is dropped.
              for (const item of batch) item.reject(err);
              return false;
            });
          }
        } finally {
          conn.client.release(!alive);
        }
      }
    } finally {
      running--;
    }
  };

  return {
    send(text, values) {
      return new Promise((resolve, reject) => {
        waiting.push({ text, values, resolve, reject });
        kick();
      });
    },
  };
}

/** What is sent as one statement: one write, or several writes of a mergeable text merged (write-merges.ts). */
export interface Unit {
  text: string;
  values?: unknown[];
  items: Item[];
  merger?: Merger;
}

const valuesOf = (item: Item) => item.values ?? [];
export const unitOf = (item: Item): Unit => ({ text: item.text, values: item.values, items: [item] });

/**
 * The batch's statements: the writes of each mergeable text as one (where the first of them stood), the others as
 * they are, in the batch's order otherwise. A merge that throws leaves those writes unmerged.
 */
export function unitsOf(items: Item[]): Unit[] {
  const units: Unit[] = [];
  const byText = new Map<string, Unit>();
  for (const item of items) {
    const merger = items.length > 1 ? mergerOf(item.text) : undefined;
    const unit = merger && byText.get(item.text);
    if (unit) unit.items.push(item);
    else {
      const u = { ...unitOf(item), merger };
      if (merger) byText.set(item.text, u);
      units.push(u);
    }
  }
  return units.flatMap((u) => {
    if (!u.merger) return [u];
    if (u.items.length === 1) return [{ ...u, merger: undefined }];
    try {
      const values = u.merger.merge(u.items.map(valuesOf));
      mergeCounts.statements++;
      mergeCounts.writes += u.items.length;
      return [{ ...u, values }];
    } catch {
      return u.items.map(unitOf);
    }
  });
}

/** Gives each write of `unit` its answer: a merged unit's is split (a split that throws fails them all). */
export function giveUnit(unit: Unit, a: Settled): void {
  if (!unit.merger || !a.ok) return unit.items.forEach((item) => give(item, a));
  let split: WriteAnswer[];
  try {
    split = unit.merger.split(a.value as WriteAnswer, unit.items.map(valuesOf));
  } catch (err) {
    return unit.items.forEach((item) => item.reject(err));
  }
  unit.items.forEach((item, i) => item.resolve(split[i]));
}

export const give = (item: Item, a: Settled) => (a.ok ? item.resolve(a.value) : item.reject(a.value));

/** A statement that throws as it is sent (values node-postgres cannot serialise) fails as one that was refused. */
export function settle(sending: () => Promise<unknown>): Promise<Settled> {
  try {
    return sending().then(
      (value) => ({ ok: true, value }),
      (value: unknown) => ({ ok: false, value }),
    );
  } catch (value) {
    return Promise.resolve({ ok: false, value });
  }
}

/** The statement's own failure, not the aborted transaction's echo of another statement's. */
const failedItself = (a: Settled) =>
  !a.ok && isDatabaseError(a.value) && (a.value as { code: string }).code !== "25P02";

/** An error the database answered (it has a SQLSTATE and a severity): the connection itself is fine. */
export const isDatabaseError = (err: unknown) =>
  typeof err === "object" && err !== null && "severity" in err && typeof (err as { code?: unknown }).code === "string";
