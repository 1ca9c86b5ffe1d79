// Contract test: the warehouse's operations (what is coming, the lookup of a scanned code, warehouse users, station
// sessions), driven through Prism in proxy mode in front of the real server (strict and lenient proxies, as in
// inbound.contract.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionWarehouseUser } from "../../server/warehouse/users.ts";
import { newId } from "../../server/shared/ids.ts";
import { announcement } from "../helpers/fixtures.ts";
import { contractHarness } from "./harness.ts";

/** The statuses each warehouse operation must have been seen answering through Prism. */
const REQUIRED: Record<string, number[]> = {
  listWarehouseInboundShipments: [200, 400, 403],
  lookupWarehouseInboundShipment: [200, 404, 409],
  createWarehouseUser: [201, 400, 403, 409],
  listWarehouseUsers: [200],
  updateWarehouseUser: [200, 404],
  deleteWarehouseUser: [200, 404],
  resetWarehouseUserPassword: [200],
  createStationSession: [201, 400, 401],
  getStationSession: [200, 401],
  deleteStationSession: [200, 403],
  changeStationPassword: [200, 400],
};

const h = contractHarness(["/warehouse", "/station_sessions"]);
const { conforms, fails, refusedByPrism, account } = h;
beforeAll(() => h.start());
afterAll(() => h.stop());

async function stationSignIn(email: string, password: string) {
  const r = conforms(await h.client("strict").POST("/station_sessions/_create", { body: { email, password } }), 201);
  const token = /^station_session=([^;]+);/.exec(r.response.headers.get("set-cookie") ?? "")?.[1];
  expect(token, "the session cookie comes through the proxy").toBeDefined();
  const headers = { Cookie: `station_session=${token}`, "X-CSRF-Token": r.data!.csrf_token };
  return {
    data: r.data!,
    strict: h.withHeaders("strict", headers),
    lenient: h.withHeaders("lenient", headers),
    noCsrf: h.withHeaders("strict", { Cookie: headers.Cookie }),
  };
}

describe("the warehouse's operations conform to spec/openapi.yaml through Prism", () => {
  it("sign in at a station (201, 400, 401), read the session (200, 401), change the password, sign out", async () => {
    await provisionWarehouseUser(h.server().handle.db, "ona@contract.example.com", "ona-password-1", {
      role: "receiver",
    });
    refusedByPrism(
      await h
        .client("strict")
        .POST("/station_sessions/_create", { body: { email: "ona@contract.example.com" } as never }),
      422,
      "password",
    );
    fails(
      await h
        .client("lenient")
        .POST("/station_sessions/_create", { body: { email: "ona@contract.example.com" } as never }),
      { status: 400, requestViolations: ["required"] },
      "validation_failed",
      ["/body/password"],
    );
    fails(
      await h.client("strict").POST("/station_sessions/_create", {
        body: { email: "ona@contract.example.com", password: "wrong-password" },
      }),
      401,
      "unauthorized",
    );
    const s = await stationSignIn("ona@contract.example.com", "ona-password-1");
    expect(conforms(await s.strict.GET("/station_sessions/current"), 200).data!.user.role).toBe("receiver");
    fails(
      await s.strict.POST("/station_sessions/current/_change_password", {
        body: { current_password: "ona-password-1", new_password: "ona-password-1" },
      }),
      400,
      "validation_failed",
    );
    conforms(
      await s.strict.POST("/station_sessions/current/_change_password", {
        body: { current_password: "ona-password-1", new_password: "ona-password-2" },
      }),
      200,
    );
    fails(await s.noCsrf.POST("/station_sessions/current/_delete"), 403, "access_denied");
    conforms(await s.strict.POST("/station_sessions/current/_delete"), 200);
    fails(await s.lenient.GET("/station_sessions/current"), 401, "unauthorized");
  });

  it("what is coming (200, 400, 403) and the lookup of a scanned code (200, 404, 409)", async () => {
    const m = await account("merchant");
    const other = await account("merchant");
    const w = await account("operator");
    const created = [];
    for (const c of [m, other])
      created.push(
        conforms(
          await c.strict.POST("/inbound_shipments/_create", {
            body: announcement({ merchants_ref: "PO-CONTRACT-SHARED", expected_at_wh: "2026-12-01" }),
          }),
          201,
        ).data!.shipment_id,
      );
    const list = conforms(
      await w.strict.GET("/warehouse/inbound_shipments", {
        params: { query: { expected_from: "2026-12-01", expected_to: "2026-12-01", q: "contract", limit: 1 } },
      }),
      200,
    );
    expect(list.data!.items).toHaveLength(1);
    conforms(
      await w.strict.GET("/warehouse/inbound_shipments", {
        params: { query: { expected_from: "2026-12-01", cursor: list.data!.next_cursor! } },
      }),
      200,
    );
    fails(
      await w.strict.GET("/warehouse/inbound_shipments", {
        params: { query: { expected_from: "2026-12-02", expected_to: "2026-12-01" } },
      }),
      400,
      "validation_failed",
      ["/query/expected_to"],
    );
    fails(await m.strict.GET("/warehouse/inbound_shipments"), 403, "access_denied");

    const lookUp = (code: string) =>
      w.strict.GET("/warehouse/inbound_shipments/_lookup", { params: { query: { code } } });
    expect(conforms(await lookUp(created[0]!), 200).data!.id).toBe(created[0]);
    fails(await lookUp("PO-CONTRACT-NONE"), 404, "not_found");
    const ambiguous = conforms(await lookUp("PO-CONTRACT-SHARED"), 409);
    expect((ambiguous.error as { candidates: unknown[] }).candidates).toHaveLength(2);
  });

  it("warehouse users: created (201, 400, 403, 409), listed, renamed (200, 404), reset, removed (200, 404)", async () => {
    const w = await account("operator");
    const m = await account("merchant");
    const body = {
      email: "eino@contract.example.com",
      name: "Eino",
      password: "eino-password-1",
      role: "receiver",
    } as const;
    const user = conforms(await w.strict.POST("/warehouse_users/_create", { body }), 201).data!;
    fails(await w.strict.POST("/warehouse_users/_create", { body }), 409, "conflict", ["/body/email"]);
    fails(await m.strict.POST("/warehouse_users/_create", { body }), 403, "access_denied");
    fails(
      await w.lenient.POST("/warehouse_users/_create", { body: { ...body, password: "short" } }),
      { status: 400, requestViolations: ["minLength"] },
      "validation_failed",
      ["/body/password"],
    );
    expect(conforms(await w.strict.GET("/warehouse_users"), 200).data!.items.map((u) => u.id)).toContain(user.id);
    const path = { params: { path: { warehouse_user_id: user.id } } };
    const nobody = { params: { path: { warehouse_user_id: newId() } } };
    conforms(await w.strict.POST("/warehouse_users/{warehouse_user_id}", { ...path, body: { name: "Eino E." } }), 200);
    fails(
      await w.strict.POST("/warehouse_users/{warehouse_user_id}", { ...nobody, body: { name: "X" } }),
      404,
      "not_found",
    );
    conforms(
      await w.strict.POST("/warehouse_users/{warehouse_user_id}/_reset_password", {
        ...path,
        body: { password: "temporary-password" },
      }),
      200,
    );
    conforms(await w.strict.POST("/warehouse_users/{warehouse_user_id}/_delete", path), 200);
    fails(await w.strict.POST("/warehouse_users/{warehouse_user_id}/_delete", path), 404, "not_found");
  });

  it("exercised every warehouse operation of the spec, with every required status, and checked every response", () => {
    h.expectComplete(REQUIRED);
  });
});
