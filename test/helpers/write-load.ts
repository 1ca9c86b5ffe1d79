// Writes under load for the backup tests (test/process/backup-*.test.ts): shipments created on 4 connections,
// each with when it was sent and acknowledged, and the check that a restore holds exactly what it should.
import { expect } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { setTimeout as sleep } from "node:timers/promises";
import { inBatches } from "./fixtures.ts";

export interface Created {
  id: string;
  acknowledgedAt: number;
  sentAt: number;
}

/** Creates shipments on 4 connections until stopped: what was acknowledged, and when. */
export function writeLoad(m: LogisticsClient) {
  const created: Created[] = [];
  let stop = false;
  const loop = async (n: number) => {
    for (let i = 0; !stop; i++) {
      const sentAt = performance.now();
      const r = await m.POST("/inbound_shipments/_create", {
        body: { merchants_ref: `BK-${n}-${i}`, sender_name: "A", products: [{ merchants_id: "S", qty: 1 }] },
      });
      if (r.response.status === 201)
        created.push({ id: r.data!.shipment_id, sentAt, acknowledgedAt: performance.now() });
    }
  };
  const done = Promise.all([0, 1, 2, 3].map(loop));
  return {
    created,
    /**
     * Until `count` more writes are acknowledged than now (a loaded machine acknowledges fewer a second than a
     * fixed sleep assumes).
     */
    more: async (count: number, timeoutMs = 30_000) => {
      const target = created.length + count;
      const until = performance.now() + timeoutMs;
      while (created.length < target && performance.now() < until) await sleep(50);
    },
    stop: async () => {
      stop = true;
      await done;
    },
  };
}

/** Every shipment acknowledged before `from` is there; none sent after `to` is. */
export async function expectRestoredAsOf(m: LogisticsClient, created: Created[], from: number, to: number) {
  const before = created.filter((c) => c.acknowledgedAt < from);
  const after = created.filter((c) => c.sentAt > to);
  expect(before.length).toBeGreaterThan(5);
  expect(after.length).toBeGreaterThan(5);
  const statuses = (list: Created[]) =>
    inBatches(
      list,
      async (c) =>
        (await m.GET("/inbound_shipments/{shipment_id}", { params: { path: { shipment_id: c.id } } })).response.status,
    );
  expect(await statuses(before)).toEqual(before.map(() => 200));
  expect(await statuses(after)).toEqual(after.map(() => 404));
}
