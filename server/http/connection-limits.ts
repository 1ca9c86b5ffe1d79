// What one client can hold of the server's connections. Two clients each holding 10,000 sockets with a request's
// headers never ended took 19,767 of the process's open files for 25 s; every new connection, /readyz's too, was
// reset. So: a cap on one address's open connections and on all of them, a time limit for a request's headers and
// for the whole request, and idle keep-alive sockets closed; a connection past a cap is closed at once, before it
// costs a parser. Behind a proxy (TRUST_PROXY) every connection comes from the proxy: its addresses are not capped
// here (HAProxy caps and times out its clients: deploy/haproxy.cfg).
import type { Server } from "node:http";
import type { Socket } from "node:net";

export interface ConnectionLimits {
  /** Open connections from one address (a trusted proxy's aside); 0: no cap. */
  perAddress: number;
  /** Open connections in all (server.maxConnections); 0: no cap. */
  total: number;
  /** A request's headers must have arrived within this (server.headersTimeout). */
  headersMs: number;
  /** The whole request, its body too, within this (server.requestTimeout). */
  requestMs: number;
  /** An idle keep-alive connection is closed after this (server.keepAliveTimeout). */
  idleMs: number;
}

// 256 a client: browsers open 6 per host, an API client's pool a few dozen; many processes behind one NAT fit.
// 10 s for headers: a client on a slow link sends its few hundred bytes in well under a second.
export const CONNECTION_LIMITS: ConnectionLimits = {
  perAddress: 256,
  total: 16_384,
  headersMs: 10_000,
  requestMs: 60_000,
  idleMs: 5_000,
};

/** How often Node checks the header and request time limits (its default is every 30 s, too late to matter). */
export const CHECK_INTERVAL_MS = 1_000;

export function limitConnections(
  server: Server,
  o: ConnectionLimits = CONNECTION_LIMITS,
  isProxy: (address: string) => boolean = () => false,
): void {
  server.headersTimeout = o.headersMs;
  server.requestTimeout = o.requestMs;
  server.keepAliveTimeout = o.idleMs;
  if (o.total > 0) server.maxConnections = o.total;
  if (o.perAddress <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    if (isProxy(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > o.perAddress) return void socket.destroy();
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
