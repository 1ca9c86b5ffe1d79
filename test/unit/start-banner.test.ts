// What a start prints (server/demo.ts startBanner): the addresses always; the demo's credentials only while the demo
// merchant exists, so a real deployment's start never prints a secret.
import { describe, expect, it } from "vitest";
import { DEMO, startBanner } from "../../server/demo.ts";

const base = "http://localhost:3000/2015-01-01";

describe("the start banner", () => {
  it("names every part's address on each start, with or without the demo", () => {
    for (const demo of ["seeded", "present", "absent"] as const) {
      const text = startBanner(base, demo, false);
      expect(text).toContain(`Logistics API: ${base}\n`);
      expect(text).toContain("Docs: http://localhost:3000/docs\n");
      expect(text).toContain("Merchant portal: http://localhost:3000/portal/\n");
      expect(text).toContain("Warehouse station: http://localhost:3000/station\n");
      expect(text).not.toContain("/demo/checkout");
    }
    expect(startBanner(base, "absent", true)).toContain("demo shop page: http://localhost:3000/demo/checkout");
  });

  it("prints the demo's request and sign-ins only while the demo merchant exists", () => {
    expect(startBanner(base, "seeded", true)).toContain("Demo data seeded.");
    expect(startBanner(base, "present", true)).toContain("Demo data (from the first start):");
    for (const demo of ["seeded", "present"] as const) {
      const text = startBanner(base, demo, true);
      expect(text).toContain(`curl -s -u 'M-${DEMO.merchantId}:${DEMO.merchantSecret}'`);
      expect(text).toContain(`Portal sign-in: ${DEMO.portalEmail} / ${DEMO.portalPassword}`);
    }
    const absent = startBanner(base, "absent", true);
    for (const secret of [DEMO.merchantSecret, DEMO.operatorSecret, DEMO.portalPassword])
      expect(absent).not.toContain(secret);
  });
});
