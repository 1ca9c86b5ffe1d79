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
import type pg from "pg";
import { socketOf } from "./client-socket.ts";
import type { Send } from "./pool-clients.ts";

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

  const sendTogether = (query: Query, client: pg.PoolClient, items: Item[], inTransaction: boolean) => {
    const stream = socketOf(client);
    stream?.cork();
    try {
      const begun = inTransaction ? settle(() => query("begin")) : undefined;
      const answers = items.map((i) => settle(() => send(query, i.text, i.values, client)));
      const committed = inTransaction ? settle(() => query("commit")) : undefined;
      return { begun, answers, committed };
    } finally {
      stream?.uncork();
    }
  };

  /** Runs `items` on the connection; false when the connection failed (the pool must drop it). */
  const run = async (query: Query, client: pg.PoolClient, items: Item[]): Promise<boolean> => {
    if (items.length === 1) {
      const [item] = items;
      const [answer] = sendTogether(query, client, items, false).answers;
      const a = await answer!;
      give(item!, a);
      return a.ok || isDatabaseError(a.value);
    }
    const sent = sendTogether(query, client, items, true);
    const answers = await Promise.all(sent.answers);
    const begun = await sent.begun!;
    const committed = await sent.committed!;
    const result = committed.ok && (committed.value as { command?: string }).command;
    if (begun.ok && result === "COMMIT") {
      items.forEach((item, i) => give(item, answers[i]!));
      return true;
    }
    const rolledBack = begun.ok && (result === "ROLLBACK" || (!committed.ok && isDatabaseError(committed.value)));
    if (!rolledBack) {
      // The connection failed: the commit may or may not have happened.
      const failure = !committed.ok ? committed.value : !begun.ok ? begun.value : new Error("the batch did not commit");
      items.forEach((item, i) => item.reject(answers[i]!.ok ? failure : answers[i]!.value));
      return false;
    }
    // Nothing was written: each statement again, alone.
    const alone = sendTogether(query, client, items, false).answers;
    let alive = true;
    for (const [i, item] of items.entries()) {
      const a = await alone[i]!;
      give(item, a);
      if (!a.ok && !isDatabaseError(a.value)) alive = false;
    }
    return alive;
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

/** An error the database answered (it has a SQLSTATE and a severity): the connection itself is fine. */
const isDatabaseError = (err: unknown) =>
  typeof err === "object" && err !== null && "severity" in err && typeof (err as { code?: unknown }).code === "string";
