// How the durable-trace test reads an strace log (test/process/strace-log.ts): which writes to the log are an
// answered commit's, and whether a flush of them came between them and the answer. Synthetic logs, in strace's
// form (-f -y -xx), for the cases a real trace shows only now and then.
import { expect, it } from "vitest";
import { parseStrace, unflushedAnswer } from "../process/strace-log.ts";

const SEG = "/d/pg_wal/000000010000000000000001";
const NEXT_SEG = "/d/pg_wal/000000010000000000000002";
const hex = (s: string) => [...Buffer.from(s, "latin1")].map((b) => `\\x${b.toString(16).padStart(2, "0")}`).join("");
const pwrite = (pid: number, file: string, data: string, offset: number) =>
  `${pid}  pwrite64(7<${file}>, "${hex(data)}", ${data.length}, ${offset}) = ${data.length}`;
const fsync = (pid: number, file: string) => `${pid}  fsync(9<${file}>) = 0`;
const answer = (pid: number, data: string) =>
  `${pid}  writev(20<socket:[4242]>, [{iov_base="${hex(data)}", iov_len=${data.length}}], 1) = ${data.length}`;
const check = (lines: string[], mark: string) => unflushedAnswer(parseStrace(lines.join("\n")), mark);

// pid 1: the database's thread; 2: a thread of libuv's pool (the grouped flush); 3: the main thread (answers).
it("a commit flushed after it was written and before its answer passes; without the flush it is named", () => {
  const commit = pwrite(1, SEG, "....A-ID....", 8192);
  expect(check([commit, fsync(2, SEG), answer(3, '{"shipment_id":"A-ID"}')], "A-ID")).toBeUndefined();
  expect(check([commit, answer(3, '{"shipment_id":"A-ID"}')], "A-ID")).toBe(
    `no flush of ${SEG} between the commit holding A-ID and its answer`,
  );
  expect(check([fsync(2, SEG), commit, answer(3, "A-ID")], "A-ID")).toMatch(/^no flush/);
});

it("the next request's commit, written while the answered one's flush is under way, is not the answered commit's", () => {
  // Commit A ends within the page at 8192; B starts again at that page's beginning (the page is rewritten).
  const lines = [
    `2  fsync(9<${SEG}> <unfinished ...>`,
    pwrite(1, SEG, "..A-ID..", 8192),
    `2  <... fsync resumed>) = 0`,
    `2  fsync(9<${SEG}> <unfinished ...>`,
    pwrite(1, SEG, "..A-ID....B-ID..", 8192),
    `2  <... fsync resumed>) = 0`,
    answer(3, "A-ID"),
    fsync(2, SEG),
    answer(3, "B-ID"),
  ];
  expect(check(lines, "A-ID")).toBeUndefined();
  expect(check(lines, "B-ID")).toBeUndefined();
  // The flush began before A's write ended: not a flush of A.
  expect(check([lines[0]!, lines[1]!, lines[2]!, answer(3, "A-ID")], "A-ID")).toMatch(/^no flush/);
});

it("a commit written in parts (the buffer wrapped, a segment ended) needs a flush after its last part, of each file", () => {
  const parts = [pwrite(1, SEG, "..C-ID..", 16376), pwrite(1, SEG, "tail", 16384), pwrite(1, NEXT_SEG, "more", 0)];
  expect(check([parts[0]!, parts[1]!, fsync(2, SEG), answer(3, "C-ID")], "C-ID")).toBeUndefined();
  expect(check([parts[0]!, fsync(2, SEG), parts[1]!, answer(3, "C-ID")], "C-ID")).toMatch(/^no flush of .*0001 /);
  expect(check([...parts, fsync(2, SEG), answer(3, "C-ID")], "C-ID")).toMatch(/^no flush of .*0002 /);
  expect(check([...parts, fsync(2, SEG), fsync(2, NEXT_SEG), answer(3, "C-ID")], "C-ID")).toBeUndefined();
});

it("an answer that left before its commit's last part was written, and a mark found nowhere, are named", () => {
  expect(check([pwrite(1, SEG, "D-ID", 0), answer(3, "D-ID"), pwrite(1, SEG, "rest", 4)], "D-ID")).toBe(
    "the answer for D-ID left before its commit was written",
  );
  expect(check([answer(3, "E-ID")], "E-ID")).toBe("no write to the log holding E-ID");
  expect(check([pwrite(1, SEG, "E-ID", 0)], "E-ID")).toBe("no answer holding E-ID");
});
