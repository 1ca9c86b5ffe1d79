// The station's scans on their way to the service. Every scan is first kept in the browser (IndexedDB) as a batch
// with the Idempotency-Key it got when it was made, then sent, in the order made, only under the session of the
// person who scanned it: a resend after a lost answer is the same request, which the service counts once. A dropped
// network is normal: batches wait and go when it returns. What can really refuse a batch is kept with the refusal
// for the person to decide; so is a batch older than the service keeps its keys (24 hours), which is never sent
// blindly (the service could no longer recognise it as sent before).
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import { idempotencyKey } from "../../../client/index.ts";
import type { LogisticsClient } from "../../../client/index.ts";
import type { S } from "./session.ts";
import type { ArrivalsRecord } from "../../../generated/api.ts";

/** Why the service refused a batch: the shipment gone (404), closed or deleted (409, with the status it has now), a
 * reused key (422), or input it would not take (400). */
export interface Refusal {
  status: number;
  code: string;
  /** A 409's status of the shipment now (the detail at /status). */
  now?: string;
}

export interface Batch {
  seq: number;
  user_id: string;
  shipment_id: string;
  key: string;
  body: ArrivalsRecord;
  /** When it was made (ms since the epoch). */
  made_at: number;
  refused?: Refusal;
}

/** How long the service remembers an Idempotency-Key (server/idempotency: 24 hours). */
export const KEY_LIFETIME_MS = 24 * 3_600_000;
export const isStale = (b: Batch, now = Date.now()) => now - b.made_at > KEY_LIFETIME_MS;

interface QueueSchema extends DBSchema {
  batches: { key: number; value: Batch; indexes: { by_user: string } };
}

let opened: Promise<IDBPDatabase<QueueSchema>> | undefined;
const db = () =>
  (opened ??= openDB<QueueSchema>("logistics-station", 1, {
    upgrade(d) {
      d.createObjectStore("batches", { keyPath: "seq", autoIncrement: true }).createIndex("by_user", "user_id");
    },
  }));

export interface OutboxState {
  /** This user's batches, oldest first. */
  batches: Batch[];
  /** The last attempt could not reach the service. */
  offline: boolean;
  /** The session ended (401): nothing more is sent until the same person signs in again. */
  signedOut: boolean;
}

/** A shipment as an accepted batch's answer shows it. */
export type Accepted = (shipmentId: string, shipment: S["InboundShipment"]) => void;

/**
 * One person's queue at this station. `add` keeps a scan and starts sending; `flush` sends what waits, one batch
 * at a time in order; `online` events and a timer try again after a failure.
 */
export class Outbox {
  private state: OutboxState = { batches: [], offline: false, signedOut: false };
  private listeners = new Set<(s: OutboxState) => void>();
  private running = false;
  private again = false;
  /** Scans shown but not yet kept in the browser: every reload of the list keeps them. */
  private pending: Batch[] = [];
  /** Changes whenever a batch starts or ends its trip to the service (see `mark`). */
  private epoch = 0;
  private sending = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly retry = () => void this.flush();

  constructor(
    private readonly userId: string,
    private api: LogisticsClient,
    private readonly accepted: Accepted,
  ) {}

  start(): void {
    window.addEventListener("online", this.retry);
    this.timer = setInterval(this.retry, 4_000);
    void this.reload().then(() => this.flush());
  }

  stop(): void {
    window.removeEventListener("online", this.retry);
    clearInterval(this.timer);
    this.listeners.clear();
  }

  /** After signing in again: the new session's client; the queue goes on. */
  resume(api: LogisticsClient): void {
    this.api = api;
    this.set({ signedOut: false });
    void this.flush();
  }

  subscribe(listener: (s: OutboxState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  get current(): OutboxState {
    return this.state;
  }

  /**
   * For a read of the shipment: a mark taken before the read, compared after it. A read begun while a batch was on
   * its way, or answered after one came back, may count that batch twice (listed and read) or miss it (answered
   * before it arrived, shown after its answer): such a read is dropped. Undefined while a batch is on its way.
   */
  mark(): number | undefined {
    return this.sending ? undefined : this.epoch;
  }

  /** Keeps a scan (its key made now) and sends it when it can. */
  async add(shipmentId: string, arrivals: ArrivalsRecord["arrivals"]): Promise<void> {
    const made = new Date();
    const batch: Omit<Batch, "seq"> = {
      user_id: this.userId,
      shipment_id: shipmentId,
      key: idempotencyKey(),
      body: { ts: made.toISOString().replace(/\.\d{3}Z$/, "+00:00"), arrivals },
      made_at: made.getTime(),
    };
    // On screen at once (counted as not sent yet); kept in the browser before it is sent.
    const shown: Batch = { ...batch, seq: Number.MAX_SAFE_INTEGER };
    this.pending.push(shown);
    this.set({ batches: [...this.state.batches, shown] });
    try {
      await (await db()).add("batches", batch as Batch);
    } finally {
      this.pending = this.pending.filter((b) => b !== shown);
    }
    await this.reload();
    void this.flush();
  }

  /** The person's decision on a refused or old batch: send it again (the same request), or drop it. */
  async retryBatch(seq: number): Promise<void> {
    const d = await db();
    const b = await d.get("batches", seq);
    if (!b || b.user_id !== this.userId) return;
    // An old batch goes as a new request: the service has forgotten its key, and the person decided to send it.
    const fresh: Batch = {
      ...b,
      refused: undefined,
      ...(isStale(b) && { key: idempotencyKey(), made_at: Date.now() }),
    };
    delete fresh.refused;
    await d.put("batches", fresh);
    await this.reload();
    void this.flush();
  }

  async discard(seq: number): Promise<void> {
    const d = await db();
    const b = await d.get("batches", seq);
    if (b?.user_id === this.userId) await d.delete("batches", seq);
    await this.reload();
  }

  /** Sends every batch that may go, in order; stops at the first that cannot reach the service. */
  async flush(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        await this.sendWaiting();
      } while (this.again && !this.state.offline && !this.state.signedOut);
    } finally {
      this.running = false;
    }
  }

  private async sendWaiting(): Promise<void> {
    if (this.state.signedOut) return;
    const waiting = (await this.load()).filter((b) => !b.refused && !isStale(b));
    for (const b of waiting) {
      // The trip ends once the list no longer holds the batch, not when its answer comes: a read of the shipment
      // begun between the two held the batch in its counts while the list still showed it as not sent (the count on
      // screen one too high, seen in CI).
      this.sending = true;
      this.epoch++;
      try {
        if (!(await this.sendOne(b))) return;
      } finally {
        this.sending = false;
        this.epoch++;
      }
    }
  }

  /** One batch's trip and what its answer does to the list; false: stop sending for now. */
  private async sendOne(b: Batch): Promise<boolean> {
    let r;
    try {
      r = await this.api.POST("/inbound_shipments/{shipment_id}/arrivals", {
        params: { path: { shipment_id: b.shipment_id }, header: { "Idempotency-Key": b.key } },
        body: b.body,
      });
    } catch {
      this.set({ offline: true });
      return false;
    }
    const status = r.response.status;
    if (r.data) {
      // Deleted first, so that no reload can list it again; then the list without it and the answer's counts
      // arrive in one render: the count on screen never doubles, nor drops.
      await (await db()).delete("batches", b.seq);
      const left = await this.load();
      this.set({ batches: left, offline: false });
      this.accepted(b.shipment_id, r.data);
      return true;
    }
    if (status === 401) {
      this.set({ signedOut: true, offline: false });
      return false;
    }
    if (status === 404 || status === 409 || status === 422 || status === 400 || status === 403) {
      const error = r.error;
      const now = error?.details?.find((d) => d.path === "/status")?.code;
      const refused: Refusal = { status, code: error?.code ?? "unknown", ...(now && { now }) };
      await (await db()).put("batches", { ...b, refused });
      await this.reload({ offline: false });
      return true;
    }
    // 429, 5xx: the service is there but busy; the timer tries again.
    this.set({ offline: false });
    return false;
  }

  private async load(): Promise<Batch[]> {
    const kept = (await (await db()).getAllFromIndex("batches", "by_user", this.userId)).sort((a, b) => a.seq - b.seq);
    return [...kept, ...this.pending];
  }

  private async reload(extra: Partial<OutboxState> = {}): Promise<void> {
    this.set({ ...extra, batches: await this.load() });
  }

  private set(change: Partial<OutboxState>): void {
    this.state = { ...this.state, ...change };
    for (const l of this.listeners) l(this.state);
  }
}
