// The JSON text of a shipping options answer, made from each pickup point's own fields written once per point of the
// directory instead of by JSON.stringify of the whole answer at every request: a point's fields are most of an
// answer's ~5 KB, its numbers (coordinates) the slowest part to write, and they never change while the directory's
// cached points are in use. The same bytes as JSON.stringify of the answer (shared/answer-texts.ts compares them
// outside production; test/unit/shipping-answer-text.test.ts). bench/levers.md section 34.
import type { ShippingOptionsResult } from "../../generated/api.ts";
import { pointFields, type PickupPoint } from "./methods.ts";

/** A point's own fields as its answer's member: `"<id>":{"id":...,"kind":"..."` (no closing brace), by point object. */
const ownTexts = new WeakMap<PickupPoint, string>();

function ownText(point: PickupPoint): string {
  let text = ownTexts.get(point);
  if (text === undefined) {
    const own = JSON.stringify(pointFields(point));
    text = `${JSON.stringify(point.id)}:${own.slice(0, -1)}`;
    ownTexts.set(point, text);
  }
  return text;
}

/**
 * The text of `body`, an answer of GET /shipping_options without explanation or distances, whose pickup points were
 * built from `directory` (buildShippingOptions: in its order, each point's fields as pointFields gives them, then its
 * `price`, then its `delivery_estimate` when it has one). Undefined for any other shape: JSON.stringify sends it.
 */
export function shippingOptionsText(
  body: ShippingOptionsResult,
  directory: readonly PickupPoint[],
): string | undefined {
  const { facts, options } = body;
  if (body.order_id !== undefined || body.explanation !== undefined) return undefined;
  const { letter, home, pickup } = options;
  // Joined once at the end: a flat string, where `+=` would make a rope that is flattened again on its way out.
  const parts = [
    '{"facts":',
    JSON.stringify(facts),
    ',"options":{"letter":',
    JSON.stringify(letter),
    ',"home":',
    JSON.stringify(home),
    ',"pickup":',
  ];
  if (!pickup.available) parts.push(JSON.stringify(pickup));
  else {
    parts.push('{"available":true,"pickup_points":{');
    let at = 0;
    let lastPrice: unknown;
    let priceText = "";
    for (const id in pickup.pickup_points) {
      // The answer's points come in the directory's order (nearest first, some left out): find this one's source.
      while (at < directory.length && directory[at]!.id !== id) at++;
      const source = directory[at];
      if (!source) return undefined;
      const point = pickup.pickup_points[id]!;
      // Points of one branch share one price object (buildShippingOptions).
      if (point.price !== lastPrice) {
        lastPrice = point.price;
        priceText = `,"price":${JSON.stringify(point.price)}`;
      }
      if (parts.length > 8) parts.push(",");
      parts.push(ownText(source), priceText);
      if (point.delivery_estimate !== undefined)
        parts.push(',"delivery_estimate":', JSON.stringify(point.delivery_estimate));
      parts.push("}");
    }
    parts.push("}}");
  }
  parts.push("}}");
  return parts.join("");
}
