// When a shipment's page reads it again by itself: a file of its own (no browser globals), so that the browser test
// moves the page's clock on by the same interval.
import type { InboundShipmentStatus } from "../../../../generated/api.ts";

/** How often an open shipment page reads its shipment again while arrivals can still come. */
export const LIVE_POLL_MS = 5_000;

/** Whether the warehouse can still record arrivals (the API takes them in every status before these). */
export const takesArrivals = (status: InboundShipmentStatus): boolean =>
  status !== "processed" && status !== "cancelled" && status !== "deleted";
