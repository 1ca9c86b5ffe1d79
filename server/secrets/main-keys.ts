// The main keys that seal the secrets the service must read back (webhook endpoints' signing secrets and Basic
// passwords, the quote signing private keys): AES-256-GCM from node:crypto, a fresh 96-bit nonce per value, the
// row it belongs to as associated data (a sealed value copied to another row does not open there). Each sealed
// value names the key that sealed it, so a rotation re-seals rows one by one while every instance reads both keys.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/** `v1.<key id>.<base64url of nonce, ciphertext and tag>`. */
const FORMAT = "v1";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A key's id: public, derived from the key (an HMAC of a fixed label), so it cannot name a different key. */
export function keyIdOf(key: Buffer): string {
  return createHmac("sha256", key).update("logistics-api main key id").digest("hex").slice(0, 16);
}

/** The id of the key that sealed `sealed`, or undefined when it is not a sealed value. */
export function sealedKeyId(sealed: string): string | undefined {
  const [format, id] = sealed.split(".", 2);
  return format === FORMAT && id !== undefined && /^[0-9a-f]{16}$/.test(id) ? id : undefined;
}

/** A new main key as an operator writes it: base64 of 32 random bytes. */
export const newMainKeyText = (): string => randomBytes(KEY_BYTES).toString("base64");

/**
 * The 32 bytes of a main key written in base64 (standard or URL alphabet, padding optional), or undefined when the
 * text is not exactly that. Never echoes the text: callers' messages say the rule only.
 */
export function parseMainKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) return undefined;
  const bytes = Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === KEY_BYTES ? bytes : undefined;
}

/** A sealed value that does not open: its key is not held, or it was changed. Never a wrong plaintext. */
export class UnreadableSecret extends Error {}

export class MainKeys {
  /** The key new values are sealed under. */
  readonly currentId: string;
  private readonly byId = new Map<string, Buffer>();

  /** `main` seals and reads; `others` only read (the key before a rotation, or the next one before it is main). */
  constructor(main: Buffer, others: readonly Buffer[] = []) {
    for (const key of [main, ...others]) {
      if (key.length !== KEY_BYTES) throw new Error(`a main key is ${KEY_BYTES} bytes`);
      this.byId.set(keyIdOf(key), key);
    }
    this.currentId = keyIdOf(main);
  }

  /** Ids of every key held, the current one first. */
  get ids(): string[] {
    return [this.currentId, ...[...this.byId.keys()].filter((id) => id !== this.currentId)];
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** `plain` sealed under the current key for the row `context` names (`<table>:<id>`). */
  seal(plain: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.byId.get(this.currentId)!, nonce);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([nonce, cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}.${this.currentId}.${body.toString("base64url")}`;
  }

  /** The plain text of a value sealed for `context`; throws UnreadableSecret rather than return anything else. */
  open(sealed: string, context: string): string {
    const id = sealedKeyId(sealed);
    if (id === undefined) throw new UnreadableSecret(`a secret of ${context} is not a sealed value`);
    const key = this.byId.get(id);
    if (!key)
      throw new UnreadableSecret(
        `a secret of ${context} is sealed under main key ${id}, which this process does not hold (SECRETS_MAIN_KEY, SECRETS_READ_KEYS)`,
      );
    const body = Buffer.from(sealed.slice(FORMAT.length + id.length + 2), "base64url");
    if (body.length < NONCE_BYTES + TAG_BYTES) throw new UnreadableSecret(`a secret of ${context} is cut short`);
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, body.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(body.subarray(NONCE_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch (err) {
      throw new UnreadableSecret(`a secret of ${context} does not open under main key ${id}: it was changed`, {
        cause: err,
      });
    }
  }

  /** Whether `sealed` needs sealing again to be under the current key. */
  isCurrent(sealed: string): boolean {
    return sealedKeyId(sealed) === this.currentId;
  }
}
