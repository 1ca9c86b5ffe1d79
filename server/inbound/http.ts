import { Router, type Request } from "express";
import type { Db } from "../db/database.ts";
import type { Outcome } from "../shared/idempotency.ts";
import { pathId, principalOf, type QueryOf, type RequestBody, type Res } from "../http/types.ts";
import * as inbound from "./domain.ts";

const idempotencyKey = (req: Request) => req.header("idempotency-key");

function sendOutcome(res: Res, outcome: Outcome<unknown>): void {
  if (outcome.replayed) {
    // Exactly the bytes of the first answer, which passed response validation when it was sent.
    res.setHeader("Idempotent-Replayed", "true");
    res.status(outcome.status).type("application/json").send(outcome.bodyJson);
  } else {
    res.status(outcome.status).json(outcome.body);
  }
}

/** Roles are enforced by the validator from the spec's security requirements; bodies are validated. */
export function inboundRoutes(db: Db): Router {
  const r = Router();

  r.post("/inbound_shipments/_create", async (req, res: Res) => {
    const body = req.body as RequestBody<"createInboundShipment">;
    sendOutcome(res, await inbound.createShipment(db, principalOf(res), body, idempotencyKey(req)));
  });

  r.get("/inbound_shipments", async (req, res: Res) => {
    const query = req.query as QueryOf<"listInboundShipments">;
    res.json(await inbound.listShipments(db, principalOf(res), query));
  });

  r.get("/inbound_shipments/:shipment_id", async (req, res: Res) => {
    res.json(await inbound.getShipment(db, principalOf(res), pathId(req, "shipment_id")));
  });

  r.post("/inbound_shipments/:shipment_id", async (req, res: Res) => {
    const body = req.body as RequestBody<"modifyInboundShipment">;
    res.json(await inbound.modifyShipment(db, principalOf(res), pathId(req, "shipment_id"), body));
  });

  const remove = async (req: Request, res: Res) => {
    res.json(await inbound.deleteShipment(db, principalOf(res), pathId(req, "shipment_id")));
  };
  r.delete("/inbound_shipments/:shipment_id", remove);
  r.post("/inbound_shipments/:shipment_id/_delete", remove);

  r.post("/inbound_shipments/:shipment_id/_confirm", async (req, res: Res) => {
    res.json(await inbound.confirmShipment(db, principalOf(res), pathId(req, "shipment_id")));
  });

  r.post("/inbound_shipments/:shipment_id/arrivals", async (req, res: Res) => {
    const body = req.body as RequestBody<"recordInboundArrivals">;
    sendOutcome(res, await inbound.recordArrivals(db, principalOf(res), pathId(req, "shipment_id"), body, idempotencyKey(req)));
  });

  r.post("/inbound_shipments/:shipment_id/_status", async (req, res: Res) => {
    const body = req.body as RequestBody<"changeInboundShipmentStatus">;
    res.json(await inbound.changeStatus(db, principalOf(res), pathId(req, "shipment_id"), body));
  });

  return r;
}
