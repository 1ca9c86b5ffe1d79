// The floods of `npm run bench:neighbours`: what the noisy side sends (run in a process of its own, so that
// building and sending it does not hold the event loop the quiet side is timed on), and which of the quiet
// side's requests each is measured against.
import { PASSWORD, type Context } from "./context.ts";
import type { LoopOptions, Send } from "./load.ts";
import type { ProbeName } from "./probes.ts";

export const FLOOD_NAMES = [
  "heavy-orders",
  "explain",
  "chunked",
  "taken-email",
  "anonymous-key",
  "pipelined-404",
  "unauthenticated",
  "wrong-path",
  "preflight",
] as const;
export type FloodName = (typeof FLOOD_NAMES)[number];

export interface Flood {
  /** What the noisy side does, in one sentence (the report and docs/benchmarks.md). */
  what: string;
  probes: ProbeName[];
  load(ctx: Context): Pick<LoopOptions, "connections" | "next" | "localAddress" | "pipeline">;
}

const json = { "content-type": "application/json" };
const always = (s: Send) => () => s;
/** Eight client addresses (TEST-NET-2) none of the quiet side's, told by X-Forwarded-For through the loopback proxy the
 * server's TRUST_PROXY names (setup.ts), as behind a load balancer. */
const forwarded = (conn: number) => ({ "x-forwarded-for": `198.51.100.${(conn % 8) + 1}` });

export const FLOODS: Record<FloodName, Flood> = {
  "heavy-orders": {
    what: "the noisy merchant POSTs 500-line orders (135 KB, with Content-Length) on 20 connections",
    probes: ["get-shipment"],
    load: (ctx) => ({
      connections: 20,
      next: always({
        method: "POST",
        path: "/orders/_create",
        headers: { authorization: ctx.noisy.auth, ...json },
        body: heavyOrder(),
      }),
    }),
  },
  explain: {
    what: "the noisy merchant, whose pickup price list has 200 rules that never match (100 KB) and whose settings ask for 50 pickup points, GETs its shipping options with `explain=true` on 20 connections; the quiet merchant GETs its own (without explain)",
    probes: ["get-shipping-options"],
    load: (ctx) => ({
      connections: 20,
      next: always({
        method: "GET",
        path: "/shipping_options?postalcode=00100&country=FI&explain=true",
        headers: { authorization: ctx.noisy.auth },
      }),
    }),
  },
  chunked: {
    what: "the noisy merchant POSTs 970 KB inbound shipments with `Transfer-Encoding: chunked` (no Content-Length, so nothing is counted before the body is read) on 20 connections",
    probes: ["get-shipment"],
    load: (ctx) => {
      const chunks = chunkedShipment();
      return {
        connections: 20,
        next: always({
          method: "POST",
          path: "/inbound_shipments/_create",
          headers: { authorization: ctx.noisy.auth, ...json },
          chunks,
        }),
      };
    },
  },
  "taken-email": {
    what: "the noisy merchant (HTTP Basic) POSTs a portal user whose email one of its users already has, on 45 connections (each answer is `409`); the quiet merchant's portal user signs in meanwhile",
    probes: ["sign-in", "get-shipment"],
    load: (ctx) => ({
      connections: 45,
      next: always({
        method: "POST",
        path: "/portal_users/_create",
        headers: { authorization: ctx.noisy.auth, ...json },
        body: JSON.stringify({ email: ctx.noisy.takenEmail, password: PASSWORD, role: "staff" }),
      }),
    }),
  },
  "anonymous-key": {
    what: "no merchant: wrong HTTP Basic secrets for ever new unknown key ids from 20 client addresses (127.0.0.2-21, one connection each), each address stopping short of the server's limit on failed sign-ins per address; another merchant's portal user signs in, and merchants whose keys are not cached call the API",
    probes: ["sign-in", "cold-key"],
    load: (ctx) => {
      // Below the limit each address would be refused at (429), as an attacker spreading guesses would stay.
      const perAddress = ctx.loginFailuresPerAddress > 0 ? ctx.loginFailuresPerAddress - 10 : Infinity;
      return {
        connections: 20,
        localAddress: (conn) => `127.0.0.${conn + 2}`,
        next: (conn, n) =>
          n >= perAddress
            ? undefined
            : {
                method: "GET",
                path: "/merchant/shipping_settings",
                headers: {
                  authorization: `Basic ${Buffer.from(`M-anon-${conn}-${n}-${process.pid}.example.com:wrong-secret-${n}`).toString("base64")}`,
                },
              },
      };
    },
  },
  "pipelined-404": {
    what: "no credentials: `GET /no_such_thing` (outside the API's base path), 16 requests pipelined at a time on each of 32 connections, from 8 client addresses (X-Forwarded-For through a trusted proxy)",
    probes: ["get-shipment"],
    load: () => ({
      connections: 32,
      pipeline: 16,
      next: (conn) => ({ method: "GET", path: "/no_such_thing", fromRoot: true, headers: forwarded(conn) }),
    }),
  },
  unauthenticated: {
    what: "no credentials: `GET /inbound_shipments` (`401`) on 32 connections from 8 client addresses (X-Forwarded-For through a trusted proxy)",
    probes: ["get-shipment"],
    load: () => ({
      connections: 32,
      next: (conn) => ({ method: "GET", path: "/inbound_shipments", headers: forwarded(conn) }),
    }),
  },
  "wrong-path": {
    what: "the noisy merchant's credentials on a path under the base path that matches no operation (`404`), 16 requests pipelined at a time on each of 32 connections, from 8 client addresses",
    probes: ["get-shipment"],
    load: (ctx) => ({
      connections: 32,
      pipeline: 16,
      next: (conn) => ({
        method: "GET",
        path: "/no_such_thing",
        headers: { authorization: ctx.noisy.auth, ...forwarded(conn) },
      }),
    }),
  },
  preflight: {
    what: "CORS preflights for shipping options, each from a new `Origin` that no key lists (so each asks the database), on 20 connections from one client address",
    probes: ["get-shipment"],
    load: () => ({
      connections: 20,
      next: (conn, n) => ({
        method: "OPTIONS",
        path: "/shipping_options",
        headers: {
          origin: `https://shop-${conn}-${n}.preflight.example`,
          "access-control-request-method": "GET",
          "x-forwarded-for": "198.51.100.99",
        },
      }),
    }),
  },
};

/** 500 order lines with 200-character names: about 135 KB. */
function heavyOrder(): string {
  return JSON.stringify({
    merchants_ref: "FLOOD",
    customer: { postalcode: "00100", country: "FI" },
    products: Array.from({ length: 500 }, (_, i) => ({
      merchants_id: `SKU-${i}`,
      name: `${"Heavy product name ".repeat(20)}${i}`.slice(0, 200),
      qty: 1,
      unit_price: 9.9,
      weight_g: 100,
    })),
  });
}

/**
 * An inbound shipment of about 970 KB in 64 KB writes: 3,950 product lines, more than the 500 the spec
 * allows, so the server reads, parses and validates all of it to answer 400 (no larger body is valid).
 */
function chunkedShipment(): Buffer[] {
  const body = Buffer.from(
    JSON.stringify({
      merchants_ref: "FLOOD-CHUNKED",
      sender_name: "Noisy Supplies Oy",
      products: Array.from({ length: 3950 }, (_, i) => ({
        merchants_id: `SKU-${i}`,
        name: `${"Chunked product name ".repeat(10)}${i}`.slice(0, 200),
        qty: 1,
      })),
    }),
  );
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; at += 64 * 1024) chunks.push(body.subarray(at, at + 64 * 1024));
  return chunks;
}

export const bodyKb = (b: string | Buffer[]) =>
  Math.round((typeof b === "string" ? Buffer.byteLength(b) : b.reduce((s, c) => s + c.length, 0)) / 1024);
