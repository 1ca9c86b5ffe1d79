// GET /pickup_points/branches: the chains of the pickup point directory and their number of points (what a rule
// editor offers for `pup.branch`), equal to the directory's contents before and after an import; its exact refusals;
// and its path matched as itself, never as a pickup point id.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createLogisticsClient, type components, type LogisticsClient } from "../../client/index.ts";
import { provisionPortalUser } from "../../server/portal/users.ts";
import { basicAuth, expectError, expectUnchanged } from "../helpers/fixtures.ts";
import { useTestServer, type TestServer } from "../helpers/server.ts";
import { importPoints, loadDemo, point } from "../helpers/shipping.ts";

type S = components["schemas"];
const demoPoints: S["PickupPoint"][] = JSON.parse(
  readFileSync(new URL("../../server/pickup-points/demo/pickup-points.json", import.meta.url), "utf8"),
);
const MERCHANT = "branches.example.com";
const USER = { email: "pia@branches.example.com", password: "branches-password" };

let srv: TestServer;
let m: LogisticsClient;
let w: LogisticsClient;

useTestServer(async (s) => {
  srv = s;
  [m, w] = await Promise.all([srv.merchant(MERCHANT), srv.operator("branches-wh")]);
  await provisionPortalUser(srv.handle.db, MERCHANT, USER.email, USER.password, "staff");
});

/** What the answer must be: every branch of `points` with its count, sorted by branch (code point order). */
function expected(points: { branch: string }[]) {
  const counts = new Map<string, number>();
  for (const p of points) counts.set(p.branch, (counts.get(p.branch) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([branch, points]) => ({ branch, points }));
}

async function branches(c: LogisticsClient) {
  const r = await c.GET("/pickup_points/branches");
  expect(r.response.status, JSON.stringify(r.error)).toBe(200);
  return r.data!;
}

describe("GET /pickup_points/branches", () => {
  it("is an empty list while the directory is empty", async () => {
    expect(await srv.handle.db.selectFrom("pickup_points").select("id").execute()).toEqual([]);
    expect(await branches(m)).toEqual({ items: [] });
  });

  it("lists the demo directory's branches with their counts, to merchants, operators and portal sessions alike", async () => {
    await loadDemo(srv);
    const want = { items: expected(demoPoints) };
    expect(want.items.map((b) => b.branch)).toEqual(["fi.db_schenker", "fi.matkahuolto", "fi.posti"]);
    expect(await branches(m)).toEqual(want);
    expect(await branches(w)).toEqual(want);

    const signedIn = await srv.client().POST("/portal_sessions/_create", { body: USER });
    expect(signedIn.response.status).toBe(201);
    const cookie = /^(portal_session=[^;]+);/.exec(signedIn.response.headers.get("set-cookie")!)![1]!;
    const browser = createLogisticsClient({
      baseUrl: srv.baseUrl,
      headers: { Cookie: cookie, "X-CSRF-Token": signedIn.data!.csrf_token },
    });
    expect(await branches(browser)).toEqual(want);
  });

  it("equals the directory's contents after an import adds a branch, in another country too", async () => {
    await importPoints(srv, [
      point({ branch: "fi.k-market" }),
      point({ branch: "fi.k-market" }),
      point({ branch: "se.postnord", country: "SE", postalcode: "953 33", city: "HAPARANDA" }),
      point({ branch: "fi.posti" }),
    ]);
    const rows = await srv.handle.db.selectFrom("pickup_points").select("branch").execute();
    const answer = await branches(m);
    expect(answer).toEqual({ items: expected(rows) });
    expect(answer.items).toContainEqual({ branch: "fi.k-market", points: 2 });
    expect(answer.items).toContainEqual({ branch: "se.postnord", points: 1 });
    expect(answer.items.find((b) => b.branch === "fi.posti")!.points).toBe(
      demoPoints.filter((p) => p.branch === "fi.posti").length + 1,
    );
  });

  it("is matched as itself, not as GET /pickup_points/{pickup_point_id} with the id `branches`", async () => {
    const raw = await fetch(`${srv.baseUrl}/pickup_points/branches`, {
      headers: { authorization: basicAuth(`M-${MERCHANT}`, `secret-${MERCHANT}`) },
    });
    expect(raw.status).toBe(200);
    expect(Object.keys((await raw.json()) as object)).toEqual(["items"]);
    // The neighbours keep their own meaning: a malformed id is still a 400 naming it, an unknown one a 404.
    expectError(
      await m.GET("/pickup_points/{pickup_point_id}", { params: { path: { pickup_point_id: "branche" } } }),
      400,
      "validation_failed",
      ["/params/pickup_point_id"],
    );
    expectError(
      await m.GET("/pickup_points/{pickup_point_id}", {
        params: { path: { pickup_point_id: "0123456789abcdef01234567" } },
      }),
      404,
      "not_found",
    );
    // A deeper path is no operation.
    const deeper = await fetch(`${srv.baseUrl}/pickup_points/branches/fi.posti`, {
      headers: { authorization: basicAuth(`M-${MERCHANT}`, `secret-${MERCHANT}`) },
    });
    expect(deeper.status).toBe(404);
  });

  it("refuses an unknown query parameter (400 naming it), and no credentials (401), changing nothing", async () => {
    const unknown = await expectUnchanged(srv, () =>
      m.GET("/pickup_points/branches", { params: { query: { country: "FI" } as never } }),
    );
    const error = expectError(unknown, 400, "validation_failed", ["/query/country"]);
    expect(error.details).toHaveLength(1);
    expectError(await srv.client(undefined, undefined).GET("/pickup_points/branches"), 401, "unauthorized");
  });
});
