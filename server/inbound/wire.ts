import type { InboundProblem, InboundShipment } from "../../generated/api.ts";
import { formatTimestamp } from "../shared/time.ts";
import type { ArrivalRow, ProblemRow, Shipment } from "./db.ts";
import type { RecordedBy } from "./tables.ts";
import { actionState } from "./shipment.ts";
import { merchantActions } from "./states.ts";

/** Who recorded an arrival; rows of the release before 0017 were all recorded by W-... operators. */
export const recordedBy = (a: Pick<ArrivalRow, "operator_id" | "recorded_by">): RecordedBy =>
  a.recorded_by ?? { type: "warehouse", id: a.operator_id, name: a.operator_id };

/**
 * The retrieval shape of docs/SEED.md 2.1-2.3 plus our additive fields. arrivedQty and actions are derived, never
 * stored.
 */
export function toWire(s: Shipment): InboundShipment {
  return {
    id: s.row.id,
    merchants_ref: s.row.merchants_ref,
    sender_name: s.row.sender_name,
    status: s.row.status,
    products: s.lines.map((l) => {
      const arrivals = s.arrivals
        .filter((a) => a.product_id === l.product_id)
        .map((a) => ({ ts: formatTimestamp(a.ts), change: a.change, recorded_by: recordedBy(a) }));
      return {
        product: { id: l.product_id, merchants_id: l.merchants_id, name: l.name, gtin: l.gtin },
        qty: l.qty,
        arrivedQty: arrivals.reduce((sum, a) => sum + a.change, 0),
        arrivals,
        ...(l.purchase_price_cents !== null && { purchasePrice: l.purchase_price_cents / 100 }),
      };
    }),
    expected_at_wh: s.row.expected_at_wh,
    created_at: formatTimestamp(s.row.created_at),
    updated_at: formatTimestamp(s.row.updated_at),
    problems: s.problems.map(problemToWire),
    actions: merchantActions(actionState(s)),
  };
}

export const problemToWire = (p: ProblemRow): InboundProblem => ({
  id: p.id,
  type: p.type,
  merchants_id: p.merchants_id,
  description: p.description,
  resolved: p.resolved,
  created_at: formatTimestamp(p.created_at),
  resolved_at: p.resolved_at ? formatTimestamp(p.resolved_at) : null,
});
