// The value rules of lines of products that several operations share (inbound shipments, arrivals, orders): what the
// schema cannot say, read loosely (loose.ts) as every value rule is, since they also run when the schema check failed.
import type { ErrorDetail } from "./errors.ts";
import { isValidGtin } from "./gtin.ts";
import { fieldOf, isNumber, itemsOf } from "./loose.ts";
import { hasAtMostTwoDecimals } from "./money.ts";

// The shape the schema allows (common.yaml Gtin): a rule judges only values of that shape.
const GTIN_SHAPE = /^(\d{8}|\d{12,14})$/;

/** Lines of products (an inbound shipment's, its arrivals, an order's): each merchants_id once, GTIN check digits, the
 * price (`priceField`) in cents. */
export function lineProblems(lines: unknown, pointer: string, priceField = "purchasePrice"): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  itemsOf(lines).forEach((l, i) => {
    const merchantsId = fieldOf(l, "merchants_id");
    if (typeof merchantsId === "string") {
      if (seen.has(merchantsId)) {
        details.push({
          path: `${pointer}/${i}/merchants_id`,
          message: `merchants_id ${merchantsId} appears more than once`,
          code: "duplicate",
        });
      }
      seen.add(merchantsId);
    }
    const gtin = fieldOf(l, "gtin");
    if (typeof gtin === "string" && GTIN_SHAPE.test(gtin) && !isValidGtin(gtin)) {
      details.push({ path: `${pointer}/${i}/gtin`, message: "GTIN check digit is wrong", code: "gtin" });
    }
    const price = fieldOf(l, priceField);
    if (isNumber(price) && !hasAtMostTwoDecimals(price)) {
      details.push({ path: `${pointer}/${i}/${priceField}`, message: "at most two decimals", code: "multipleOf" });
    }
  });
  return details;
}
