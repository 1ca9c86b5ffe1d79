// Resources replaced whole carry an ETag; a write with a stale If-Match is 412 and changes nothing, so two
// clients that read, change and write back at once never silently lose one change. A read with If-None-Match naming
// the current ETag is 304 without a body (the spec's conditional read), and never for another merchant's resource.
import { beforeEach, describe, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { list, SETTINGS } from "../helpers/shipping.ts";

let srv: TestServer;
let m: LogisticsClient;
useTestServer((s) => {
  srv = s;
});
beforeEach(async () => {
  m = await srv.merchant();
});

const TAG = /^"[A-Za-z0-9_-]{27}"$/;
const withSettings = (n: number) => ({ ...SETTINGS, pickup_points_limit: n });

describe("shipping settings", () => {
  it("GET and PUT answer an ETag; a PUT naming the current one succeeds and changes it", async () => {
    const read = await m.GET("/merchant/shipping_settings");
    const etag = read.response.headers.get("etag")!;
    expect(etag).toMatch(TAG);
    const put = await m.PUT("/merchant/shipping_settings", {
      params: { header: { "If-Match": etag } },
      body: withSettings(5),
    });
    expect(put.response.status).toBe(200);
    const next = put.response.headers.get("etag")!;
    expect(next).toMatch(TAG);
    expect(next).not.toBe(etag);
    expect((await m.GET("/merchant/shipping_settings")).response.headers.get("etag")).toBe(next);
  });

  it("a stale If-Match is 412 precondition_failed with the current ETag, and nothing changes", async () => {
    const stale = (await m.GET("/merchant/shipping_settings")).response.headers.get("etag")!;
    const first = await m.PUT("/merchant/shipping_settings", {
      params: { header: { "If-Match": stale } },
      body: withSettings(5),
    });
    expect(first.response.status).toBe(200);
    const r = await expectUnchanged(srv, () =>
      m.PUT("/merchant/shipping_settings", { params: { header: { "If-Match": stale } }, body: withSettings(7) }),
    );
    expectError(r, 412, "precondition_failed", ["/headers/if-match"]);
    expect(r.response.headers.get("etag")).toBe(first.response.headers.get("etag"));
    expect((await m.GET("/merchant/shipping_settings")).data!.pickup_points_limit).toBe(5);
  });

  it("weak tags and unknown tags do not match; * and a list naming the current tag do; no If-Match writes unconditionally", async () => {
    const etag = (await m.GET("/merchant/shipping_settings")).response.headers.get("etag")!;
    for (const ifMatch of [`W/${etag}`, '"something-else"', "garbage"]) {
      expectError(
        await m.PUT("/merchant/shipping_settings", {
          params: { header: { "If-Match": ifMatch } },
          body: withSettings(3),
        }),
        412,
        "precondition_failed",
      );
    }
    const listed = await m.PUT("/merchant/shipping_settings", {
      params: { header: { "If-Match": `"old", ${etag}` } },
      body: withSettings(3),
    });
    expect(listed.response.status).toBe(200);
    expect(
      (await m.PUT("/merchant/shipping_settings", { params: { header: { "If-Match": "*" } }, body: withSettings(4) }))
        .response.status,
    ).toBe(200);
    expect((await m.PUT("/merchant/shipping_settings", { body: withSettings(6) })).response.status).toBe(200);
  });

  it("two clients that read the same version and write at once: one wins, the other is told", async () => {
    const etag = (await m.GET("/merchant/shipping_settings")).response.headers.get("etag")!;
    const results = await Promise.all(
      [5, 7].map((n) =>
        m.PUT("/merchant/shipping_settings", { params: { header: { "If-Match": etag } }, body: withSettings(n) }),
      ),
    );
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 412]);
    const winner = results.find((r) => r.response.status === 200)!;
    expect((await m.GET("/merchant/shipping_settings")).data!.pickup_points_limit).toBe(
      winner.data!.pickup_points_limit,
    );
  });
});

describe("price lists", () => {
  it("GET and PUT answer an ETag; a stale If-Match is 412 and changes nothing; concurrent writers cannot both win", async () => {
    const created = await m.POST("/merchant/price_lists/_create", { body: list("home") });
    expect(created.response.status).toBe(201);
    const at = { path: { price_list_id: created.data!.id } };
    const read = await m.GET("/merchant/price_lists/{price_list_id}", { params: at });
    const etag = read.response.headers.get("etag")!;
    expect(etag).toMatch(TAG);

    const results = await Promise.all(
      [6.9, 7.9].map((p) =>
        m.PUT("/merchant/price_lists/{price_list_id}", {
          params: { ...at, header: { "If-Match": etag } },
          body: list("home", { fallback_price: p }),
        }),
      ),
    );
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 412]);
    const winner = results.find((r) => r.response.status === 200)!;
    const current = winner.response.headers.get("etag")!;
    expect(current).not.toBe(etag);

    const stale = await expectUnchanged(srv, () =>
      m.PUT("/merchant/price_lists/{price_list_id}", {
        params: { ...at, header: { "If-Match": etag } },
        body: list("home", { fallback_price: 1 }),
      }),
    );
    expectError(stale, 412, "precondition_failed", ["/headers/if-match"]);
    expect(stale.response.headers.get("etag")).toBe(current);
    expect((await m.GET("/merchant/price_lists/{price_list_id}", { params: at })).data!.fallback_price).toBe(
      winner.data!.fallback_price,
    );

    const fresh = await m.PUT("/merchant/price_lists/{price_list_id}", {
      params: { ...at, header: { "If-Match": current } },
      body: list("home", { fallback_price: 1 }),
    });
    expect(fresh.response.status).toBe(200);
  });

  it("If-Match on another merchant's price list is still 404, never 412", async () => {
    const created = await m.POST("/merchant/price_lists/_create", { body: list("letter") });
    const other = await srv.merchant();
    const r = await other.PUT("/merchant/price_lists/{price_list_id}", {
      params: { path: { price_list_id: created.data!.id }, header: { "If-Match": '"x"' } },
      body: list("letter"),
    });
    expectError(r, 404, "not_found");
  });
});

describe("conditional reads (If-None-Match)", () => {
  // fetch() adds `Cache-Control: no-cache` to a request with If-None-Match unless it has a Cache-Control of its own,
  // and a no-cache request is always answered in full (the header's description in the spec says so): these tests send
  // max-age=0 instead.
  const revalidate = { "Cache-Control": "max-age=0" };
  it("shipping settings: the current ETag is 304 without a body, unless the request says no-cache; after a change, the old one gets the new version", async () => {
    const read = await m.GET("/merchant/shipping_settings");
    const etag = read.response.headers.get("etag")!;
    for (const tag of [etag, `W/${etag}`, `"old", ${etag}`, "*"]) {
      const r = await m.GET("/merchant/shipping_settings", {
        params: { header: { "If-None-Match": tag } },
        headers: revalidate,
      });
      expect(r.response.status, tag).toBe(304);
      expect(r.response.headers.get("etag")).toBe(etag);
      expect(await r.response.clone().text()).toBe("");
    }
    const other = await m.GET("/merchant/shipping_settings", {
      params: { header: { "If-None-Match": '"old"' } },
      headers: revalidate,
    });
    expect(other.response.status).toBe(200);
    expect(other.data).toEqual(read.data);

    const noCache = await m.GET("/merchant/shipping_settings", { params: { header: { "If-None-Match": etag } } });
    expect(noCache.response.status).toBe(200);
    expect(noCache.data).toEqual(read.data);

    const put = await m.PUT("/merchant/shipping_settings", { body: withSettings(5) });
    const after = await m.GET("/merchant/shipping_settings", {
      params: { header: { "If-None-Match": etag } },
      headers: revalidate,
    });
    expect(after.response.status).toBe(200);
    expect(after.response.headers.get("etag")).toBe(put.response.headers.get("etag"));
    expect(after.data!.pickup_points_limit).toBe(5);
  });

  it("a price list: 304 for its current ETag, 200 for another; another merchant's is 404, never 304", async () => {
    const created = await m.POST("/merchant/price_lists/_create", { body: list("home") });
    const at = { path: { price_list_id: created.data!.id } };
    const etag = (await m.GET("/merchant/price_lists/{price_list_id}", { params: at })).response.headers.get("etag")!;
    const same = await m.GET("/merchant/price_lists/{price_list_id}", {
      params: { ...at, header: { "If-None-Match": etag } },
      headers: revalidate,
    });
    expect(same.response.status).toBe(304);
    expect(same.response.headers.get("etag")).toBe(etag);
    const changed = await m.GET("/merchant/price_lists/{price_list_id}", {
      params: { ...at, header: { "If-None-Match": '"something-else"' } },
      headers: revalidate,
    });
    expect(changed.response.status).toBe(200);
    expect(changed.data!.id).toBe(created.data!.id);
    const stranger = await srv.merchant();
    expectError(
      await stranger.GET("/merchant/price_lists/{price_list_id}", {
        params: { ...at, header: { "If-None-Match": etag } },
        headers: revalidate,
      }),
      404,
      "not_found",
    );
  });

  it("an If-None-Match of more than 1,000 characters is 400 validation_failed naming the header", async () => {
    expectError(
      await m.GET("/merchant/shipping_settings", { params: { header: { "If-None-Match": `"${"a".repeat(1000)}"` } } }),
      400,
      "validation_failed",
      ["/headers/if-none-match"],
    );
  });
});
