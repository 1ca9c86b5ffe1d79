// Closing reconciliation: a shipment closes (`processed`) only when every line got what was announced.
import type { Principal } from "../accounts/domain.ts";
import type { Tx } from "../db/transaction.ts";
import { newId } from "../shared/ids.ts";
import * as q from "./db.ts";
import { recordMilestone } from "./events.ts";
import { arrivedByProduct, loadOne, setStatus } from "./shipment.ts";
import type { Shipment } from "./wire.ts";

/** `product.missing` / `product.extra` for every line whose arrivals differ from the announcement. */
export function mismatchProblems(s: Shipment, now: Date): Omit<q.ProblemRow, "resolved" | "resolved_at">[] {
  const arrived = arrivedByProduct(s);
  return s.lines.flatMap((l) => {
    const got = arrived.get(l.product_id) ?? 0;
    if (got === l.qty) return [];
    const short = got < l.qty;
    return [
      {
        id: newId(now.getTime()),
        shipment_id: s.row.id,
        merchants_id: l.merchants_id,
        created_at: now,
        type: short ? ("product.missing" as const) : ("product.extra" as const),
        description: short
          ? `${l.qty - got} of ${l.qty} items of ${l.merchants_id} did not arrive.`
          : `${got - l.qty} more items of ${l.merchants_id} arrived than announced (${l.qty}).`,
      },
    ];
  });
}

/**
 * A shipment the warehouse tried to close waits in `problem` for matching quantities. When a
 * modification or an arrival makes every line match, its quantity problems resolve and, if no other
 * problem is open, it closes by itself. Returns the shipment as it is now (the same object when
 * nothing changed).
 */
export async function reconcileClosing(trx: Tx, s: Shipment, actor: Principal, now: Date): Promise<Shipment> {
  if (s.row.status !== "problem" || !s.row.closing) return s;
  const stillWrong = new Set(mismatchProblems(s, now).map((p) => `${p.type}:${p.merchants_id}`));
  const open = s.problems.filter((p) => !p.resolved);
  const settled = open.filter(
    (p) =>
      (p.type === "product.missing" || p.type === "product.extra") && !stillWrong.has(`${p.type}:${p.merchants_id}`),
  );
  const closes = stillWrong.size === 0 && open.length === settled.length;
  if (settled.length === 0 && !closes) return s;
  await q.resolveProblems(
    trx,
    settled.map((p) => p.id),
    now,
  );
  const moved = closes ? await setStatus(trx, s, "processed", actor, now, { closing: false }) : s;
  const after = await loadOne(trx, moved.row);
  if (closes) await recordMilestone(trx, after, now);
  return after;
}
