// Stored secrets (accounts' secret_hash, portal users' password_hash), in one of three forms:
//   scrypt$N$r$p$<salt>$<key>           a secret a person chose, a portal password, or a generated secret not yet
//                                       used since this release: checked with scrypt (slow on purpose).
//   scrypt$N$r$p$<salt>$<key>$<sha256>  a generated secret: checked by its SHA-256 digest alone. 192 or more random
//                                       bits cannot be guessed, so a slow hash adds nothing; the scrypt part is
//                                       kept so that the previous release, which reads the first six fields,
//                                       still verifies it after a rollback.
//   sha256$<sha256>                     the same without the scrypt part: read since this release, written by a
//                                       later one once no release before this one runs (expand, then contract).
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { AppError } from "../shared/errors.ts";
import { ANONYMOUS_LANE, DerivationQueue } from "./derivations.ts";

/** Every key derivation of the process, in lanes (derivations.ts). */
export const derivations = new DerivationQueue();
/** The lane of making new hashes: provisioning and password changes. */
export const ACCOUNTS_LANE = "accounts";

interface ScryptHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

const N = 16384,
  R = 8,
  P = 1,
  LEN = 32;

const scrypt = (secret: string, h: Omit<ScryptHash, "key">, len: number) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(secret, h.salt, len, { N: h.n, r: h.r, p: h.p }, (err, key) => (err ? reject(err) : resolve(key))),
  );

const digestOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest();
const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Whether a secret has the shape of one generateSecret made, now (32 random bytes) or before (24): canonical
 * base64url of that length with capitals, small letters and digits. Only such a secret gets the fast digest
 * when an old hash of it is upgraded; a person's own words keep scrypt.
 */
export function looksGenerated(secret: string): boolean {
  return (
    (secret.length === 43 || secret.length === 32) &&
    /^[A-Za-z0-9_-]+$/.test(secret) &&
    Buffer.from(secret, "base64url").toString("base64url") === secret &&
    /[A-Z]/.test(secret) &&
    /[a-z]/.test(secret) &&
    /[0-9]/.test(secret)
  );
}

/** 256 random bits; drawn again in the rare case (0.07 %) they lack a digit, so that every one looks generated. */
export function generateSecret(): string {
  for (;;) {
    const secret = randomBytes(32).toString("base64url");
    if (looksGenerated(secret)) return secret;
  }
}

/** scrypt: for passwords and secrets people choose. */
export async function hashSecret(secret: string, lane = ACCOUNTS_LANE): Promise<string> {
  const salt = randomBytes(16);
  const key = await derivations.run(lane, () => scrypt(secret, { n: N, r: R, p: P, salt }, LEN));
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** For a secret generateSecret made: checked by digest, readable by the previous release too. */
export async function hashGeneratedSecret(secret: string, lane = ACCOUNTS_LANE): Promise<string> {
  return withDigest(await hashSecret(secret, lane), secret);
}

/** `stored` (an scrypt hash of `secret`, just verified) with the digest that lets later checks skip scrypt. */
export const withDigest = (stored: string, secret: string) => `${stored}$${digestOf(secret).toString("base64")}`;

/** Whether a successful check of `secret` against `stored` should upgrade it with withDigest. */
export const wantsDigest = (stored: string, secret: string) =>
  looksGenerated(secret) && stored.startsWith("scrypt$") && stored.split("$").length === 6;

function parse(stored: string): { scrypt?: ScryptHash; digest?: Buffer } | undefined {
  const f = stored.split("$");
  if (f[0] === "sha256" && f.length === 2) return { digest: Buffer.from(f[1]!, "base64") };
  if (f[0] !== "scrypt" || (f.length !== 6 && f.length !== 7)) return undefined;
  const [, n, r, p, salt, key, digest] = f;
  return {
    scrypt: {
      n: Number(n),
      r: Number(r),
      p: Number(p),
      salt: Buffer.from(salt!, "base64"),
      key: Buffer.from(key!, "base64"),
    },
    digest: digest === undefined ? undefined : Buffer.from(digest, "base64"),
  };
}

const matches = async (secret: string, h: ScryptHash, lane: string) =>
  sameBytes(await derivations.run(lane, () => scrypt(secret, h, h.key.length)), h.key);

/** The scrypt hash of no one's secret, made once per process outside the lanes (a full lane must not break it). */
let dummy: Promise<ScryptHash> | undefined;
const dummyHash = () =>
  (dummy ??= (async () => {
    const salt = randomBytes(16);
    const key = await scrypt(randomBytes(32).toString("base64url"), { n: N, r: R, p: P, salt }, LEN);
    return { n: N, r: R, p: P, salt, key };
  })().catch((err: unknown) => {
    dummy = undefined;
    throw err;
  }));

/**
 * A full anonymous lane's refusal (503): the credentials name no account and could not have succeeded, so the
 * caller counts a failed sign-in all the same, or refused attempts would escape the per-address limit.
 */
export class NoAccountRefusal extends AppError {}

/**
 * Checks `secret` against an account's stored hash, deriving in the account's lane; `undefined`: no such
 * account, derived in the anonymous lane. Every failure costs one key derivation, whatever the account and its
 * hash, so that the time of an answer does not tell whether the account exists; only a right generated secret
 * skips it. Rejects with 503 when the lane is full (NoAccountRefusal when there is no account).
 */
export async function verifySecret(secret: string, account: { stored: string; lane: string } | undefined) {
  const parsed = account && parse(account.stored);
  const lane = account?.lane ?? ANONYMOUS_LANE;
  if (parsed?.digest) {
    if (sameBytes(digestOf(secret), parsed.digest)) return true;
  } else if (parsed?.scrypt) {
    return matches(secret, parsed.scrypt, lane);
  }
  const dummy = await dummyHash();
  await matches(secret, dummy, lane).catch((err: unknown) => {
    if (account || !(err instanceof AppError)) throw err;
    throw new NoAccountRefusal(err.code, err.message, err.details, err.headers);
  });
  return false;
}
