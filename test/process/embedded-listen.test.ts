// LISTEN on the embedded database: notifications come back in the answer of the commit that sent them, parsed by
// the embedded connection (server/db/embedded-connection.ts), and reach each listener of their channel only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { openEmbedded } from "../../server/db/database.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-listen-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a committed pg_notify calls the channel's listeners, not after they stop, and not in a rolled-back transaction", async () => {
  const h = await openEmbedded(path.join(dir, "db"));
  try {
    const heard: string[] = [];
    const stopA = await h.listen("caches_changed", () => heard.push("a"));
    const stopOther = await h.listen("webhook_deliveries", () => heard.push("other"));
    await sql`select pg_notify('caches_changed', 'x')`.execute(h.db);
    expect(heard).toEqual(["a"]);
    await h.db
      .transaction()
      .execute(async (trx) => {
        await sql`select pg_notify('caches_changed', 'y')`.execute(trx);
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(heard).toEqual(["a"]);
    await stopA();
    await sql`select pg_notify('caches_changed', 'z')`.execute(h.db);
    await sql`select pg_notify('webhook_deliveries', 'z')`.execute(h.db);
    expect(heard).toEqual(["a", "other"]);
    await stopOther();
  } finally {
    await h.close();
  }
});
