// The events feed across a restore of the embedded database (issue 52 item 2): the merchant's cursor handed out
// after the backup names events the restored service never had, and positions after the backup go to other
// events. That cursor is refused with 409 cursor_from_other_history and a cursor to restart from, which leads
// to every event of the present history the merchant has not seen; cursors from before the backup, and
// unmarked ones (handed out before cursors carried their history), are still accepted.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import type { LogisticsClient } from "../../client/index.ts";
import { decodeFeedCursor, encodeFeedCursor } from "../../server/shared/pagination.ts";
import { cli, startServerProcess, type ServerProcess } from "./helpers.ts";

const dir = mkdtempSync(path.join(tmpdir(), "logistics-feed-restore-"));
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

/** A shipment created and confirmed: one status_changed event in the merchant's feed. */
async function confirmedShipment(m: LogisticsClient, ref: string): Promise<string> {
  const created = await m.POST("/inbound_shipments/_create", {
    body: { merchants_ref: ref, sender_name: "Acme", products: [{ merchants_id: "SKU-1", qty: 1 }] },
  });
  expect(created.response.status).toBe(201);
  const id = created.data!.shipment_id;
  const confirmed = await m.POST("/inbound_shipments/{shipment_id}/_confirm", {
    params: { path: { shipment_id: id } },
  });
  expect(confirmed.response.status).toBe(200);
  return id;
}

/** Every event from `cursor` on, as a poller reads them, and the cursor it keeps. */
async function readFeed(m: LogisticsClient, cursor?: string) {
  const refs: string[] = [];
  for (;;) {
    const r = await m.GET("/events", { params: { query: { ...(cursor && { cursor }), limit: 2 } } });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    refs.push(...r.data!.items.map((e) => (e.payload as { merchants_ref: string }).merchants_ref));
    cursor = r.data!.next_cursor ?? undefined;
    if (!r.data!.has_more) return { refs, cursor: cursor! };
  }
}

// Three server starts and four CLI runs: a limit of its own on two busy cores.
it(
  "after a restore, a cursor from after the backup is refused with a cursor to restart from that skips nothing",
  { timeout: 300_000 },
  async () => {
    const db = path.join(dir, "db");
    cpSync(inject("pgliteTemplate"), db, { recursive: true });
    const env = { DATABASE_URL: "", PGLITE_DIR: db };
    const made = await cli(["merchant", "create", "feed.example.com"], env);
    expect(made.code, made.output).toBe(0);
    const secret = /Secret \(shown once, store it now\): (\S+)/.exec(made.output)![1]!;
    const start = async () => {
      const s = await startServerProcess(env);
      cleanups.push(async () => s.stop());
      return s;
    };

    let srv: ServerProcess = await start();
    let m = srv.client("M-feed.example.com", secret);
    await confirmedShipment(m, "A");
    const beforeBackup = await readFeed(m);
    expect(beforeBackup.refs).toEqual(["A"]);
    const backup = await cli(["backup", path.join(dir, "feed.tgz")], env);
    expect(backup.code, backup.output).toBe(0);

    // After the backup: events the merchant reads, then loses with the restore.
    await confirmedShipment(m, "B");
    await confirmedShipment(m, "C");
    const lost = await readFeed(m, beforeBackup.cursor);
    expect(lost.refs).toEqual(["B", "C"]);
    const stale = lost.cursor;
    expect(decodeFeedCursor(stale)).toMatchObject({ position: "3", mark: expect.any(String) });
    await srv.stop();

    const restored = await cli(["restore", path.join(dir, "feed.tgz")], env);
    expect(restored.code, restored.output).toBe(0);
    srv = await start();
    m = srv.client("M-feed.example.com", secret);
    // The present history's own events take positions 2 and 3 again.
    await confirmedShipment(m, "D");
    await confirmedShipment(m, "E");

    const refused = await m.GET("/events", { params: { query: { cursor: stale } } });
    expect(refused.response.status).toBe(409);
    expect(refused.error).toMatchObject({
      success: false,
      code: "cursor_from_other_history",
      details: [],
      restart_cursor: expect.any(String),
    });
    const restart = (refused.error as unknown as { restart_cursor: string }).restart_cursor;
    // The restart cursor stands after A, the last event both histories share: D and E come, nothing is skipped.
    expect(decodeFeedCursor(restart)).toEqual(decodeFeedCursor(beforeBackup.cursor));
    const resumed = await readFeed(m, restart);
    expect(resumed.refs).toEqual(["D", "E"]);

    // A cursor from before the backup is of this history too; an unmarked one is accepted as before.
    expect((await readFeed(m, beforeBackup.cursor)).refs).toEqual(["D", "E"]);
    const unmarked = encodeFeedCursor("1");
    expect((await readFeed(m, unmarked)).refs).toEqual(["D", "E"]);

    // Refused before the new history reaches the stale position as well: a position not handed out yet.
    const ahead = encodeFeedCursor("9", (decodeFeedCursor(stale) as { mark: string }).mark);
    const early = await m.GET("/events", { params: { query: { cursor: ahead } } });
    expect(early.response.status).toBe(409);
    expect(early.error).toMatchObject({ code: "cursor_from_other_history" });
    await srv.stop();
  },
);
