// Reads outside a transaction (GET shipment's one statement, lists, look-ups) share a few connections in
// node-postgres' pipeline mode instead of each taking one of the pool's (pool-clients.ts chooses which ones). The
// statements sent in one turn of the event loop go out in one write (each socket corked until the turn ends) and
// their answers come back together: this process and PostgreSQL each wake once for many statements. A loopback
// write that wakes the database was the largest single cost of GET shipment (bench/levers.md, section 8).
// On a shared connection a statement waits for those sent before it. A connection whose oldest statement has run
// longer than STALE_MS takes no more, and when none can take one the statement takes a pool connection of its own,
// as every statement did before: a slow statement holds back at most what was sent behind it in that time.
import pg from "pg";
import { socketOf } from "./client-socket.ts";

/** A shared connection whose oldest statement has waited this long takes no more. */
export const STALE_MS = 20;

/**
 * A shared connection is replaced once this old (what it has in flight finishes first). Its successor is opened in
 * the background while it goes on taking statements, and takes over once connected: no statement waits for a
 * connection's start (a TCP connect, a backend's fork and start-up: 3-8 ms on a quiet machine, 20-30 ms on a busy
 * one), which the first requests after every renewal and after every idle pause did before (bench/levers.md section
 * 28). A session that lived while
 * the tables grew spends more and more of PostgreSQL's CPU on the same statement: GET shipment's rose 149 -> 1,010
 * µs over four benchmark rounds of creates on connections that lived through them all, and stayed at 21-32 µs with
 * connections renewed every 2 s (51-86 at 5 s, up to 582 at 30 s). Most likely PostgreSQL's plan cache: a prepared
 * statement keeps the costs of the custom plans it made while the tables were small, and keeps planning anew on
 * every execution. The pool's connections were renewed by their idle timeout between the benchmark's rounds.
 */
export const LIFETIME_MS = 5_000;

export type SharedQuery = (...args: unknown[]) => Promise<unknown>;

interface Slot {
  client?: pg.Client;
  openedAt: number;
  connecting?: Promise<pg.Client>;
  /** The successor of a connection past its lifetime, being opened while that one still takes statements. */
  renewing?: Promise<void>;
  /** When each statement in flight was sent, oldest first (a pipeline answers in order). */
  sent: number[];
  corked: boolean;
}

export interface SharedConnections {
  /** A connection that can take a statement now, or undefined: take one from the pool. */
  take(): SharedQuery | undefined;
  /** Open connections (for /metrics). */
  open(): number;
  end(): Promise<void>;
}

/**
 * `count` connections opened with `config` when first needed, and again after one fails. `onError`: a connection
 * failed (its statements in flight fail with it, as a pool connection's would); the next statement opens another.
 */
export function sharedConnections(
  config: pg.ClientConfig,
  count: number,
  onError: (err: Error) => void = () => {},
): SharedConnections {
  const slots: Slot[] = Array.from({ length: count }, () => ({ sent: [], corked: false, openedAt: 0 }));
  let ended = false;
  let uncorkScheduled = false;

  const uncorkAll = () => {
    uncorkScheduled = false;
    for (const slot of slots) {
      if (!slot.corked) continue;
      slot.corked = false;
      socketOf(slot.client)?.uncork();
    }
  };

  /** A new connection for `slot`, not yet its own. */
  const open = async (slot: Slot): Promise<pg.Client> => {
    // Read-only: a statement that writes, sent here by mistake (statement-ways.ts), fails at once instead of
    // committing on a connection whose other statements would wait for its flush.
    const options = [config.options, "-c default_transaction_read_only=on"].filter(Boolean).join(" ");
    const client = new pg.Client({ ...config, options, pipeline: true });
    const drop = () => {
      if (slot.client === client) slot.client = undefined;
    };
    client.on("error", (err) => {
      drop();
      onError(err);
    });
    client.on("end", drop);
    try {
      await client.connect();
    } catch (err) {
      client.end().catch(() => {});
      throw err;
    }
    if (ended) {
      await client.end().catch(() => {});
      throw new Error("the database connections are closed");
    }
    return client;
  };

  /** `client` becomes the slot's; one there before (a successor and a first connection may race) is retired. */
  const takeOver = (slot: Slot, client: pg.Client) => {
    if (slot.client && slot.client !== client) retire(slot);
    slot.client = client;
    slot.openedAt = performance.now();
  };

  /** A slot without a connection (the first statement, or its connection failed): the statement waits for one. */
  const connect = (slot: Slot): Promise<pg.Client> =>
    (slot.connecting ??= open(slot)
      .then((client) => {
        takeOver(slot, client);
        return client;
      })
      .finally(() => {
        slot.connecting = undefined;
      }));

  /**
   * Opens the successor of the slot's connection in the background; the old one takes statements until it takes
   * over. One that cannot be opened is tried again a second later (the old connection serves meanwhile).
   */
  const renew = (slot: Slot) => {
    slot.renewing ??= open(slot)
      .then(
        (client) => takeOver(slot, client),
        () => {
          slot.openedAt = performance.now() - LIFETIME_MS + 1_000;
        },
      )
      .finally(() => {
        slot.renewing = undefined;
      });
  };

  /** The slot's connection takes no more; node-postgres ends a pipelined one once what it sent is answered. */
  const retire = (slot: Slot) => {
    const old = slot.client;
    slot.client = undefined;
    // What this turn wrote to it goes now: the turn's uncork only reaches the slot's next connection.
    if (slot.corked) {
      slot.corked = false;
      socketOf(old)?.uncork();
    }
    old?.end().catch(() => {});
  };

  const send = async (slot: Slot, text: unknown, values: unknown[] | undefined): Promise<unknown> => {
    const at = performance.now();
    slot.sent.push(at);
    try {
      if (slot.client && at - slot.openedAt > LIFETIME_MS) renew(slot);
      const client = slot.client ?? (await connect(slot));
      if (!slot.corked) {
        const stream = socketOf(client);
        if (stream) {
          stream.cork();
          slot.corked = true;
          if (!uncorkScheduled) {
            uncorkScheduled = true;
            setImmediate(uncorkAll);
          }
        }
      }
      return await (values === undefined ? client.query(text as string) : client.query(text as string, values));
    } finally {
      const i = slot.sent.indexOf(at);
      if (i >= 0) slot.sent.splice(i, 1);
    }
  };

  return {
    take() {
      if (ended) return undefined;
      const now = performance.now();
      let best: Slot | undefined;
      for (const slot of slots) {
        if (slot.sent.length > 0 && now - slot.sent[0]! > STALE_MS) continue;
        if (!best || slot.sent.length < best.sent.length) best = slot;
      }
      return best && ((text, values) => send(best, text, values as unknown[] | undefined));
    },
    open: () => slots.filter((s) => s.client).length,
    async end() {
      ended = true;
      await Promise.all(
        slots.map(async (slot) => {
          // A successor being opened ends itself (open() sees `ended`).
          await slot.renewing;
          const client = slot.client ?? (await slot.connecting?.catch(() => undefined));
          slot.client = undefined;
          await client?.end().catch(() => {});
        }),
      );
    },
  };
}
