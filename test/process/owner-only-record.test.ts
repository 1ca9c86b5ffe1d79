// The record of a clean close (server/db/owner-only.ts, issue 53 item 3): an opening that finds the embedded
// database's directory as its last clean close left it serves without walking its ~1,100 files first, and walks them
// soon after; whatever could have made an entry others may use (a file made, a directory's mode changed, another
// opening since, no clean close) makes the opening walk before it serves, as every opening did before (issue 48).
import { chmodSync, cpSync, existsSync, lstatSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { openEmbedded } from "../../server/db/database.ts";
import { startEmbeddedThread } from "../../server/db/embedded-thread.ts";
import { ownerOnlyRecordFile } from "../../server/db/owner-only.ts";

const root = mkdtempSync(path.join(tmpdir(), "logistics-owner-only-record-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const db = path.join(root, "db");
const record = ownerOnlyRecordFile(db);
const mode = (file: string) => lstatSync(path.join(db, file)).mode & 0o777;
const TIGHTENED = /^(\d+) files and directories of the embedded database .* are now this user's alone/;

/** Opens and closes the directory; what it said, and the mode of `file` once it was open (before any later walk). */
async function openAndClose(file: string, then?: () => Promise<void>) {
  const notices: string[] = [];
  const h = await openEmbedded(db, { durability: "relaxed", onNotice: (m) => notices.push(m) });
  const atOpen = { notices: [...notices], mode: mode(file), recordLeft: existsSync(record) };
  await then?.();
  await h.close();
  return { ...atOpen, later: notices.slice(atOpen.notices.length) };
}

it(
  "an opening walks the directory before it serves unless nothing could have loosened it since the last clean close",
  { timeout: 120_000 },
  async () => {
    cpSync(inject("pgliteTemplate"), db, { recursive: true });
    // No record yet (a copy): walked at the opening, and a clean close records.
    await openAndClose("PG_VERSION");
    expect(existsSync(record)).toBe(true);

    // A file made in a subdirectory, readable by others (a copy, an older release): its directory changed.
    writeFileSync(path.join(db, "global", "made-by-another"), "x");
    chmodSync(path.join(db, "global", "made-by-another"), 0o644);
    let opened = await openAndClose("global/made-by-another");
    expect(opened.mode).toBe(0o600);
    expect(opened.notices).toEqual([expect.stringMatching(TIGHTENED)]);
    expect(opened.notices[0]).toMatch(/^1 files/);
    // Used up by the opening: a process that ends without a clean close leaves none.
    expect(opened.recordLeft).toBe(false);
    expect(existsSync(record)).toBe(true);

    // A directory's own mode changed.
    chmodSync(path.join(db, "global"), 0o755);
    opened = await openAndClose("global");
    expect(opened.mode).toBe(0o700);
    expect(opened.notices[0]).toMatch(/^1 files/);

    // No clean close since (a crash): no record, so the walk comes first.
    rmSync(record);
    chmodSync(path.join(db, "PG_VERSION"), 0o644);
    opened = await openAndClose("PG_VERSION");
    expect(opened.mode).toBe(0o600);
    expect(opened.notices[0]).toMatch(/^1 files/);

    // Another opening since the last clean close (an older release, which knows no record): PostgreSQL's start made
    // postmaster.pid at the top, so a file loosened since is tightened before serving, though no directory shows it.
    const older = await startEmbeddedThread(db, []);
    await older.close();
    chmodSync(path.join(db, "PG_VERSION"), 0o644);
    opened = await openAndClose("PG_VERSION");
    expect(opened.mode).toBe(0o600);
    expect(opened.notices[0]).toMatch(/^1 files/);

    // Nothing changed since the clean close: served without the walk ...
    opened = await openAndClose("PG_VERSION");
    expect(opened.notices).toEqual([]);
    // ... and a mode changed by hand on a file that was there, which no directory shows, is tightened soon after the
    // opening (while it serves), and said so.
    chmodSync(path.join(db, "PG_VERSION"), 0o640);
    opened = await openAndClose("PG_VERSION", async () => {
      await expect.poll(() => mode("PG_VERSION"), { timeout: 10_000 }).toBe(0o600);
    });
    expect(opened.mode).toBe(0o640);
    expect(opened.notices).toEqual([]);
    expect(opened.later).toEqual([expect.stringMatching(TIGHTENED)]);
    expect(opened.later[0]).toMatch(/^1 files/);

    // A close while that walk is still to come walks before it records: nothing is left for the next opening.
    chmodSync(path.join(db, "PG_VERSION"), 0o644);
    opened = await openAndClose("PG_VERSION");
    expect(opened.mode).toBe(0o644);
    expect(mode("PG_VERSION")).toBe(0o600);
    expect(existsSync(record)).toBe(true);

    // A mode changed by hand while it is open, after this opening's walk: the close records without walking again
    // (the entries it made itself are the user's alone), and the next opening's later walk finds it.
    rmSync(record);
    await openAndClose("PG_VERSION", async () => chmodSync(path.join(db, "PG_VERSION"), 0o644));
    expect(mode("PG_VERSION")).toBe(0o644);
    expect(existsSync(record)).toBe(true);
    opened = await openAndClose("PG_VERSION", async () => {
      await expect.poll(() => mode("PG_VERSION"), { timeout: 10_000 }).toBe(0o600);
    });
    expect(opened.notices).toEqual([]);
    expect(opened.later[0]).toMatch(/^1 files/);
  },
);
