// English: the statuses and kinds of things the portal lists: inbound shipments, webhook deliveries, events, roles.
import type { Catalogue } from "../catalogue.ts";

type Statuses = Pick<
  Catalogue,
  | "statuses"
  | "actions"
  | "changedBy"
  | "problemTypes"
  | "deliveryStatuses"
  | "failureClasses"
  | "eventTypes"
  | "roles"
  | "yesNo"
  | "none"
>;

export const statuses: Statuses = {
  statuses: {
    initial: "Announced",
    confirmed: "Confirmed",
    en_route: "On the way",
    arrived_at_warehouse: "At the warehouse",
    processing: "Being received",
    problem: "Problem",
    processed: "Received",
    cancelled: "Cancelled by the warehouse",
    deleted: "Withdrawn",
  },
  actions: { modify: "Edit", confirm: "Confirm", delete: "Withdraw" },
  changedBy: { merchant: "by your shop", warehouse: "by the warehouse", service: "automatically" },
  problemTypes: {
    "product.missing": "Product missing",
    "product.not_ok": "Product not as expected",
    "product.extra": "Extra product",
    damaged: "Shipment damaged",
  },
  deliveryStatuses: { pending: "Waiting", succeeded: "Delivered", failed: "Failed" },
  failureClasses: {
    dns: "The server in the web address was not found: check the address.",
    refused: "Nothing answered at the address: is your receiving service running?",
    connection: "The connection broke off before an answer came.",
    tls: "The secure connection failed: check the server's HTTPS certificate.",
    timeout: "Your server did not answer in time.",
    destination_refused: "The address leads into a private network, where the service does not send.",
    redirect: "Your server answered with a redirect, which is not followed: use the final address.",
    http_4xx:
      "Your server refused the event (an error status in the 400s): check its settings, such as the sign-in details.",
    http_5xx: "Your server had an error (a status in the 500s): check its logs.",
    gone: "Your server said the endpoint is gone for good, so it was switched off.",
    invalid_response: "Your server's answer was not a valid web response.",
  },
  eventTypes: {
    "inbound_shipment.items_arrived": "Items arrived",
    "inbound_shipment.arrived_at_warehouse": "Shipment arrived at the warehouse",
    "inbound_shipment.processed": "Shipment received",
    "inbound_shipment.status_changed": "Shipment status changed",
    "webhook_endpoint.disabled": "Endpoint switched off",
    "webhook.test": "Test event",
  },
  roles: { admin: "Administrator", staff: "Staff" },
  yesNo: { yes: "Yes", no: "No" },
  none: "—",
};
