// What the quiet side measures: other merchants' requests, alone and under a flood, in one shared window.
import { basic, type Context } from "./context.ts";
import { loop, percentile, type LoopResult, type Send } from "./load.ts";

export type ProbeName = "get-shipment" | "get-shipping-options" | "sign-in" | "cold-key";

interface Probe {
  /** As the report names it. */
  title: string;
  /** A closed loop of this many connections (reads: many samples), or an open loop of requests a second. */
  connections?: number;
  perSecond?: number;
  /** The request of the n-th call. */
  send(ctx: Context): (n: number) => Send;
}

export const PROBES: Record<ProbeName, Probe> = {
  "get-shipment": {
    title: "GET its shipment",
    perSecond: 50,
    send: (ctx) => {
      const s: Send = {
        method: "GET",
        path: `/inbound_shipments/${ctx.quiet.shipmentId}`,
        headers: { authorization: ctx.quiet.auth },
      };
      return () => s;
    },
  },
  "get-shipping-options": {
    title: "GET its shipping options",
    perSecond: 50,
    send: (ctx) => {
      const s: Send = {
        method: "GET",
        path: "/shipping_options?postalcode=00100&country=FI",
        headers: { authorization: ctx.quiet.auth },
      };
      return () => s;
    },
  },
  "sign-in": {
    title: "portal sign-in",
    perSecond: 1.5,
    send: (ctx) => {
      const s: Send = {
        method: "POST",
        path: "/portal_sessions/_create",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ctx.quiet.email, password: ctx.quiet.password }),
      };
      return () => s;
    },
  },
  "cold-key": {
    title: "cold API key check",
    perSecond: 1.5,
    send: (ctx) => () => {
      // Each merchant once: a second check within the cache's minute would be a warm one.
      const id = ctx.cold.ids[coldUsed++ % ctx.cold.ids.length]!;
      if (coldUsed > ctx.cold.ids.length) coldReused = true;
      return {
        method: "GET",
        path: "/merchant/shipping_settings",
        headers: { authorization: basic(`M-${id}`, ctx.cold.secret) },
      };
    },
  },
};

/** "4 connections", "3 a second". */
export const probeLoad = (p: ProbeName) =>
  PROBES[p].perSecond ? `${PROBES[p].perSecond} a second` : `${PROBES[p].connections} connections`;

let coldUsed = 0;
let coldReused = false;
/** Whether the cold merchants ran out and some were checked twice (then warm, if within a minute). */
export const coldKeysReused = () => coldReused;

export interface ProbeFigures {
  probe: ProbeName;
  p50: number;
  p99: number;
  answered: number;
  statuses: Record<string, number>;
  /** Requests not answered 2xx: other statuses, connection errors, cut off at the end. */
  failed: number;
  cutOff: number;
  errors: number;
}

/** The probes side by side for `seconds`, from `startAt` (performance.now() time) when given. */
export async function runProbes(
  ctx: Context,
  names: ProbeName[],
  seconds: number,
  startAt?: number,
): Promise<ProbeFigures[]> {
  return Promise.all(
    names.map(async (probe) => {
      const next = PROBES[probe].send(ctx);
      const r: LoopResult = await loop({
        api: ctx.api,
        ...(PROBES[probe].perSecond
          ? { perSecond: PROBES[probe].perSecond }
          : { connections: PROBES[probe].connections }),
        seconds,
        next: (_conn, n) => next(n),
        ...(startAt !== undefined && { startAt }),
      });
      return {
        probe,
        p50: percentile(r.latencies, 50),
        p99: percentile(r.latencies, 99),
        answered: r.latencies.length - r.cutOff,
        statuses: r.statuses,
        failed:
          r.errors +
          r.cutOff +
          Object.entries(r.statuses).reduce((n, [status, count]) => n + (status.startsWith("2") ? 0 : count), 0),
        cutOff: r.cutOff,
        errors: r.errors,
      };
    }),
  );
}
