// What node-postgres' Client talks to in place of a socket when the database is the embedded one: the frontend
// messages of one round (parse, bind, describe, execute, sync) are gathered and handed over in one exchange, and
// the backend's answer is parsed as a socket's would be. PGlite's own adapter makes one exchange per message,
// five for a query; an exchange here can cross to another thread (embedded-thread.ts), so each one counts.
import { EventEmitter } from "node:events";
import pg from "pg";
import { serialize } from "pg-protocol";
import { Parser } from "pg-protocol/dist/parser.js";
import type { BackendMessage, NotificationResponseMessage } from "pg-protocol/dist/messages.js";

/** One exchange with the database: frontend messages in, everything the backend answered out. */
export type Exchange = (frontend: Uint8Array) => Promise<Uint8Array>;

export class EmbeddedConnection extends EventEmitter {
  // node-postgres reads these of its connection: a stream to destroy, statements this session has prepared. Cork
  // and uncork as a socket's: what is sent meanwhile goes over in one exchange (begin-rides.ts sends a transaction's
  // begin and first statement so, session-rounds.ts the statements of a round). Without them each round goes at once:
  // a tick's wait between the session's exchanges cost GET shipment ~10% of its req/s (the one session is what every
  // request waits for). Counted, as a socket's: node-postgres corks around each prepared statement it writes, and
  // its uncork must not send what an outer cork holds.
  readonly stream = {
    destroy: () => this.end(),
    cork: () => void this.corked++,
    uncork: () => {
      if (this.corked > 0) this.corked--;
      if (this.corked === 0 && this.held) this.handOver();
    },
  };
  parsedStatements: Record<string, string> = {};
  submittedNamedStatements: Record<string, string> = {};
  _connecting = false;
  _ending = false;
  private pending: Buffer[] = [];
  private corked = 0;
  /** Something was sent while corked: `pending` ends with a complete round. */
  private held = false;
  private queue: Promise<void> = Promise.resolve();
  private readonly parser = new Parser();

  constructor(
    private readonly exchange: Exchange,
    private readonly onNotification: (channel: string, payload: string) => void,
  ) {
    super();
  }

  connect(): void {
    this._connecting = true;
    this.queue = this.queue.then(() => {
      process.nextTick(() => this.emit("connect"));
    });
  }

  // The session is open already: no start-up, no TLS, no password.
  startup(): void {
    process.nextTick(() => this.emit("readyForQuery", { name: "readyForQuery", status: "I" }));
  }
  requestSsl(): void {}
  password(): void {}
  cancel(): void {}
  ref(): void {}
  unref(): void {}

  query(text: string): void {
    this.send(serialize.query(text));
  }
  parse(q: Parameters<typeof serialize.parse>[0]): void {
    this.pending.push(serialize.parse(q));
  }
  bind(config: Parameters<typeof serialize.bind>[0]): void {
    this.pending.push(serialize.bind(config));
  }
  describe(msg: Parameters<typeof serialize.describe>[0]): void {
    this.pending.push(serialize.describe(msg));
  }
  execute(config: Parameters<typeof serialize.execute>[0]): void {
    this.pending.push(serialize.execute(config));
  }
  close(msg: Parameters<typeof serialize.close>[0]): void {
    this.pending.push(serialize.close(msg));
  }
  flush(): void {
    this.send(serialize.flush());
  }
  sync(): void {
    this.send(serialize.sync());
  }
  sendCopyFromChunk(chunk: Buffer): void {
    this.pending.push(serialize.copyData(chunk));
  }
  endCopyFrom(): void {
    this.send(serialize.copyDone());
  }
  sendCopyFail(message: string): void {
    this.send(serialize.copyFail(message));
  }

  end(): void {
    this._ending = true;
    this.queue = this.queue.then(() => {
      this.emit("end");
      this.removeAllListeners();
      this._ending = false;
    });
  }

  // What a round ends with: it goes over with the messages gathered before it, unless corked.
  private send(last: Buffer): void {
    this.pending.push(last);
    if (this.corked > 0) this.held = true;
    else this.handOver();
  }

  private handOver(): void {
    this.held = false;
    const frontend = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.queue = this.queue
      .then(() => this.exchange(frontend))
      .then((backend) =>
        this.parser.parse(Buffer.from(backend.buffer, backend.byteOffset, backend.length), this.dispatch),
      )
      .catch((err: Error) => {
        this.emit("error", err);
      });
  }

  private readonly dispatch = (msg: BackendMessage) => {
    if (msg.name === "notification") {
      const n = msg as NotificationResponseMessage;
      this.onNotification(n.channel, n.payload);
    }
    this.emit(msg.name === "error" ? "errorMessage" : msg.name, msg);
  };
}

/**
 * The embedded database's one session as a pool of one connection (transactions stay apart: one at a time), and
 * LISTEN on that same session, whose notifications come back in the answer of the statement that committed them.
 */
export function embeddedSession(exchange: Exchange) {
  const listeners = new Map<string, Set<() => void>>();
  const connection = new EmbeddedConnection(exchange, (channel) => {
    for (const notify of listeners.get(channel) ?? []) notify();
  });
  // node-postgres takes a connection object in a client's config; the pool passes its config to every client.
  // Never closed for idleness: the session stays, and the next client would only reconnect to it.
  // Pipeline mode: a transaction's begin and first statement go over in one exchange (begin-rides.ts).
  const pool = new pg.Pool({ max: 1, idleTimeoutMillis: 0, connection, pipeline: true } as pg.PoolConfig);
  // Promise-style on a client of the pool: the clients are wrapped for Kysely (pool-clients.ts), whose query takes
  // no callback, which pool.query would pass.
  async function run(text: string): Promise<void> {
    const client = await pool.connect();
    try {
      await client.query(text);
    } finally {
      client.release();
    }
  }
  async function listen(channel: string, onNotify: () => void): Promise<() => Promise<void>> {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
      await run(`LISTEN ${channel}`);
    }
    set.add(onNotify);
    const mine = set;
    return async () => {
      mine.delete(onNotify);
      if (mine.size || listeners.get(channel) !== mine) return;
      listeners.delete(channel);
      // A closed pool is a closed session: nothing listens any more.
      if (!pool.ending) await run(`UNLISTEN ${channel}`);
    };
  }
  return { pool, listen };
}
