// Input rules the schema cannot express: duplicates, GTIN check digits, cents, real calendar dates, and which
// fields go together. Each operation's rules are registered by operationId (inboundValueRules in http.ts) and run
// by the request validator with the schema check, so one 400 lists every problem. They also run when the schema
// check failed: each reads the body as unknown and judges only the parts of the right type, and never throws.
import type { ErrorDetail } from "../shared/errors.ts";
import { lineProblems } from "../shared/line-checks.ts";
import { fieldOf } from "../shared/loose.ts";
import { isCalendarDate } from "../shared/time.ts";
import { WAREHOUSE_MOVES } from "./states.ts";

// The shape the schema allows (common.yaml Date): a rule judges only values of that shape.
const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

export function dateProblems(value: unknown, pointer: string): ErrorDetail[] {
  return typeof value === "string" && DATE_SHAPE.test(value) && !isCalendarDate(value)
    ? [{ path: pointer, message: "must be a real calendar date (YYYY-MM-DD)", code: "format" }]
    : [];
}

/** createInboundShipment */
export function createProblems(body: unknown): ErrorDetail[] {
  return [
    ...lineProblems(fieldOf(body, "products"), "/body/products"),
    ...dateProblems(fieldOf(body, "expected_at_wh"), "/body/expected_at_wh"),
  ];
}

/** modifyInboundShipment */
export function modifyProblems(body: unknown): ErrorDetail[] {
  const products = fieldOf(body, "products");
  const productsAll = fieldOf(body, "products_all");
  return [
    ...(products !== undefined && productsAll !== undefined
      ? [
          {
            path: "/body/products_all",
            message: "send either products (merge) or products_all (replace), not both",
            code: "oneOf",
          },
        ]
      : []),
    ...lineProblems(products, "/body/products"),
    ...lineProblems(productsAll, "/body/products_all"),
    ...dateProblems(fieldOf(body, "expected_at_wh"), "/body/expected_at_wh"),
  ];
}

// An arrival's ts lies between this date and 5 minutes ahead of our clock (skew of the warehouse's clocks).
const EARLIEST_TS = Date.UTC(2000, 0, 1);
const FUTURE_SKEW_MS = 5 * 60_000;

/** recordInboundArrivals */
export function arrivalsProblems(body: unknown): ErrorDetail[] {
  const details = lineProblems(fieldOf(body, "arrivals"), "/body/arrivals");
  const ts = fieldOf(body, "ts");
  if (typeof ts !== "string") return details;
  const at = Date.parse(ts);
  // The schema's date-time allows what Date cannot read (a leap second: 23:59:60).
  if (!Number.isFinite(at))
    details.push({ path: "/body/ts", message: "is not a time this service can read", code: "format" });
  if (at > Date.now() + FUTURE_SKEW_MS)
    details.push({ path: "/body/ts", message: "must not be in the future", code: "future" });
  // Also catches years PostgreSQL cannot store (before year 1), which Date accepts.
  if (at < EARLIEST_TS)
    details.push({ path: "/body/ts", message: "must not be before 2000-01-01T00:00:00Z", code: "too_early" });
  return details;
}

/** changeInboundShipmentStatus: problems exactly when moving to `problem`. */
export function statusChangeProblems(body: unknown): ErrorDetail[] {
  const status = fieldOf(body, "status");
  if (typeof status !== "string" || !Object.hasOwn(WAREHOUSE_MOVES, status)) return [];
  const problems = fieldOf(body, "problems");
  if (status === "problem" && problems === undefined) {
    return [
      { path: "/body/problems", message: "at least one problem is required when moving to problem", code: "required" },
    ];
  }
  if (status !== "problem" && problems !== undefined) {
    return [
      { path: "/body/problems", message: "problems are only accepted when moving to problem", code: "not_allowed" },
    ];
  }
  return [];
}

/** listWarehouseInboundShipments: real dates, and a range that does not end before it starts. */
export function warehouseListProblems(query: Record<string, unknown>): ErrorDetail[] {
  const { expected_from: from, expected_to: to } = query;
  const details = [...dateProblems(from, "/query/expected_from"), ...dateProblems(to, "/query/expected_to")];
  if (details.length === 0 && typeof from === "string" && typeof to === "string" && to < from)
    details.push({ path: "/query/expected_to", message: "before expected_from", code: "range" });
  return details;
}
