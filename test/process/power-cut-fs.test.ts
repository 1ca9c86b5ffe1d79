// The power-cut file system itself (test/helpers/power-cut-fs.py): what a power cut keeps is exactly what was
// flushed, file data by fsync/fdatasync of the file, directory changes by fsync of the directory; after the cut
// nothing answers. The power-cut test of the server (power-cut.test.ts) counts on each of these.
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { mountPowerCutFs, type PowerCutFs } from "../helpers/power-cut-fs.ts";

const root = mkdtempSync(path.join(tmpdir(), "logistics-power-cut-fs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let mounted: PowerCutFs | undefined;
afterEach(async () => {
  await mounted?.stop();
  mounted = undefined;
});

let n = 0;
async function mount(prepare: (backing: string) => void = () => {}) {
  const backing = path.join(root, `backing-${++n}`);
  mkdirSync(backing);
  prepare(backing);
  mounted = await mountPowerCutFs(backing, path.join(root, `mnt-${n}`));
  return mounted;
}

/** Flushes a file or directory by path (a directory: its entries). */
const flush = (p: string, data = false) => {
  const fd = openSync(p, "r");
  try {
    if (data) fdatasyncSync(fd);
    else fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

it("keeps a file's writes once the file is flushed, drops the later ones; reads see both before the cut", async () => {
  const fs = await mount((b) => writeFileSync(path.join(b, "f"), "0123456789"));
  const f = path.join(fs.mountpoint, "f");
  const fd = openSync(f, "r+");
  writeSync(fd, "ab", 0);
  fsyncSync(fd);
  writeSync(fd, "cd", 2);
  writeSync(fd, "-tail", 10);
  flush(f, true);
  writeSync(fd, "XY", 4);
  closeSync(fd);
  expect(readFileSync(f, "latin1")).toBe("abcdXY6789-tail");
  await fs.cut();
  expect(readFileSync(path.join(fs.backing, "f"), "latin1")).toBe("abcd456789-tail");
});

it("drops a truncation and the writes of a file never flushed; a flushed truncation keeps, zeros where it cut", async () => {
  const fs = await mount((b) => {
    writeFileSync(path.join(b, "t"), "x".repeat(10_000));
    writeFileSync(path.join(b, "u"), "y".repeat(10_000));
  });
  const t = openSync(path.join(fs.mountpoint, "t"), "r+");
  ftruncateSync(t, 5);
  writeSync(t, "z", 6000);
  closeSync(t);
  const u = openSync(path.join(fs.mountpoint, "u"), "r+");
  ftruncateSync(u, 3);
  writeSync(u, "z", 5000);
  fsyncSync(u);
  closeSync(u);
  expect(readFileSync(path.join(fs.mountpoint, "t"), "latin1")).toBe(
    "xxxxx" + "\0".repeat(995) + "\0".repeat(5000) + "z",
  );
  await fs.cut();
  expect(readFileSync(path.join(fs.backing, "t"), "latin1")).toBe("x".repeat(10_000));
  expect(readFileSync(path.join(fs.backing, "u"), "latin1")).toBe("yyy" + "\0".repeat(4997) + "z");
});

it("keeps a directory's creations, renames and removals once the directory is flushed, undoes the others", async () => {
  const fs = await mount((b) => {
    mkdirSync(path.join(b, "d"));
    for (const name of ["a", "b", "c", "gone"]) writeFileSync(path.join(b, "d", name), name);
  });
  const d = path.join(fs.mountpoint, "d");
  // Flushed: a new file (its data flushed too), a rename over an existing name, a removal.
  writeFileSync(path.join(d, "new"), "new");
  flush(path.join(d, "new"));
  renameSync(path.join(d, "a"), path.join(d, "b"));
  unlinkSync(path.join(d, "gone"));
  flush(d);
  // Not flushed: a created file (its data flushed), a directory, a rename, a removal.
  writeFileSync(path.join(d, "lost"), "lost");
  flush(path.join(d, "lost"));
  mkdirSync(path.join(d, "sub"));
  writeFileSync(path.join(d, "sub", "x"), "x");
  flush(path.join(d, "sub"));
  renameSync(path.join(d, "new"), path.join(d, "renamed"));
  unlinkSync(path.join(d, "c"));
  expect(readdirSync(d).sort()).toEqual(["b", "lost", "renamed", "sub"]);
  await fs.cut();
  expect(readdirSync(path.join(fs.backing, "d")).sort()).toEqual(["b", "c", "new"]);
  expect(["b", "c", "new"].map((f) => readFileSync(path.join(fs.backing, "d", f), "latin1"))).toEqual([
    "a",
    "c",
    "new",
  ]);
});

it("answers nothing after the cut, and mounted again shows the flushed state", async () => {
  const fs = await mount();
  writeFileSync(path.join(fs.mountpoint, "kept"), "kept");
  flush(path.join(fs.mountpoint, "kept"));
  flush(fs.mountpoint);
  writeFileSync(path.join(fs.mountpoint, "lost"), "lost");
  await fs.cut();
  expect(() => readdirSync(fs.mountpoint)).toThrow(/EIO/);
  expect(() => writeFileSync(path.join(fs.mountpoint, "more"), "x")).toThrow(/EIO/);
  await fs.stop();
  mounted = await mountPowerCutFs(fs.backing, fs.mountpoint);
  expect(readdirSync(fs.mountpoint)).toEqual(["kept"]);
  expect(readFileSync(path.join(fs.mountpoint, "kept"), "latin1")).toBe("kept");
  expect(existsSync(`${fs.backing}.removed`)).toBe(true);
});

it("fails every fsync with EIO once told to, as a failing disk", async () => {
  const fs = await mount();
  const fd = openSync(path.join(fs.mountpoint, "f"), "w");
  writeSync(fd, "x");
  await fs.failFsync();
  expect(() => fsyncSync(fd)).toThrow(/EIO/);
  expect(() => flush(fs.mountpoint)).toThrow(/EIO/);
  closeSync(fd);
});
