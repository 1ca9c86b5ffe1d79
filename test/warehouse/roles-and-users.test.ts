// Warehouse users and what each role may do: the role table on status moves (a receiver's forbidden move is 403
// and changes nothing), supervisors managing users, station sessions beside portal sessions in one browser, the
// shared sign-in throttle, and every bad input of the warehouse's list and lookup refused with its exact answer.
import { describe, expect, it } from "vitest";
import type { components, LogisticsClient } from "../../client/index.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { provisionWarehouseUser } from "../../server/warehouse/users.ts";
import {
  announcement,
  arrive,
  createShipment,
  expectError,
  expectUnchanged,
  getShipment,
} from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { cookieClient, stationSignIn, type StationUser } from "../helpers/station.ts";

type S = components["schemas"];

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;
let supervisor: StationUser;
let receiver: StationUser;
const PASSWORD = "warehouse-password";

useTestServer(
  async (s) => {
    srv = s;
    m = await s.merchant("roles-shop.example.com");
    w = await s.operator("roles-wms");
    await provisionWarehouseUser(s.handle.db, "sup@roles.example.com", PASSWORD, { role: "supervisor", name: "Sam" });
    await provisionWarehouseUser(s.handle.db, "rec@roles.example.com", PASSWORD, { role: "receiver", name: "Riku" });
    supervisor = await stationSignIn(s, "sup@roles.example.com", PASSWORD);
    receiver = await stationSignIn(s, "rec@roles.example.com", PASSWORD);
  },
  { loginLimits: { perAddress: 0, perAccount: 3, windowMs: 60_000 } },
);

const move = (c: LogisticsClient, id: string, body: S["InboundStatusChange"]) =>
  c.POST("/inbound_shipments/{shipment_id}/_status", { params: { path: { shipment_id: id } }, body });

/** A shipment of two lines (10 and 5 announced) in `processing`, with `got` of the first line arrived. */
async function receiving(got = 10): Promise<string> {
  const id = await createShipment(m, announcement({ merchants_ref: `ROLES-${Math.random()}` }));
  expect((await arrive(w, id, [{ merchants_id: "SKU-1001", change: got }])).response.status).toBe(200);
  return id;
}

describe("the role table", () => {
  it("a receiver may mark a shipment arrived and finish one whose lines all match", async () => {
    const id = await createShipment(m);
    expect((await move(receiver.client, id, { status: "arrived_at_warehouse" })).data?.status).toBe(
      "arrived_at_warehouse",
    );
    await arrive(w, id, [
      { merchants_id: "SKU-1001", change: 10 },
      { merchants_id: "SKU-1002", change: 5 },
    ]);
    expect((await move(receiver.client, id, { status: "processed" })).data?.status).toBe("processed");
  });

  it("a receiver may not finish with differences, report a problem, reopen, cancel or send en route: 403, nothing changed", async () => {
    const short = await receiving(7);
    const forbidden: [string, () => Promise<string>, S["InboundStatusChange"]][] = [
      ["finish a shipment whose lines differ", async () => short, { status: "processed" }],
      [
        "report a problem",
        async () => short,
        { status: "problem", problems: [{ type: "damaged", description: "Wet boxes" }] },
      ],
      ["cancel", async () => short, { status: "cancelled" }],
      ["send en route", () => createShipment(m), { status: "en_route" }],
    ];
    for (const [what, make, body] of forbidden) {
      const id = await make();
      const r = await expectUnchanged(srv, () => move(receiver.client, id, body));
      expectError(r, 403, "access_denied");
      expect(r.response.status, what).toBe(403);
    }
    // Finishing a shipment the supervisor closed with differences (processed from problem) and reopening one.
    expect((await move(supervisor.client, short, { status: "processed" })).data?.status).toBe("problem");
    expectError(
      await expectUnchanged(srv, () => move(receiver.client, short, { status: "processed" })),
      403,
      "access_denied",
    );
    expect((await move(supervisor.client, short, { status: "processed" })).data?.status).toBe("processed");
    const reopen: S["InboundStatusChange"] = {
      status: "problem",
      problems: [{ type: "product.not_ok", description: "Torn seams" }],
    };
    expectError(await expectUnchanged(srv, () => move(receiver.client, short, reopen)), 403, "access_denied");
    expect((await move(supervisor.client, short, reopen)).data?.status).toBe("problem");
  });

  it("a supervisor may finish with differences (they become problems) and cancel", async () => {
    const id = await receiving(8);
    const closed = await move(supervisor.client, id, { status: "processed" });
    expect(closed.data?.status).toBe("problem");
    expect(closed.data?.problems.map((p) => p.type).sort()).toEqual(["product.missing", "product.missing"]);
    expect((await move(supervisor.client, await receiving(), { status: "cancelled" })).data?.status).toBe("cancelled");
  });

  it("an illegal move is 409 invalid_state for everyone, before the role is asked", async () => {
    const done = await receiving();
    await move(supervisor.client, done, { status: "cancelled" });
    const r = await expectUnchanged(srv, () => move(receiver.client, done, { status: "arrived_at_warehouse" }));
    expectError(r, 409, "invalid_state");
  });
});

describe("warehouse users", () => {
  it("a supervisor creates, renames, promotes, resets and removes users; role changes and removal end sessions", async () => {
    const created = await supervisor.client.POST("/warehouse_users/_create", {
      body: { email: "Kim@Roles.example.com", name: "Kim", password: PASSWORD, role: "receiver" },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    expect(created.data).toMatchObject({ email: "kim@roles.example.com", name: "Kim", role: "receiver" });
    const kim = await stationSignIn(srv, "kim@roles.example.com", PASSWORD);
    const path = { params: { path: { warehouse_user_id: id } } };

    const renamed = await supervisor.client.POST("/warehouse_users/{warehouse_user_id}", {
      ...path,
      body: { name: "Kim K." },
    });
    expect(renamed.data?.name).toBe("Kim K.");
    expect((await kim.client.GET("/station_sessions/current")).data?.user.name).toBe("Kim K.");
    await supervisor.client.POST("/warehouse_users/{warehouse_user_id}", { ...path, body: { role: "supervisor" } });
    expectError(await kim.client.GET("/station_sessions/current"), 401, "unauthorized");

    const reset = await w.POST("/warehouse_users/{warehouse_user_id}/_reset_password", {
      ...path,
      body: { password: "temporary-password" },
    });
    expect(reset.response.status).toBe(200);
    const again = await stationSignIn(srv, "kim@roles.example.com", "temporary-password");
    expect(again.session.must_change_password).toBe(true);
    expectError(await again.client.GET("/warehouse/inbound_shipments"), 403, "access_denied");
    // The same password again is refused as the portal's is (the registry's rule for both).
    const same = await again.client.POST("/station_sessions/current/_change_password", {
      body: { current_password: "temporary-password", new_password: "temporary-password" },
    });
    expect(expectError(same, 400, "validation_failed", ["/body/new_password"]).details).toEqual([
      expect.objectContaining({ code: "unchanged" }),
    ]);
    const changed = await again.client.POST("/station_sessions/current/_change_password", {
      body: { current_password: "temporary-password", new_password: "kims-own-password" },
    });
    expect(changed.data?.must_change_password).toBe(false);
    expect((await again.client.GET("/warehouse/inbound_shipments")).response.status).toBe(200);

    const list = await supervisor.client.GET("/warehouse_users");
    expect(list.data!.items.map((u) => u.email)).toContain("kim@roles.example.com");
    expect((await supervisor.client.POST("/warehouse_users/{warehouse_user_id}/_delete", path)).data).toEqual({
      success: true,
      id,
    });
    expectError(await again.client.GET("/station_sessions/current"), 401, "unauthorized");
    expectError(await supervisor.client.POST("/warehouse_users/{warehouse_user_id}/_delete", path), 404, "not_found");
  });

  it("refuses bad input with 400 naming each field, and a taken email with 409, changing nothing", async () => {
    const bad: [unknown, string[]][] = [
      [{ email: "x@roles.example.com", name: "X", password: "short", role: "receiver" }, ["/body/password"]],
      [
        { email: "not-an-email", name: " X", password: PASSWORD, role: "boss" },
        ["/body/email", "/body/name", "/body/role"],
      ],
      [{ email: "y@roles.example.com", name: "Y", password: PASSWORD, role: "receiver", pin: 1 }, ["/body/pin"]],
    ];
    for (const [body, paths] of bad) {
      const r = await expectUnchanged(srv, () =>
        supervisor.client.POST("/warehouse_users/_create", { body: body as never }),
      );
      expectError(r, 400, "validation_failed", paths);
    }
    const taken = await expectUnchanged(srv, () =>
      supervisor.client.POST("/warehouse_users/_create", {
        body: { email: "REC@roles.example.com", name: "Dup", password: PASSWORD, role: "receiver" },
      }),
    );
    expectError(taken, 409, "conflict", ["/body/email"]);
  });

  it("signs in with the shared throttle: a wrong password is 401, and after the limit even the right one is 429", async () => {
    await provisionWarehouseUser(srv.handle.db, "throttled@roles.example.com", PASSWORD);
    for (let i = 0; i < 3; i++) {
      const r = await expectUnchanged(srv, () =>
        srv.client().POST("/station_sessions/_create", {
          body: { email: "throttled@roles.example.com", password: `wrong-${i}` },
        }),
      );
      expectError(r, 401, "unauthorized");
      expect(r.response.headers.get("set-cookie")).toBeNull();
    }
    const r = await srv.client().POST("/station_sessions/_create", {
      body: { email: "throttled@roles.example.com", password: PASSWORD },
    });
    expectError(r, 429, "rate_limited");
  });
});

describe("a portal tab and a station tab in one browser", () => {
  it("each operation reads its own cookie, and signing out of one leaves the other signed in", async () => {
    await provisionPortalUser(
      srv.handle.db,
      "roles-shop.example.com",
      "anna@roles-shop.example.com",
      PASSWORD,
      "admin",
    );
    const portal = await srv.client().POST("/portal_sessions/_create", {
      body: { email: "anna@roles-shop.example.com", password: PASSWORD },
    });
    const portalCookie = /^(portal_session=[^;]+);/.exec(portal.response.headers.get("set-cookie")!)![1]!;
    const station = await stationSignIn(srv, "rec@roles.example.com", PASSWORD);
    const both = `${portalCookie}; ${station.cookie}`;
    // The browser sends both cookies with every request; each tab sends its own CSRF token.
    const portalTab = cookieClient(srv, both, portal.data!.csrf_token);
    const stationTab = cookieClient(srv, both, station.csrf);
    expect((await portalTab.GET("/portal_sessions/current")).data?.user.email).toBe("anna@roles-shop.example.com");
    expect((await stationTab.GET("/station_sessions/current")).data?.user.email).toBe("rec@roles.example.com");
    expect((await portalTab.GET("/inbound_shipments")).response.status).toBe(200);
    expect((await stationTab.GET("/warehouse/inbound_shipments")).response.status).toBe(200);
    // A station token is no portal token: the portal's write with the station's CSRF token is refused.
    expectError(
      await cookieClient(srv, both, station.csrf).POST("/portal_sessions/current/_delete"),
      403,
      "access_denied",
    );
    expect((await stationTab.POST("/station_sessions/current/_delete")).response.status).toBe(200);
    expect((await portalTab.GET("/portal_sessions/current")).response.status).toBe(200);
    expectError(await stationTab.GET("/station_sessions/current"), 401, "unauthorized");
  });
});

describe("bad input of the warehouse's list and lookup", () => {
  const list = (query: string) =>
    fetch(`${srv.baseUrl}/warehouse/inbound_shipments?${query}`, { headers: { Cookie: receiver.cookie } }).then(
      async (response) => ({ response, error: await response.json() }),
    );
  it.each([
    ["expected_from=2026-02-30", "/query/expected_from"],
    ["expected_from=2026-12-02&expected_to=2026-12-01", "/query/expected_to"],
    ["expected_to=tomorrow", "/query/expected_to"],
    ["status=lost", "/query/status/0"],
    ["merchant_id=no%20spaces", "/query/merchant_id"],
    ["limit=0", "/query/limit"],
    ["q=", "/query/q"],
    ["colour=blue", "/query/colour"],
    ["cursor=bm90LWEtY3Vyc29y", "/query/cursor"],
  ])("%s is 400 naming %s, and changes nothing", async (query, path) => {
    const r = await expectUnchanged(srv, () => list(query));
    expectError(r, 400, "validation_failed", [path]);
  });

  it("refuses a cursor of the merchants' list", async () => {
    const own = await createShipment(m);
    await createShipment(m);
    const page = await m.GET("/inbound_shipments", { params: { query: { limit: 1 } } });
    expect(page.data!.items[0]!.id).toBeDefined();
    expectError(await list(`cursor=${page.data!.next_cursor}`), 400, "validation_failed", ["/query/cursor"]);
    expect((await getShipment(m, own)).id).toBe(own);
  });

  it.each([
    ["", "/query/code"],
    [`code=${"x".repeat(101)}`, "/query/code"],
  ])("lookup with %s is 400 naming %s", async (query, path) => {
    const r = await fetch(`${srv.baseUrl}/warehouse/inbound_shipments/_lookup?${query}`, {
      headers: { Cookie: receiver.cookie },
    });
    expectError({ response: r, error: await r.json() }, 400, "validation_failed", [path]);
  });
});
