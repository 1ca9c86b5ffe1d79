// Contract test: shipping options, pickup points, orders and merchant settings of spec/openapi.yaml, successes and
// failures, through Prism in proxy mode in front of the real server (see harness.ts, recording.ts and
// inbound.contract.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../client/index.ts";
import { inTransaction } from "../../server/db/transaction.ts";
import { loadDemoDirectory } from "../../server/pickup-points/demo.ts";
import { SETTINGS, list, order, orderLine } from "../helpers/shipping.ts";
import { contractHarness } from "./harness.ts";

type S = components["schemas"];

/** The statuses each operation must have been seen answering through Prism. */
const REQUIRED: Record<string, number[]> = {
  getShippingOptions: [200, 400, 403],
  getOrderShippingOptions: [200, 404],
  previewShippingOptions: [200, 400, 403],
  lookupPickupPoints: [200, 400],
  listNearestPickupPoints: [200, 400],
  getPickupPoint: [200, 404],
  listPickupPointBranches: [200, 400],
  createOrder: [201, 400, 422],
  getOrder: [200, 404],
  modifyOrder: [200, 400, 404],
  getShippingSettings: [200, 403],
  replaceShippingSettings: [200, 400],
  previewDeliveryDates: [200, 400],
  listPriceLists: [200],
  createPriceList: [201, 400, 409],
  getPriceList: [200, 404],
  replacePriceList: [200, 400, 409],
  deletePriceList: [200, 404],
};

const h = contractHarness(["/shipping_options", "/orders", "/pickup_points", "/merchant"]);
const { conforms, fails, refusedByPrism, account } = h;
const KAARINA_POSTI = "8712b5457606ca2e4ba6f518";
const UNKNOWN = "0123456789abcdef01234567";

beforeAll(async () => {
  await h.start();
  await inTransaction(h.server().handle.db, (trx) => loadDemoDirectory(trx));
});
afterAll(() => h.stop());

async function configured() {
  const m = await account("merchant");
  conforms(await m.strict.PUT("/merchant/shipping_settings", { body: SETTINGS }), 200);
  for (const method of ["letter", "home", "pickup"] as const) {
    conforms(
      await m.strict.POST("/merchant/price_lists/_create", {
        body: list(method, {
          pricing_rules: [{ criteria: [{ fact: "pup.branch", op: "==", value: "fi.posti" }], price: 3.9 }],
        }),
      }),
      201,
    );
  }
  return m;
}

describe("shipping options, pickup points, orders and settings conform to spec/openapi.yaml through Prism", () => {
  it("getShippingOptions: 200 with every method shape; 400 from the server and from the validator; 403 operator", async () => {
    const m = await configured();
    const r = conforms(await m.strict.GET("/shipping_options", { params: { query: { postalcode: "20780" } } }), 200);
    expect(r.data!.options.letter).toEqual({ available: false, reason: "item_does_not_allow" });
    expect(Object.keys((r.data!.options.pickup as { pickup_points: object }).pickup_points)).toHaveLength(10);
    const letter = conforms(
      await m.strict.GET("/shipping_options", {
        params: { query: { postalcode: "00100", country: "FI", weight: 100 } },
      }),
      200,
    );
    expect(letter.data!.options.letter.available).toBe(true);
    conforms(
      await m.strict.GET("/shipping_options", { params: { query: { postalcode: "111 22", country: "SE" } } }),
      200,
    );

    fails(
      await m.strict.GET("/shipping_options", { params: { query: { postalcode: "2078" } } }),
      400,
      "validation_failed",
      ["/query/postalcode"],
    );
    refusedByPrism(
      await m.strict.GET("/shipping_options", { params: { query: { postalcode: "20780", weight: -1 } } }),
      422,
      "weight",
    );
    fails(
      await m.lenient.GET("/shipping_options", { params: { query: { postalcode: "20780", weight: -1 } } }),
      { status: 400, requestViolations: ["minimum"] },
      "validation_failed",
      ["/query/weight"],
    );
    const w = await account("operator");
    fails(
      await w.strict.GET("/shipping_options", { params: { query: { postalcode: "20780" } } }),
      403,
      "access_denied",
    );
  });

  it("explain=true and previewShippingOptions: 200 with every explanation shape; 400 a bad draft; 403 operator", async () => {
    const m = await configured();
    const r = conforms(
      await m.strict.GET("/shipping_options", { params: { query: { postalcode: "20780", explain: true } } }),
      200,
    );
    expect(r.data!.options.letter).toMatchObject({ available: false, explanation: { detail: expect.any(String) } });
    const draft = list("home", {
      fallback_price: 2.5,
      modification_rules: [
        { criteria: [{ fact: "order.tags", op: "contains", value: "vip" }], adjust: "add", amount: -1 },
      ],
    });
    const p = conforms(
      await m.strict.POST("/shipping_options/_preview", {
        body: { postalcode: "20780", weight: 100, tags: ["vip"], price_lists: [draft] },
      }),
      200,
    );
    const home = p.data!.options.home as { price: { gross: number }; explanation: { trace: number } };
    expect(home.price.gross).toBe(1.5);
    expect(p.data!.explanation!.price_lists.home).toMatchObject({ id: null });
    expect(p.data!.explanation!.traces[home.explanation.trace]).toMatchObject({
      modification_rules: [{ matched: true, gross_after: 1.5 }],
    });
    fails(
      await m.strict.POST("/shipping_options/_preview", { body: { postalcode: "20780", price_lists: [draft, draft] } }),
      400,
      "validation_failed",
      ["/body/price_lists/1/method"],
    );
    const w = await account("operator");
    fails(await w.strict.POST("/shipping_options/_preview", { body: { postalcode: "20780" } }), 403, "access_denied");
  });

  it("createOrder, getOrder, modifyOrder, getOrderShippingOptions: 201/200; 400 unknown pickup point; 404 another merchant's; 422 reused key", async () => {
    const m = await configured();
    const other = await account("merchant");
    const key = { params: { header: { "Idempotency-Key": "contract-order-1" } } };
    const body = order({
      customer: {
        name: "Maija",
        postalcode: "20780",
        country: "FI",
        address: "Oskarinaukio 1",
        city: "KAARINA",
        email: "maija@example.com",
        phone: "+358401234567",
      },
      products: [
        orderLine({ dimensions_mm: { length: 300, width: 200, height: 20 }, letter_allowed: true }),
        orderLine({ merchants_id: "SKU-2", qty: 2 }),
      ],
      tags: ["vip"],
      destination: KAARINA_POSTI,
    });
    const created = conforms(await m.strict.POST("/orders/_create", { ...key, body }), 201);
    const id = created.data!.order_id;
    conforms(await m.strict.POST("/orders/_create", { ...key, body }), 201);
    fails(await m.strict.POST("/orders/_create", { ...key, body: order() }), 422, "idempotency_key_reused");
    fails(await m.strict.POST("/orders/_create", { body: order({ destination: UNKNOWN }) }), 400, "validation_failed", [
      "/body/destination",
    ]);
    fails(
      await m.lenient.POST("/orders/_create", { body: { ...order(), colour: "red" } as S["OrderCreate"] }),
      { status: 400, requestViolations: ["additionalProperties"] },
      "validation_failed",
      ["/body/colour"],
    );

    const path = { params: { path: { order_id: id } } };
    const got = conforms(await m.strict.GET("/orders/{order_id}", path), 200);
    expect(got.data).toMatchObject({ id, destination: KAARINA_POSTI, tags: ["vip"] });
    fails(await other.strict.GET("/orders/{order_id}", path), 404, "not_found");

    const opts = conforms(await m.strict.GET("/orders/{order_id}/shipping_options", path), 200);
    expect(opts.data).toMatchObject({
      order_id: id,
      facts: { "order.shipping_type": "pickup", "pup.branch": "fi.posti", "order.item_count": 3 },
    });
    fails(await other.strict.GET("/orders/{order_id}/shipping_options", path), 404, "not_found");

    conforms(await m.strict.POST("/orders/{order_id}", { ...path, body: { destination: null, tags: [] } }), 200);
    conforms(await m.strict.POST("/orders/{order_id}", { ...path, body: { destination: "letter" } }), 200);
    const letter = conforms(await m.strict.GET("/orders/{order_id}/shipping_options", path), 200);
    expect(letter.data!.facts).toMatchObject({ "order.shipping_type": "letter", "pup.branch": null });
    fails(
      await m.strict.POST("/orders/{order_id}", { ...path, body: { destination: UNKNOWN } }),
      400,
      "validation_failed",
      ["/body/destination"],
    );
    fails(await other.strict.POST("/orders/{order_id}", { ...path, body: { tags: ["x"] } }), 404, "not_found");
  });

  it("lookupPickupPoints, listNearestPickupPoints, getPickupPoint: 200 for merchants and operators; 400; 404", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const near = conforms(
      await m.strict.GET("/pickup_points/lookup", { params: { query: { postalcode: "20780", limit: 5 } } }),
      200,
    );
    expect(near.data!.origin.source).toBe("postal_code");
    conforms(await w.strict.GET("/pickup_points", { params: { query: { postalcode: "20781" } } }), 200);
    const none = conforms(
      await m.strict.GET("/pickup_points/lookup", { params: { query: { postalcode: "111 22", country: "SE" } } }),
      200,
    );
    expect(none.data!.origin).toEqual({ coordinates: null, source: "none" });
    fails(
      await m.strict.GET("/pickup_points/lookup", { params: { query: { postalcode: "ABCDE" } } }),
      400,
      "validation_failed",
    );
    fails(await m.strict.GET("/pickup_points", { params: { query: { postalcode: "123" } } }), 400, "validation_failed");
    fails(
      await m.lenient.GET("/pickup_points", { params: { query: { postalcode: "20780", limit: 51 } } }),
      { status: 400, requestViolations: ["maximum"] },
      "validation_failed",
    );

    conforms(
      await w.strict.GET("/pickup_points/{pickup_point_id}", { params: { path: { pickup_point_id: KAARINA_POSTI } } }),
      200,
    );
    fails(
      await m.strict.GET("/pickup_points/{pickup_point_id}", { params: { path: { pickup_point_id: UNKNOWN } } }),
      404,
      "not_found",
    );
  });

  it("listPickupPointBranches: 200 for merchants and operators; 400 for an unknown parameter", async () => {
    const m = await account("merchant");
    const w = await account("operator");
    const branches = conforms(await m.strict.GET("/pickup_points/branches"), 200);
    expect(branches.data!.items.map((b) => b.branch)).toEqual(["fi.db_schenker", "fi.matkahuolto", "fi.posti"]);
    conforms(await w.strict.GET("/pickup_points/branches"), 200);
    fails(
      await m.lenient.GET("/pickup_points/branches", { params: { query: { country: "FI" } as never } }),
      400,
      "validation_failed",
      ["/query/country"],
    );
  });

  it("settings and price lists: defaults, replace, CRUD; 400 bad rules; 409 a method taken; 404; 403", async () => {
    const m = await account("merchant");
    const defaults = conforms(await m.strict.GET("/merchant/shipping_settings"), 200);
    expect(defaults.data!.updated_at).toBeNull();
    conforms(
      await m.strict.PUT("/merchant/shipping_settings", {
        body: { ...SETTINGS, home: { enabled: true, max_weight_g: 30000 }, pickup_points_limit: 5 },
      }),
      200,
    );
    conforms(await m.strict.GET("/merchant/shipping_settings"), 200);
    fails(
      await m.lenient.PUT("/merchant/shipping_settings", { body: { ...SETTINGS, pickup_points_limit: 0 } }),
      { status: 400, requestViolations: ["minimum"] },
      "validation_failed",
    );
    fails(await (await account("operator")).strict.GET("/merchant/shipping_settings"), 403, "access_denied");

    const draft = { home: { handling_days: 1, transit_days_min: 1, transit_days_max: 2, cutoff: "14:00" } };
    conforms(
      await m.strict.POST("/merchant/delivery_dates/_preview", {
        body: { time_zone: "Europe/Helsinki", delivery_times: draft },
      }),
      200,
    );
    fails(
      await m.strict.POST("/merchant/delivery_dates/_preview", {
        body: { time_zone: "Europe/Turku", delivery_times: draft },
      }),
      400,
      "validation_failed",
      ["/body/time_zone"],
    );

    conforms(await m.strict.GET("/merchant/price_lists"), 200);
    const home = conforms(await m.strict.POST("/merchant/price_lists/_create", { body: list("home") }), 201).data!;
    const pickup = conforms(
      await m.strict.POST("/merchant/price_lists/_create", {
        body: list("pickup", {
          modification_rules: [
            {
              description: "VIP",
              criteria: [{ fact: "order.tags", op: "contains", value: "vip" }],
              adjust: "multiply",
              amount: 0.5,
            },
          ],
        }),
      }),
      201,
    ).data!;
    fails(await m.strict.POST("/merchant/price_lists/_create", { body: list("home") }), 409, "conflict");
    fails(
      await m.strict.POST("/merchant/price_lists/_create", {
        body: list("letter", {
          pricing_rules: [{ criteria: [{ fact: "customer.country", op: "<", value: "FI" }], price: 1 }],
        }),
      }),
      400,
      "validation_failed",
      ["/body/pricing_rules/0/criteria/0/op"],
    );
    const lists = conforms(await m.strict.GET("/merchant/price_lists"), 200);
    expect(lists.data!.items.map((l) => l.method)).toEqual(["home", "pickup"]);

    const at = (price_list_id: string) => ({ params: { path: { price_list_id } } });
    conforms(await m.strict.GET("/merchant/price_lists/{price_list_id}", at(home.id)), 200);
    fails(await m.strict.GET("/merchant/price_lists/{price_list_id}", at(UNKNOWN)), 404, "not_found");
    conforms(
      await m.strict.PUT("/merchant/price_lists/{price_list_id}", {
        ...at(home.id),
        body: list("home", { fallback_price: 6.9 }),
      }),
      200,
    );
    fails(
      await m.strict.PUT("/merchant/price_lists/{price_list_id}", { ...at(home.id), body: list("pickup") }),
      409,
      "conflict",
    );
    fails(
      await m.strict.PUT("/merchant/price_lists/{price_list_id}", {
        ...at(home.id),
        body: list("home", { fallback_price: 1.001 }),
      }),
      400,
      "validation_failed",
      ["/body/fallback_price"],
    );
    conforms(await m.strict.DELETE("/merchant/price_lists/{price_list_id}", at(pickup.id)), 200);
    fails(await m.strict.DELETE("/merchant/price_lists/{price_list_id}", at(pickup.id)), 404, "not_found");
  });

  it("exercised every implemented operation under these paths, with every required status, and checked every response", () => {
    expect(h.operations.length).toBe(18);
    h.expectComplete(REQUIRED);
  });
});
