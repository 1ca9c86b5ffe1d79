// What `npm run bench` measures: one entry per case. A case says which targets it applies to, what it needs
// on a real server (seeded through the API, once per server) and the request it measures from that state.
import type { LogisticsClient, components } from "../client/index.ts";
import { BASE_PATH } from "../server/app.ts";
import { DEMO } from "../server/demo.ts";
import { measure, OFFERED, type BenchRequest, type Figures, type LoadOptions } from "./measure.ts";

export type { BenchRequest };

/** The servers, and the anchors measured in the same rounds (bench/anchors/, Prism). */
// pglite-relaxed: the embedded database with PGLITE_DURABILITY=relaxed, beside pglite's durable commits (issue 52).
export const TARGETS = ["baseline", "node", "fastify", "prism", "postgres", "pglite", "pglite-relaxed"] as const;
export type TargetName = (typeof TARGETS)[number];
export const SERVER_TARGETS = ["postgres", "pglite", "pglite-relaxed"] as const satisfies readonly TargetName[];
export type ServerTarget = (typeof SERVER_TARGETS)[number];
/** Every target but pglite-relaxed, which only the create is measured on. */
const EVERY_TARGET = TARGETS.filter((t) => t !== "pglite-relaxed");

export interface BenchCase<S = unknown> {
  /** For `--case`. */
  name: string;
  /** For the table. */
  title: string;
  targets: readonly TargetName[];
  /** Printed once: what makes a target's figure differ from the others (e.g. what Prism does not do). */
  note?: string;
  /** Builds what the request needs on one real server; runs once per server, before any measuring. */
  seed?: (api: LogisticsClient) => Promise<S>;
  /** The measured request for one server's seeded state; the baseline and Prism get the reference server's. */
  request: (state: S) => BenchRequest;
  /**
   * One measured run against `origin`; default autocannon on the request. A case that measures something
   * else (e.g. webhook deliveries counted by its own receiver) supplies this and returns the same figures.
   */
  measure?: (origin: string, req: BenchRequest, load: LoadOptions) => Promise<Figures>;
  /** Measured only when named (`--case`), not in a run of every case: a full `npm run bench` keeps its time. */
  onlyWhenNamed?: boolean;
}

const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
export const MERCHANT_AUTH = { authorization: basic(`M-${DEMO.merchantId}`, DEMO.merchantSecret) };
const JSON_BODY = { "content-type": "application/json" };

/** Ten lines, as the issue's goal for creates says. */
export const SHIPMENT: components["schemas"]["InboundShipmentCreate"] = {
  merchants_ref: "PO-BENCH",
  sender_name: "Bench Supplies Oy",
  products: Array.from({ length: 10 }, (_, i) => ({
    merchants_id: `SKU-${i}`,
    name: `Product ${i}`,
    gtin: "",
    qty: 100,
  })),
};

export async function createShipment(api: LogisticsClient): Promise<string> {
  // Five lines read back, as in the issue's reference figures.
  const { data, error, response } = await api.POST("/inbound_shipments/_create", {
    body: { ...SHIPMENT, products: SHIPMENT.products.slice(0, 5) },
  });
  if (!data) throw new Error(`seeding a shipment failed: ${response.status} ${JSON.stringify(error)}`);
  return data.shipment_id;
}

const shipmentPath = (id: string) => `${BASE_PATH}/inbound_shipments/${id}`;

/** How many shipments get-shipment-spread reads in turn. */
const SPREAD = 1000;

async function createShipments(api: LogisticsClient, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count)
    ids.push(
      ...(await Promise.all(Array.from({ length: Math.min(20, count - ids.length) }, () => createShipment(api)))),
    );
  return ids;
}

/** Creates of 10 lines offered at this rate beside get-shipment-writes' GETs. */
const WRITES_PER_SECOND = 100;

/** `req` measured while creates of 10 lines are offered at WRITES_PER_SECOND to the same origin. */
async function besideCreates(origin: string, req: BenchRequest, load: LoadOptions): Promise<Figures> {
  const create: BenchRequest = {
    method: "POST",
    path: `${BASE_PATH}/inbound_shipments/_create`,
    headers: { ...MERCHANT_AUTH, ...JSON_BODY },
    body: JSON.stringify(SHIPMENT),
  };
  const [figures] = await Promise.all([
    measure(origin, req, load),
    measure(origin, create, { seconds: load.seconds, connections: 4, rate: WRITES_PER_SECOND }),
  ]);
  return figures;
}

/** Keeps each case's seed and request types together while the list holds cases of any state. */
function defineCase<S>(c: BenchCase<S>): BenchCase {
  return c as BenchCase;
}

export const CASES: BenchCase[] = [
  defineCase({
    name: "get-shipment",
    title: "GET /inbound_shipments/{id}",
    targets: EVERY_TARGET,
    note: "Prism answers the spec's 1-line example (smaller than the seeded 5 lines) for any id",
    seed: createShipment,
    request: (id) => ({ method: "GET", path: `${BASE_PATH}/inbound_shipments/${id}`, headers: MERCHANT_AUTH }),
  }),
  defineCase({
    name: "get-shipment-1000",
    title: "GET /inbound_shipments/{id} at an offered 1,000 req/s (10 connections)",
    // Latency at a fixed load, no ratio: node's ceiling shows nothing here (and a full run stays under 30 minutes).
    targets: ["baseline", "fastify", "postgres", "pglite"],
    note: "open loop: the latency at a fixed load, the bare app's beside it",
    seed: createShipment,
    request: (id) => ({ method: "GET", path: `${BASE_PATH}/inbound_shipments/${id}`, headers: MERCHANT_AUTH }),
    measure: (origin, req, load) => measure(origin, req, { ...load, ...OFFERED }),
  }),
  defineCase({
    name: "get-shipment-spread",
    title: `GET /inbound_shipments/{id} over ${SPREAD.toLocaleString("en")} shipments in turn`,
    targets: ["baseline", "postgres", "pglite"],
    note: `each request reads the next of ${SPREAD.toLocaleString("en")} shipments of 5 lines, so a GET answer kept in memory (the embedded database's, server/db/coherent-reads.ts) is asked for again only after ${(SPREAD - 1).toLocaleString("en")} others; the baseline serves one shipment's bytes, its requests built the same way`,
    seed: (api) => createShipments(api, SPREAD),
    request: (ids) => ({
      method: "GET",
      path: shipmentPath(ids[0]!),
      headers: MERCHANT_AUTH,
      spread: ids.map(shipmentPath),
    }),
    onlyWhenNamed: true,
  }),
  defineCase({
    name: "get-shipment-writes",
    title: `GET /inbound_shipments/{id} beside creates offered at ${WRITES_PER_SECOND} req/s`,
    targets: ["baseline", "postgres", "pglite"],
    note: `GETs of one shipment while 4 more connections offer creates of 10 lines at ${WRITES_PER_SECOND} req/s to the same target (the baseline answers them 404): every completed write ends what the embedded database keeps (server/db/coherent-reads.ts); req/s and CPU count the GETs only`,
    seed: createShipment,
    request: (id) => ({ method: "GET", path: shipmentPath(id), headers: MERCHANT_AUTH }),
    measure: besideCreates,
    onlyWhenNamed: true,
  }),
  defineCase({
    name: "create-shipment",
    title: "POST /inbound_shipments/_create",
    targets: ["baseline", "node", "prism", "postgres", "pglite", "pglite-relaxed"],
    note: "Prism validates the body and answers the spec's example without storing anything; the baseline replays one answer; pglite-relaxed is the embedded database without durable commits (PGLITE_DURABILITY=relaxed), on the machine's disk as pglite",
    request: () => ({
      method: "POST",
      path: `${BASE_PATH}/inbound_shipments/_create`,
      headers: { ...MERCHANT_AUTH, ...JSON_BODY },
      body: JSON.stringify(SHIPMENT),
    }),
  }),
  defineCase({
    name: "healthz",
    title: "GET /healthz",
    targets: ["baseline", "node", "postgres", "pglite"],
    note: "not in the spec, so Prism has no answer for it",
    request: () => ({ method: "GET", path: "/healthz", headers: {} }),
  }),
];
