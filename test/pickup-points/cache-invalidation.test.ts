// Cached answers across instances: a directory import committed anywhere on the database (here through
// one instance's connection, as the CLI does from its own process) reaches every instance's cache at
// commit (NOTIFY caches_changed), not after the 60 s time to live.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { importPoints, loadDemo, point } from "../helpers/shipping.ts";

let a: TestServer;
let b: TestServer;
let onB: LogisticsClient;
beforeAll(async () => {
  a = await startTestServer();
  await loadDemo(a);
  b = await startTestServer({ database: a.handle });
  await a.merchant("cache.example.com");
  onB = b.client("M-cache.example.com", "secret-cache.example.com");
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

it("an import committed elsewhere is seen by another instance's next lookup within a moment", async () => {
  const nearest = async () =>
    (await onB.GET("/pickup_points", { params: { query: { postalcode: "20780", limit: 1 } } })).data!.pickup_points[0]!
      .id;
  const before = await nearest();
  expect(await nearest()).toBe(before); // now cached on b for 60 s
  const here = point({ name: "Right at the postal code", postalcode: "20780", coordinates: [60.407, 22.369] });
  await importPoints(a, [here]);
  await expect.poll(nearest, { timeout: 2_000, interval: 20 }).toBe(here.id);
});
