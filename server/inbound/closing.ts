// Closing reconciliation: a shipment closes (`processed`) only when every line got what was announced.
import type { Principal } from "../accounts/domain.ts";
import { newId } from "../shared/ids.ts";
import { arrivedByProduct, moveTo, resolveProblems, type ShipmentChange } from "./shipment.ts";
import type { NewProblem, Shipment } from "./db.ts";

type Mismatch = Pick<NewProblem, "type" | "merchants_id" | "description">;

/** What differs between the announcement and the arrivals, line by line. */
function mismatches(s: Shipment): Mismatch[] {
  const arrived = arrivedByProduct(s);
  return s.lines.flatMap((l) => {
    const got = arrived.get(l.product_id) ?? 0;
    if (got === l.qty) return [];
    const short = got < l.qty;
    return [
      {
        merchants_id: l.merchants_id,
        type: short ? ("product.missing" as const) : ("product.extra" as const),
        description: short
          ? `${l.qty - got} of ${l.qty} items of ${l.merchants_id} did not arrive.`
          : `${got - l.qty} more items of ${l.merchants_id} arrived than announced (${l.qty}).`,
      },
    ];
  });
}

/** `product.missing` / `product.extra` for every line whose arrivals differ from the announcement. */
export function mismatchProblems(s: Shipment, now: Date): NewProblem[] {
  return mismatches(s).map((m) => ({ id: newId(now.getTime()), shipment_id: s.row.id, created_at: now, ...m }));
}

/**
 * A shipment the warehouse tried to close waits in `problem` for matching quantities. When a
 * modification or an arrival makes every line match, its quantity problems resolve and, if no other
 * problem is open, it closes by itself.
 */
export function reconcileClosing(c: ShipmentChange, actor: Principal): void {
  const s = c.s;
  if (s.row.status !== "problem" || !s.row.closing) return;
  const stillWrong = new Set(mismatches(s).map((p) => `${p.type}:${p.merchants_id}`));
  const open = s.problems.filter((p) => !p.resolved);
  const settled = open.filter(
    (p) =>
      (p.type === "product.missing" || p.type === "product.extra") && !stillWrong.has(`${p.type}:${p.merchants_id}`),
  );
  const closes = stillWrong.size === 0 && open.length === settled.length;
  if (settled.length === 0 && !closes) return;
  resolveProblems(
    c,
    settled.map((p) => p.id),
  );
  if (closes) moveTo(c, "processed", actor, { closing: false });
}
