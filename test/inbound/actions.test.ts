// `actions` of a shipment: the merchant's actions allowed in its status, published from the table the server
// enforces (states.ts). For every status, each action listed succeeds and each one not listed is 409 invalid_state;
// the spec's description of the table says the same; every answer and webhook snapshot carries it.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { merchantActions } from "../../server/inbound/states.ts";
import { specDocument } from "../../server/shared/spec-document.ts";
import { arrive, expectError, getShipment, moveTo } from "../helpers/fixtures.ts";
import { useTestAccounts, type TestServer } from "../helpers/server.ts";
import { ALL_STATUSES, shipmentIn, type Status } from "../helpers/statuses.ts";

type Action = components["schemas"]["InboundShipmentAction"];
const ACTIONS: Action[] = ["modify", "confirm", "delete"];

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
useTestAccounts((s) => ({ srv, m, w } = s));

/** Takes `action` on shipment `id` as the merchant. */
function take(action: Action, id: string) {
  const path = { params: { path: { shipment_id: id } } };
  switch (action) {
    case "modify":
      return m.POST("/inbound_shipments/{shipment_id}", { ...path, body: { sender_name: "Changed Oy" } });
    case "confirm":
      return m.POST("/inbound_shipments/{shipment_id}/_confirm", path);
    case "delete":
      return m.DELETE("/inbound_shipments/{shipment_id}", path);
  }
}

describe("actions per status", () => {
  it.each(ALL_STATUSES)("in %s, exactly the listed actions are accepted", async (status) => {
    const listed = (await getShipment(m, await shipmentIn(status, m, w))).actions!;
    expect(listed).toEqual(ACTIONS.filter((a) => listed.includes(a))); // in the spec's order
    for (const action of ACTIONS) {
      const id = await shipmentIn(status, m, w);
      const before = await getShipment(m, id);
      expect(before.actions).toEqual(listed);
      if (listed.includes(action)) {
        const r = await take(action, id);
        expect(r.response.status, `${action} in ${status}: ${JSON.stringify(r.error)}`).toBe(200);
      } else {
        const snapshot = await srv.snapshot();
        const error = expectError(await take(action, id), 409, "invalid_state");
        expect(error.message).toContain(`status ${status}`);
        expect(await srv.snapshot()).toEqual(snapshot);
        expect(await getShipment(m, id)).toEqual(before);
      }
    }
  });

  it("follow the status: initial, then confirmed, then deleted", async () => {
    const id = await shipmentIn("initial", m, w);
    expect((await getShipment(m, id)).actions).toEqual(["modify", "confirm", "delete"]);
    await take("confirm", id);
    expect((await getShipment(m, id)).actions).toEqual(["modify", "delete"]);
    await take("delete", id);
    expect((await getShipment(m, id)).actions).toEqual([]);
  });
});

describe("the published table", () => {
  it("the spec's description of InboundShipmentAction shows the server's table, one row per status", () => {
    const doc = specDocument() as { components: { schemas: Record<string, { description?: string }> } };
    const description = doc.components.schemas.InboundShipmentAction!.description!;
    const rows = [...description.matchAll(/^\| `([a-z_]+)` \| (.+) \|$/gm)].map(
      ([, status, actions]) =>
        [status, actions === "none" ? [] : [...actions!.matchAll(/`([a-z]+)`/g)].map((a) => a[1])] as const,
    );
    expect(rows.map(([status]) => status)).toEqual(ALL_STATUSES);
    for (const [status, actions] of rows)
      expect(actions, status).toEqual(merchantActions({ status: status as Status, hasArrivals: false }));
  });

  it("delete needs that nothing has arrived, whatever the status says", () => {
    expect(merchantActions({ status: "initial", hasArrivals: true })).toEqual(["modify", "confirm"]);
    expect(merchantActions({ status: "confirmed", hasArrivals: true })).toEqual(["modify"]);
  });
});

describe("every answer with a shipment carries actions", () => {
  it("the list, the warehouse's answers, and webhook snapshots as of their event", async () => {
    const id = await shipmentIn("initial", m, w);
    const listed = await m.GET("/inbound_shipments", { params: { query: { limit: 100 } } });
    expect(listed.data!.items.find((s) => s.id === id)!.actions).toEqual(["modify", "confirm", "delete"]);

    const atWarehouse = await moveTo(w, id, { status: "arrived_at_warehouse" });
    expect(atWarehouse.data!.actions).toEqual(["modify"]);
    const arrived = await arrive(w, id, [
      { merchants_id: "SKU-1001", change: 10 },
      { merchants_id: "SKU-1002", change: 5 },
    ]);
    expect(arrived.data!.actions).toEqual(["modify"]);
    expect((await moveTo(w, id, { status: "processed" })).data!.actions).toEqual([]);

    const feed = await m.GET("/events", {
      params: { query: { event_type: ["inbound_shipment.arrived_at_warehouse", "inbound_shipment.processed"] } },
    });
    expect(feed.response.status).toBe(200);
    const snapshots = feed.data!.items.flatMap((e) =>
      e.event_type === "inbound_shipment.arrived_at_warehouse" || e.event_type === "inbound_shipment.processed"
        ? [[e.event_type, e.payload.shipment.id, e.payload.shipment.actions] as const]
        : [],
    );
    expect(snapshots.filter(([, shipment]) => shipment === id)).toEqual([
      ["inbound_shipment.arrived_at_warehouse", id, ["modify"]],
      ["inbound_shipment.processed", id, []],
    ]);
  });
});
