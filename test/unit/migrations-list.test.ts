// Migrations are imported statically (the bundled server reads no directory): a new file must be listed.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTRACT_MIGRATIONS, MIGRATIONS } from "../../server/db/migrations/index.ts";

const filesOf = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^\d{4}_.*\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ""))
    .sort();

describe("the migrations list", () => {
  it("names every migration file of server/db/migrations, in order", () => {
    expect(Object.keys(MIGRATIONS)).toEqual(filesOf("server/db/migrations"));
    for (const m of Object.values(MIGRATIONS)) expect(typeof m.up).toBe("function");
  });

  it("names every contract migration file of server/db/migrations/contract, each after its expand migration", () => {
    expect(Object.keys(CONTRACT_MIGRATIONS)).toEqual(filesOf("server/db/migrations/contract"));
    const expands = Object.keys(MIGRATIONS).map((name) => name.slice(0, 4));
    for (const [name, m] of Object.entries(CONTRACT_MIGRATIONS)) {
      expect(typeof m.up).toBe("function");
      // Named after the expand migration it completes: `migrate --contract` applies it after that one.
      expect(expands).toContain(name.slice(0, 4));
    }
  });
});
