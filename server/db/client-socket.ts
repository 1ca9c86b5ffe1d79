// node-postgres keeps a client's socket on `connection.stream` (not part of its types). Corked, what the client sends
// meanwhile leaves in one write when it is uncorked: begin-rides.ts, shared-connections.ts, write-batches.ts and
// session-rounds.ts send several statements in one system call (or one exchange with the embedded database) this way.
import type pg from "pg";

export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** The client's socket, or undefined (a client not yet connected, or one without a socket). */
export function socketOf(client: pg.Client | pg.PoolClient | undefined): Corkable | undefined {
  const stream = (client as { connection?: { stream?: Partial<Corkable> } } | undefined)?.connection?.stream;
  return stream?.cork && stream.uncork ? (stream as Corkable) : undefined;
}
