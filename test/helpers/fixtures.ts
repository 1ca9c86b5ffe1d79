import { expect } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import type { TestServer } from "./server.ts";

type S = components["schemas"];

export const announcement = (overrides: Partial<S["InboundShipmentCreate"]> = {}): S["InboundShipmentCreate"] => ({
  merchants_ref: "PO-2016-0042",
  sender_name: "Acme Supplies Oy",
  products: [
    { merchants_id: "SKU-1001", name: "Blue T-shirt M", gtin: "6410405082657", qty: 10 },
    { merchants_id: "SKU-1002", name: "Blue T-shirt L", gtin: "", qty: 5 },
  ],
  ...overrides,
});

export async function createShipment(m: LogisticsClient, body = announcement()): Promise<string> {
  const { data, response } = await m.POST("/inbound_shipments/_create", { body });
  expect(response.status).toBe(201);
  return data!.shipment_id;
}

export async function getShipment(c: LogisticsClient, id: string): Promise<S["InboundShipment"]> {
  const { data, response } = await c.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: id } } });
  expect(response.status).toBe(200);
  return data!;
}

export async function arrive(w: LogisticsClient, id: string, arrivals: S["ArrivalLineInput"][], ts?: string) {
  return w.POST("/inbound_shipments/{shipment_id}/arrivals", {
    params: { path: { shipment_id: id } },
    body: { arrivals, ...(ts && { ts }) },
  });
}

export async function moveTo(w: LogisticsClient, id: string, body: S["InboundStatusChange"]) {
  return w.POST("/inbound_shipments/{shipment_id}/_status", { params: { path: { shipment_id: id } }, body });
}

/**
 * Asserts the exact failure: status, error code, the shared error shape with a request id equal to
 * the X-Request-Id header, and that `details` names each of `paths`.
 */
export function expectError(
  result: { response: Response; error?: unknown },
  status: number,
  code: string,
  paths: string[] = [],
): S["Error"] {
  expect(result.response.status).toBe(status);
  const error = result.error as S["Error"];
  expect(error).toMatchObject({ success: false, code });
  expect(typeof error.message).toBe("string");
  expect(Array.isArray(error.details)).toBe(true);
  expect(error.request_id).toEqual(expect.any(String));
  expect(result.response.headers.get("x-request-id")).toBe(error.request_id);
  const got = error.details.map((d) => d.path);
  for (const p of paths) expect(got, `details should name ${p}: ${JSON.stringify(error.details)}`).toContain(p);
  return error;
}

/** Runs a request that must be rejected and asserts that no stored row changed. */
export async function expectUnchanged<R>(srv: TestServer, request: () => Promise<R>): Promise<R> {
  const before = await srv.snapshot();
  const result = await request();
  expect(await srv.snapshot()).toEqual(before);
  return result;
}

export const basicAuth = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;

/** `fn` over `items`, `size` at a time: one caller may have only so many requests in progress (64 by default). */
export async function inBatches<T, R>(items: T[], fn: (item: T, index: number) => Promise<R>, size = 16): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => fn(item, i + j)))));
  return out;
}
