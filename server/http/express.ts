// Express typing shared by the http layer.
import type { Request, Response } from "express";
import type { Logger } from "pino";
import type { Principal } from "../accounts/domain.ts";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express declares Locals in its global namespace
  namespace Express {
    interface Locals {
      /** Set by authenticate() for every request under the base path. */
      principal: Principal;
      requestId: string;
      /** Charges bytes of a body of undeclared length as they arrive; throws the refusal when over budget. */
      meterBody?: (bytes: number) => Promise<void>;
      /** This request was counted against its client address's limit (address-limits.ts). */
      addressCharged?: boolean;
      /** This refusal has been through the pace already (refusal-pace.ts), inside the API or outside it. */
      refusalPaced?: boolean;
      /** The app's logger, for failures worth an operator's attention. */
      log?: Logger;
    }
  }
}

export type Res = Response;

interface Matched {
  schema?: { operationId?: string; requestBody?: unknown };
  /** The spec's path template, under the base path ("/2015-01-01/inbound_shipments/{shipment_id}"). */
  openApiRoute?: string;
  pathParams?: Record<string, string>;
}

/** The spec operation the validator matched this request to, if any. */
export function matchedOperation(req: Request): Matched["schema"] {
  return (req as Request & { openapi?: Matched }).openapi?.schema;
}

/** The spec's path template of the matched operation, if any. */
export function matchedRoute(req: Request): string | undefined {
  return (req as Request & { openapi?: Matched }).openapi?.openApiRoute;
}

/** The path parameters of the matched operation, as the validator checked them. */
export function pathParams(req: Request): Record<string, string> {
  return (req as Request & { openapi?: Matched }).openapi?.pathParams ?? {};
}
