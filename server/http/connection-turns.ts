// Pipelined requests (HTTP/1.1 lets a client send many on one connection without waiting) reach the app all at
// once: Node parses every request in what it has read and hands each to the app at once, answering them in order.
// A client pipelining 16 requests on each of 32 connections had 512 in progress and moved another merchant's p50
// 28x. So a connection's requests run a few at a time; the rest wait, unread, for the ones before them to be
// answered (they would be answered after them anyway). A connection that queues more than a client has any use
// for is closed.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionTurns {
  /** Requests of one connection in progress at once. */
  running: number;
  /** Requests of one connection waiting for their turn; one more closes the connection. */
  waiting: number;
}

export const CONNECTION_TURNS: ConnectionTurns = { running: 4, waiting: 64 };

interface Turns {
  running: number;
  waiting: (() => void)[];
}

export function connectionTurns<Req extends IncomingMessage, Res extends ServerResponse>(
  handle: (req: Req, res: Res) => void,
  o: ConnectionTurns = CONNECTION_TURNS,
): (req: Req, res: Res) => void {
  const bySocket = new WeakMap<Socket, Turns>();
  return (req, res) => {
    const socket = req.socket;
    let turns = bySocket.get(socket);
    if (!turns) {
      const t: Turns = { running: 0, waiting: [] };
      bySocket.set(socket, (turns = t));
      // A closed connection's waiting requests will never be answered: drop them.
      socket.once("close", () => (t.waiting.length = 0));
    }
    const t = turns;
    const run = () => {
      t.running++;
      // "close" comes for every response, answered or aborted.
      res.once("close", () => {
        t.running--;
        if (socket.destroyed) t.waiting.length = 0;
        else t.waiting.shift()?.();
      });
      handle(req, res);
    };
    if (t.running < o.running) return run();
    if (t.waiting.length >= o.waiting) {
      t.waiting.length = 0;
      return void socket.destroy();
    }
    t.waiting.push(run);
  };
}
