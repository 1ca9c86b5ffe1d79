// The embedded database is one session, and its thread runs one exchange at a time. A statement outside a transaction
// (GET shipment's read, a create without an Idempotency-Key, a limit's counter) took that session for itself: the
// thread ran it, then idled while the answer crossed to the request thread and the next statement came back, on a
// machine whose cores the request thread and the load share. Now the statements outside a transaction that arrive
// while the session is busy wait together, and go over in one exchange once it is free: each with its own Sync, so
// each is its own implicit transaction, as if sent alone, and gets its own answer (an error fails its statement only).
// A transaction still holds the session from its begin to its end; what comes meanwhile waits for the next round,
// in the pool's order (a round waits behind the transactions that asked for the session before it).
// Writes of one mergeable text in a round go as one statement (write-merges.ts); when it fails, nothing of it was
// written, and each of its writes runs alone before the session goes back.
import type pg from "pg";
import { socketOf } from "./client-socket.ts";
import type { Send } from "./pool-clients.ts";
import { mergeCounts } from "./write-merges.ts";
import { giveUnit, isDatabaseError, settle, unitOf, unitsOf, type Item, type Unit } from "./write-batches.ts";

type Query = Parameters<Send>[0];

/** The most statements in one exchange: a transaction waiting for the session waits for the whole round. */
export const MAX_ROUND = 64;

export interface SessionRounds {
  send(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * `connect` gives the session's connection (a pool of one) in pipeline mode, with its own `query` (not one that
 * traces: the caller's statement was traced where it was sent); `send` is the pool's policy (named statements).
 */
export function sessionRounds(
  connect: () => Promise<{ query: Query; client: pg.PoolClient }>,
  send: Send,
  max = MAX_ROUND,
): SessionRounds {
  let waiting: Item[] = [];
  let running = false;

  const drain = async () => {
    running = true;
    try {
      while (waiting.length) {
        let conn;
        try {
          conn = await connect();
        } catch (err) {
          for (const item of waiting.splice(0)) item.reject(err);
          return;
        }
        // Everything that came while the session was busy, up to `max`.
        const round = waiting.length <= max ? waiting : waiting.slice(0, max);
        waiting = round === waiting ? [] : waiting.slice(max);
        const sendAll = (units: Unit[]) => {
          const stream = socketOf(conn.client);
          stream?.cork();
          try {
            return units.map((u) => settle(() => send(conn.query, u.text, u.values, conn.client)));
          } finally {
            stream?.uncork();
          }
        };
        let units = unitsOf(round);
        let settled = await Promise.all(sendAll(units));
        // A merged statement the database refused: each of its writes again, alone, for its own answer.
        const failed = units.filter(
          (u, i) => u.items.length > 1 && !settled[i]!.ok && isDatabaseError(settled[i]!.value),
        );
        if (failed.length) {
          mergeCounts.refused += failed.length;
          const alone = failed.flatMap((u) => u.items.map(unitOf));
          const again = await Promise.all(sendAll(alone));
          const kept = units.flatMap((u, i) => (failed.includes(u) ? [] : [[u, settled[i]!] as const]));
          units = [...kept.map(([u]) => u), ...alone];
          settled = [...kept.map(([, a]) => a), ...again];
        }
        // The session goes back before the callers hear: a transaction waiting for it starts while they go on.
        conn.client.release();
        units.forEach((unit, i) => giveUnit(unit, settled[i]!));
      }
    } finally {
      running = false;
    }
  };

  return {
    send(text, values) {
      return new Promise((resolve, reject) => {
        waiting.push({ text, values, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
