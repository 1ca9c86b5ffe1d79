// Inbound shipment operations, keyed by operationId. Roles and bodies were checked by the validator
// from the spec; the handler opens the transaction and the domain does the rest.
import type { Handlers, ValueRules } from "../operations.ts";
import * as announcements from "./announcements.ts";
import * as checks from "./input-checks.ts";
import * as queries from "./queries.ts";
import * as warehouse from "./warehouse.ts";
import * as warehouseView from "./warehouse-view.ts";
import { renderLabel } from "./label.ts";

export const inboundHandlers = {
  createInboundShipment: (c) =>
    c.idempotentAtomic(async (db) => ({
      status: 201,
      body: await announcements.createShipment(db, c.principal, c.body),
    })),
  listInboundShipments: async (c) => ({ status: 200, body: await queries.listShipments(c.db, c.principal, c.query) }),
  getInboundShipment: async (c) => ({
    status: 200,
    body: await queries.getShipment(c.db, c.principal, c.path.shipment_id),
  }),
  getInboundStatusHistory: async (c) => ({
    status: 200,
    body: await queries.getStatusHistory(c.db, c.principal, c.path.shipment_id),
  }),
  modifyInboundShipment: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => announcements.modifyShipment(trx, c.principal, c.path.shipment_id, c.body)),
  }),
  deleteInboundShipment: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => announcements.deleteShipment(trx, c.principal, c.path.shipment_id)),
  }),
  deleteInboundShipmentByPost: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => announcements.deleteShipment(trx, c.principal, c.path.shipment_id)),
  }),
  confirmInboundShipment: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => announcements.confirmShipment(trx, c.principal, c.path.shipment_id)),
  }),
  recordInboundArrivals: (c) =>
    c.idempotent(async (trx) => ({
      status: 200,
      body: await warehouse.recordArrivals(trx, c.principal, c.path.shipment_id, c.body),
    })),
  listWarehouseInboundShipments: async (c) => ({
    status: 200,
    body: await warehouseView.listForWarehouse(c.db, c.query),
  }),
  lookupWarehouseInboundShipment: async (c) => ({
    status: 200,
    body: await warehouseView.lookUp(c.db, c.principal, c.query.code),
  }),
  getInboundShipmentLabel: async (c) => ({
    status: 200,
    ...(await renderLabel(await queries.getShipment(c.db, c.principal, c.path.shipment_id), c.principal.id, c.query)),
  }),
  changeInboundShipmentStatus: async (c) => ({
    status: 200,
    body: await c.transaction((trx) => warehouse.changeStatus(trx, c.principal, c.path.shipment_id, c.body)),
  }),
} satisfies Handlers;

/** The value rules of inbound shipment operations, keyed by operationId (run by the request validator). */
export const inboundValueRules = {
  createInboundShipment: ({ body }) => checks.createProblems(body),
  modifyInboundShipment: ({ body }) => checks.modifyProblems(body),
  recordInboundArrivals: ({ body }) => checks.arrivalsProblems(body),
  changeInboundShipmentStatus: ({ body }) => checks.statusChangeProblems(body),
  listWarehouseInboundShipments: ({ query }) => checks.warehouseListProblems(query),
} satisfies ValueRules;
