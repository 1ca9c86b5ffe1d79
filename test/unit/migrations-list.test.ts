// Migrations are imported statically (the bundled server reads no directory): a new file must be listed.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../server/db/migrations/index.ts";

describe("the migrations list", () => {
  it("names every migration file of server/db/migrations, in order", () => {
    const files = readdirSync("server/db/migrations")
      .filter((f) => /^\d{4}_/.test(f))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(MIGRATIONS)).toEqual(files);
    for (const m of Object.values(MIGRATIONS)) expect(typeof m.up).toBe("function");
  });
});
