import { randomBytes } from "node:crypto";

// ObjectId-like: 4 bytes of seconds, 5 random bytes per process, 3-byte counter. Sortable by creation.
const processRandom = randomBytes(5).toString("hex");
let counter = randomBytes(3).readUIntBE(0, 3);

export function newId(now = Date.now()): string {
  counter = (counter + 1) & 0xffffff;
  const secs = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, "0");
  return secs + processRandom + counter.toString(16).padStart(6, "0");
}
