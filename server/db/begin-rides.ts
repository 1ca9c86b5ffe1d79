// A transaction's `begin` is not a round trip of its own: it waits for the transaction's first statement and goes
// on the wire right before it, in the same write, on a client in node-postgres' pipeline mode (which sends a
// statement without waiting for the answer to the one before). The database reads both at once: one write and one
// wake-up fewer for every transaction. The write is the cost: held but sent on its own, begin saved nothing.
import { socketOf } from "./client-socket.ts";
import type { Send } from "./pool-clients.ts";

type Query = Parameters<Send>[0];

const BEGIN = /^\s*begin\s*;?\s*$/i;
const END = /^\s*(commit|rollback)\s*;?\s*$/i;

/** What node-postgres answers to a `begin`: Kysely reads nothing of it. */
const BEGUN = { command: "BEGIN", rowCount: null, rows: [], fields: [] };

/**
 * `send`, with each client's `begin` held until the next statement. A transaction that ends before any statement
 * (a rollback after a failed check, say) never began on the server: its `commit` or `rollback` is not sent either.
 * The client must be in pipeline mode (`pipeline: true`), or the statement would still wait for `begin`'s answer.
 */
export function beginRidesAlong(send: Send): Send {
  const held = new WeakSet<Query>();
  return (query, text, values, client) => {
    const plain = typeof text === "string" && !values?.length;
    if (plain && BEGIN.test(text)) {
      if (held.has(query)) return Promise.reject(new Error("begin sent twice on one connection"));
      held.add(query);
      return Promise.resolve(BEGUN);
    }
    if (!held.delete(query)) return send(query, text, values, client);
    if (plain && END.test(text))
      return Promise.resolve({ command: text.trim().toUpperCase(), rowCount: null, rows: [] });
    // Both are written in this tick, in one system call (each write to the database's socket cost tens of µs of
    // CPU in the create's profile); a failed begin (a lost connection) fails the statement too.
    const socket = socketOf(client);
    socket?.cork();
    let begun: Promise<unknown>;
    let answer: Promise<unknown>;
    try {
      begun = query("begin");
      answer = send(query, text, values, client);
    } finally {
      socket?.uncork();
    }
    return begun.then(
      () => answer,
      (err: unknown) => {
        answer.catch(() => {});
        throw err;
      },
    );
  };
}
