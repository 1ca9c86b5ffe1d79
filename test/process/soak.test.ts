// The short form of `npm run soak`: two instances on PostgreSQL under the realistic mix at a fixed rate;
// zero 5xx, every acknowledged write stored once, every webhook delivered, memory flat.
import { expect, it } from "vitest";
import { formatReport, runSoak } from "../../tools/soak.ts";

it("15 s of the soak's mix through two instances: no 5xx, nothing lost or doubled, every webhook delivered, RSS flat", async () => {
  // RSS may grow by half in 15 s: the test runs beside other suites, whose load decides how much garbage waits
  // for a collection; a leak is the long `npm run soak`'s to find (its default is 1.2).
  const report = await runSoak({ adminUrl: process.env.TEST_PG_URL!, seconds: 15, rate: 40, rssGrowth: 1.5 });
  const text = formatReport(report);
  console.log(text);
  expect(report.problems, text).toEqual([]);
  expect(report.requests).toBe(600);
  expect(report.writes.createsAcknowledged).toBeGreaterThan(10);
  expect(report.writes.arrivalsAcknowledged).toBeGreaterThan(0);
  expect(report.webhooks.delivered).toBeGreaterThan(0);
}, 180_000);
