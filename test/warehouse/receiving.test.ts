// The warehouse's day, end to end on a real server (issue 49's "Done when"): the first supervisor made by the
// operator's CLI signs in at a station and adds a receiver; the receiver lists the day's expected shipments of two
// merchants with the filters and the search, looks one up by id and by a unique reference (a shared one: 409 with
// the candidates), marks it arrived and records arrivals with its session and CSRF token; the merchant then reads
// who recorded them on the arrival and on the items_arrived webhook.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/database.ts";
import { createTestDatabase } from "../helpers/database.ts";
import { announcement, createShipment, expectError, expectUnchanged, getShipment } from "../helpers/fixtures.ts";
import { startReceiver, type Receiver } from "../helpers/receiver.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { cookieClient, stationSignIn, today, type StationUser } from "../helpers/station.ts";
import { webhookBodyProblems } from "../helpers/webhook-schemas.ts";
import { cli } from "../process/helpers.ts";

type S = components["schemas"];

const SUPERVISOR = { email: "Sanna@Warehouse.example.com", password: "sanna-password-1" };
const RECEIVER = { email: "maija@warehouse.example.com", name: "Maija Virtanen", password: "maija-password-1" };

let srv: TestServer;
let rx: Receiver;
let db: DatabaseHandle;
let closeDb: () => Promise<void>;
let cliOutput: string;
let supervisor: StationUser;
let receiver: StationUser;
let a: LogisticsClient;
let b: LogisticsClient;
const ids: Record<string, string> = {};

/**
 * A migrated database of the test's engine whose first warehouse user the CLI made, as an operator makes it: the
 * CLI runs on the database before the server opens it (an embedded one belongs to one process at a time).
 */
async function databaseWithSupervisor(): Promise<void> {
  const args = ["warehouse-user", "create", SUPERVISOR.email, "--role", "supervisor", "--name", "Sanna Supervisor"];
  if (process.env.TEST_DB === "postgres") {
    const pg = await createTestDatabase();
    const r = await cli([...args, "--password", SUPERVISOR.password], { DATABASE_URL: pg.url! });
    [db, closeDb, cliOutput] = [pg, () => pg.close(), `${r.code}\n${r.output}`];
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), "logistics-warehouse-"));
  cpSync(inject("pgliteTemplate"), path.join(dir, "db"), { recursive: true });
  const env = { PGLITE_DIR: path.join(dir, "db"), DATABASE_URL: "" };
  const r = await cli([...args, "--password", SUPERVISOR.password], env);
  const refused = await cli(["warehouse-user", "create", "short@warehouse.example.com", "--password", "short"], env);
  cliOutput = `${r.code}\n${r.output}\nrefused ${refused.code}\n${refused.output}`;
  const handle = await openDatabase({ pgliteDir: env.PGLITE_DIR });
  db = handle;
  closeDb = async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

beforeAll(async () => {
  await databaseWithSupervisor();
  rx = await startReceiver();
  srv = await startTestServer({
    database: db,
    webhooks: { allowPrivateNetworks: true },
    dispatcher: { pollMs: 600_000 },
  });
  a = await srv.merchant("shop-a.example.com");
  b = await srv.merchant("shop-b.example.com");
  const hook = await a.POST("/webhook_endpoints/_create", {
    body: { url: rx.url("/a"), event_types: ["inbound_shipment.items_arrived"] },
  });
  expect(hook.response.status).toBe(201);
  // Today's of both merchants, a reference both use, and shipments of other days or none.
  ids.a1 = await createShipment(a, announcement({ merchants_ref: "PO-A-1", expected_at_wh: today() }));
  ids.aShared = await createShipment(a, announcement({ merchants_ref: "PO-SHARED", expected_at_wh: today() }));
  ids.a2 = await createShipment(a, announcement({ merchants_ref: "PO-A-2", expected_at_wh: today(1) }));
  ids.b7 = await createShipment(
    b,
    announcement({ merchants_ref: "PO-B-7", sender_name: "Nordic Textiles Ab", expected_at_wh: today() }),
  );
  ids.bShared = await createShipment(b, announcement({ merchants_ref: "PO-SHARED", expected_at_wh: today(-1) }));
  ids.b8 = await createShipment(b, announcement({ merchants_ref: "PO-B-8" }));
}, 120_000);
afterAll(async () => {
  await srv?.close();
  await rx?.close();
  await closeDb?.();
});

const todays = { query: { expected_from: today(), expected_to: today() } };

describe("a warehouse user created by the CLI", () => {
  it("was created by `warehouse-user create`, which refuses a password the API would refuse", () => {
    expect(cliOutput).toMatch(/^0\n/);
    expect(cliOutput).toContain("Created warehouse user sanna@warehouse.example.com (Sanna Supervisor, supervisor).");
    if (process.env.TEST_DB !== "postgres") expect(cliOutput).toMatch(/refused [1-9]\d*\n[\s\S]*password/);
  });

  it("signs in at a station and adds a receiver through the API", async () => {
    supervisor = await stationSignIn(srv, SUPERVISOR.email, SUPERVISOR.password);
    expect(supervisor.session.user).toMatchObject({ email: "sanna@warehouse.example.com", role: "supervisor" });
    const created = await supervisor.client.POST("/warehouse_users/_create", {
      body: { ...RECEIVER, role: "receiver" },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ email: RECEIVER.email, name: RECEIVER.name, role: "receiver" });
    receiver = await stationSignIn(srv, RECEIVER.email, RECEIVER.password);
    expect(receiver.session.user.id).toBe(created.data!.id);
  });
});

describe("what is coming", () => {
  const refs = (r: { data?: S["WarehouseInboundShipmentList"] }) => r.data!.items.map((s) => s.merchants_ref);

  it("lists today's expected shipments of both merchants, earliest first, with lines and no prices", async () => {
    const r = await receiver.client.GET("/warehouse/inbound_shipments", { params: todays });
    expect(r.response.status).toBe(200);
    expect(r.data!.items.map((s) => s.id).sort()).toEqual([ids.a1, ids.aShared, ids.b7].sort());
    const b7 = r.data!.items.find((s) => s.id === ids.b7)!;
    expect(b7).toMatchObject({
      merchant_id: "shop-b.example.com",
      sender_name: "Nordic Textiles Ab",
      status: "initial",
    });
    expect(b7.lines[0]).toEqual({
      product_id: expect.any(String),
      merchants_id: "SKU-1001",
      name: "Blue T-shirt M",
      gtin: "6410405082657",
      qty: 10,
      arrivedQty: 0,
    });
    expect(JSON.stringify(r.data)).not.toContain("purchasePrice");
  });

  it("puts the expected date first across merchants, shipments without one last", async () => {
    const r = await receiver.client.GET("/warehouse/inbound_shipments", { params: { query: { q: "PO-" } } });
    const dates = r.data!.items.map((s) => s.expected_at_wh ?? "9999-12-31");
    expect(dates).toEqual([...dates].sort());
    expect(r.data!.items.at(-1)!.id).toBe(ids.b8);
    expect(r.data!.items[0]!.id).toBe(ids.bShared);
  });

  it("filters by merchant, by status and by a piece of the reference or the sender, alone or together", async () => {
    const list = (query: Record<string, unknown>) =>
      receiver.client.GET("/warehouse/inbound_shipments", { params: { query: { ...todays.query, ...query } } });
    expect(refs(await list({ merchant_id: "SHOP-B.example.com" }))).toEqual(["PO-B-7"]);
    expect(refs(await list({ q: "nordic" }))).toEqual(["PO-B-7"]);
    expect(refs(await list({ q: "a-1" }))).toEqual(["PO-A-1"]);
    expect(
      (await b.POST("/inbound_shipments/{shipment_id}/_confirm", { params: { path: { shipment_id: ids.b7! } } }))
        .response.status,
    ).toBe(200);
    expect(refs(await list({ status: ["confirmed"] }))).toEqual(["PO-B-7"]);
    expect(refs(await list({ status: ["confirmed"], merchant_id: "shop-a.example.com" }))).toEqual([]);
  });

  it("pages like the other lists: every one of the day once, following next_cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const r = await receiver.client.GET("/warehouse/inbound_shipments", {
        params: { query: { ...todays.query, limit: 1, ...(cursor && { cursor }) } },
      });
      seen.push(...r.data!.items.map((s) => s.id));
      if (r.data!.next_cursor === null) break;
      cursor = r.data!.next_cursor;
    }
    expect(seen.sort()).toEqual([ids.a1, ids.aShared, ids.b7].sort());
  });
});

describe("looking up a scanned code", () => {
  const lookUp = (code: string) =>
    receiver.client.GET("/warehouse/inbound_shipments/_lookup", { params: { query: { code } } });

  it("finds a shipment by its id (the label's barcode) and by a reference no other receiving shipment has", async () => {
    const byId = await lookUp(ids.a1!);
    expect(byId.response.status).toBe(200);
    expect(byId.data).toMatchObject({ id: ids.a1, merchant_id: "shop-a.example.com", merchants_ref: "PO-A-1" });
    const byRef = await lookUp(" PO-B-7 ");
    expect(byRef.data?.id).toBe(ids.b7);
  });

  it("answers a reference several receiving shipments share with 409 ambiguous_reference listing them", async () => {
    const r = await expectUnchanged(srv, () => lookUp("PO-SHARED"));
    const error = expectError(r, 409, "ambiguous_reference") as unknown as S["AmbiguousReference"];
    expect(error.candidates.map((c) => [c.id, c.merchant_id])).toEqual([
      [ids.bShared, "shop-b.example.com"],
      [ids.aShared, "shop-a.example.com"],
    ]);
  });

  it("answers a code that names nothing with 404", async () => {
    expectError(await lookUp("PO-NOBODY"), 404, "not_found");
    expectError(await lookUp("0123456789abcdef01234567"), 404, "not_found");
  });
});

describe("receiving", () => {
  let recorded: S["InboundShipment"];

  it("marks the shipment arrived and records arrivals with the receiver's session and CSRF token", async () => {
    const p = { params: { path: { shipment_id: ids.a1! } } };
    const arrived = await receiver.client.POST("/inbound_shipments/{shipment_id}/_status", {
      ...p,
      body: { status: "arrived_at_warehouse" },
    });
    expect(arrived.response.status).toBe(200);
    expect(arrived.data!.status).toBe("arrived_at_warehouse");
    const key = { header: { "Idempotency-Key": "station-batch-1" } };
    const body = { arrivals: [{ merchants_id: "SKU-1001", change: 4 }] };
    const first = await receiver.client.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { ...p.params, ...key },
      body,
    });
    expect(first.response.status).toBe(200);
    // The station's resend of the same batch: the first answer, counted once.
    const again = await receiver.client.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { ...p.params, ...key },
      body,
    });
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    recorded = await getShipment(a, ids.a1!);
    expect(recorded.products[0]!.arrivedQty).toBe(4);
  });

  it("lets the merchant read who recorded the arrival, on the shipment and on the items_arrived webhook", async () => {
    const who = { type: "warehouse_user", id: receiver.session.user.id, name: RECEIVER.name };
    expect(recorded.products[0]!.arrivals).toEqual([{ ts: expect.any(String), change: 4, recorded_by: who }]);
    const [event] = await rx.waitFor(1, { path: "/a" });
    const body = JSON.parse(event!.body) as { payload: S["InboundItemsArrivedPayload"] };
    expect(webhookBodyProblems("inbound_shipment.items_arrived", body)).toEqual([]);
    expect(body.payload).toMatchObject({ shipment_id: ids.a1, recorded_by: who });
  });

  it("names a warehouse system with the shared W-... secret as the warehouse", async () => {
    const w = await srv.operator("wms-main");
    const r = await w.POST("/inbound_shipments/{shipment_id}/arrivals", {
      params: { path: { shipment_id: ids.a1! } },
      body: { arrivals: [{ merchants_id: "SKU-1002", change: 5 }] },
    });
    expect(r.response.status).toBe(200);
    const line = (await getShipment(a, ids.a1!)).products.find((l) => l.product.merchants_id === "SKU-1002")!;
    expect(line.arrivals[0]!.recorded_by).toEqual({ type: "warehouse", id: "wms-main", name: "wms-main" });
    const [, event] = await rx.waitFor(2, { path: "/a" });
    expect(JSON.parse(event!.body).payload.recorded_by).toEqual({
      type: "warehouse",
      id: "wms-main",
      name: "wms-main",
    });
  });

  it("refuses a write without the CSRF token, and changes nothing", async () => {
    const noCsrf = cookieClient(srv, receiver.cookie);
    const r = await expectUnchanged(srv, () =>
      noCsrf.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: ids.a1! } },
        body: { arrivals: [{ merchants_id: "SKU-1001", change: 1 }] },
      }),
    );
    expectError(r, 403, "access_denied");
  });
});
