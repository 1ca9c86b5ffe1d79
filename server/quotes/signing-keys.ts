// The service's quote signing keys: Ed25519 pairs in the database, so that every instance signs with the same key
// and publishes the same set. A key signs from its `active_from` until the next key's; it is published from its
// creation (a rotation creates the next key a day ahead, so shops' cached key sets learn it first) until the
// longest-lived quote it signed has expired.
import { generateKeyPairSync, sign, createPrivateKey, type KeyObject } from "node:crypto";
import type { QuoteKey } from "../../generated/api.ts";
import type { Executor } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import { sealedFor } from "../secrets/at-rest.ts";
import type { MainKeys } from "../secrets/main-keys.ts";

/** How far ahead a rotation's new key is published before it signs. */
export const ROTATION_NOTICE_MS = 24 * 3600_000;
/**
 * How long the keys read are used before reading again. A rotation is announced to every instance at its commit
 * (cache-signal), and a quote naming an unknown key reloads them: this is only the backstop.
 */
const RELOAD_MS = 60_000;
/** Reloads for quotes naming an unknown key are at most this often: forged key ids cannot make every request read. */
export const UNKNOWN_KEY_RELOAD_MS = 1_000;
/** A key id older than the last read by more than this cannot be new (ids are time-prefixed; clocks differ a little). */
const CLOCK_SKEW_MS = 60_000;

interface Row {
  id: string;
  /** PKCS #8 PEM sealed under the main key for the row; opened only when the key signs. */
  private_key_sealed: string;
  public_x: string;
  active_from: Date;
}

export interface SigningKey {
  kid: string;
  sign: (input: Buffer) => Buffer;
}

function newPair(keys: MainKeys, id: string): { private_key_sealed: string; public_x: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  return {
    private_key_sealed: keys.seal(pem, sealedFor("quote_signing_keys", id)),
    public_x: publicKey.export({ format: "jwk" }).x!,
  };
}

async function readKeys(db: Executor): Promise<Row[]> {
  const rows = await db
    .selectFrom("quote_signing_keys")
    .select(["id", "private_key_sealed", "public_x", "active_from"])
    .orderBy("active_from")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ ...r, active_from: new Date(r.active_from) }));
}

/** Adds a key: signing at once (`now`, the first key or an emergency) or after ROTATION_NOTICE_MS. Returns its id. */
export async function addSigningKey(
  db: Executor,
  keys: MainKeys,
  opts: { now?: boolean } = {},
): Promise<{ id: string; activeFrom: Date }> {
  const at = new Date();
  const activeFrom = opts.now ? at : new Date(at.getTime() + ROTATION_NOTICE_MS);
  const id = newId(at.getTime());
  await db
    .insertInto("quote_signing_keys")
    .values({ id, ...newPair(keys, id), active_from: activeFrom })
    .execute();
  return { id, activeFrom };
}

/** The creation time an id's first 8 hex digits say (shared/ids.ts), in ms. */
const idTimeMs = (id: string) => parseInt(id.slice(0, 8), 16) * 1000;

export class SigningKeys {
  private rows: Row[] = [];
  private readAt = -Infinity;
  /** Wall-clock time of the last read's start: keys created before it are among the rows. */
  private readWallMs = -Infinity;
  /** Bumped by forget(): a read that started before it does not count as fresh. */
  private generation = 0;
  private loading: Promise<void> | undefined;
  private unknownReload: Promise<void> | undefined;
  private lastUnknownReload = -Infinity;
  private privates = new Map<string, KeyObject>();
  /** Reads of the keys table so far (tests bound the reloads forged key ids cause). */
  reads = 0;

  constructor(
    private db: Executor,
    /** The longest a quote lives (QUOTE_TTL_SECONDS): how long a key stays published after it stops signing. */
    private quoteTtlMs: number,
    /** Seal the private keys added here and open those that sign. */
    private keys: MainKeys,
  ) {}

  private fresh(): boolean {
    return performance.now() - this.readAt < RELOAD_MS && this.rows.length > 0;
  }

  private async load(): Promise<void> {
    // Twice at most: a read already under way when forget() came may have missed the change.
    for (let i = 0; i < 2 && !this.fresh(); i++) {
      this.loading ??= this.read().finally(() => (this.loading = undefined));
      await this.loading;
    }
  }

  private async read(): Promise<void> {
    const generation = this.generation;
    const wall = Date.now();
    this.reads++;
    let rows = await readKeys(this.db);
    // The first start of a database: a key to sign with at once. Two instances starting together may both add
    // one; both are published and the later signs, so either's quotes check.
    if (!rows.some((r) => r.active_from.getTime() <= Date.now())) {
      await addSigningKey(this.db, this.keys, { now: true });
      rows = await readKeys(this.db);
    }
    this.rows = rows;
    this.readWallMs = wall;
    this.readAt = generation === this.generation ? performance.now() : -Infinity;
  }

  /**
   * Reads the keys, adding the first one to a database that has none: at start (services.ts), so that no request
   * ever writes one (a refused request changes nothing stored).
   */
  async ensure(): Promise<void> {
    this.readAt = -Infinity;
    await this.load();
  }

  /** The key that signs now: the last whose `active_from` has come. */
  async current(): Promise<SigningKey> {
    await this.load();
    const now = Date.now();
    const row = this.rows.filter((r) => r.active_from.getTime() <= now).at(-1)!;
    let key = this.privates.get(row.id);
    if (!key) {
      key = createPrivateKey(this.keys.open(row.private_key_sealed, sealedFor("quote_signing_keys", row.id)));
      this.privates.set(row.id, key);
    }
    const privateKey = key;
    return { kid: row.id, sign: (input) => sign(null, input, privateKey) };
  }

  /** The keys to publish: the next ones, the current one, and those whose quotes may still be alive. */
  async published(): Promise<QuoteKey[]> {
    await this.load();
    const now = Date.now();
    return this.rows
      .filter((r, i) => {
        const next = this.rows.slice(i + 1).find((n) => n.active_from.getTime() <= now);
        return next === undefined || next.active_from.getTime() + this.quoteTtlMs > now;
      })
      .map((r) => ({ kty: "OKP", crv: "Ed25519", x: r.public_x, kid: r.id, alg: "EdDSA", use: "sig" }));
  }

  /**
   * The published keys, read again first when `kid` (a quote's key) is not among them and may be a key created
   * since the last read (another instance's or the CLI's rotation whose announcement has not arrived, or a pooler
   * without LISTEN). Such reloads are shared and at most one per UNKNOWN_KEY_RELOAD_MS (a request waits for the
   * next one rather than causing its own), so forged key ids cannot make every request read.
   */
  async publishedFor(kid: string | undefined): Promise<QuoteKey[]> {
    const keys = await this.published();
    if (kid === undefined || !/^[0-9a-f]{24}$/.test(kid) || keys.some((k) => k.kid === kid)) return keys;
    if (idTimeMs(kid) < this.readWallMs - CLOCK_SKEW_MS || idTimeMs(kid) > Date.now() + CLOCK_SKEW_MS) return keys;
    this.unknownReload ??= (async () => {
      const wait = this.lastUnknownReload + UNKNOWN_KEY_RELOAD_MS - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.lastUnknownReload = performance.now();
      this.forget();
      await this.load();
    })().finally(() => (this.unknownReload = undefined));
    await this.unknownReload;
    return this.published();
  }

  /** Reads the keys again at the next use: a rotation here, or announced by another instance or the CLI. */
  forget(): void {
    this.generation++;
    this.readAt = -Infinity;
  }
}
