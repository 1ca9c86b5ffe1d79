import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from "node:crypto";
import pLimit from "p-limit";
import { AppError } from "../shared/errors.ts";

// Key derivation is the costly part of a login: at most two run at once, and a short queue waits
// for them. Beyond it a check is refused (503) instead of piling up CPU work for failed guesses.
const inFlight = pLimit(2);
const MAX_WAITING = 64;

const scrypt = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) => {
  if (inFlight.pendingCount >= MAX_WAITING) {
    return Promise.reject(
      new AppError("unavailable", "Too many credentials are being checked right now; retry in a second.", [], {
        "Retry-After": "1",
      }),
    );
  }
  return inFlight(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCb(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
};

const N = 16384,
  R = 8,
  P = 1,
  LEN = 32;

export function generateSecret(): string {
  return randomBytes(24).toString("base64url");
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(secret, salt, LEN, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** A hash of no one's secret: an unknown account costs the same key derivation as a wrong secret. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashSecret(generateSecret()));

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, hash] = stored.split("$");
  if (alg !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await scrypt(secret, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}
