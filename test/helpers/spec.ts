// The spec's operations as data, for tests that must hold for every operation.
import { readFileSync } from "node:fs";
import { IMPLEMENTED } from "../../server/handlers.ts";

export interface SpecOp {
  operationId: string;
  method: string;
  path: string;
  /** Roles allowed by the operation's basicAuth requirement (`merchant`, `warehouse`). */
  roles: string[];
  /** The security schemes that may authenticate it (`basicAuth`, `cookieAuth`, `stationCookieAuth`); none: open to everyone. */
  schemes: string[];
  /** Warehouse users' roles allowed with a station session (`receiver`, `supervisor`). */
  stationRoles: string[];
  hasBody: boolean;
  /** The request body example of the spec, if it has one. */
  bodyExample?: unknown;
  /** Required query parameters. */
  requiredQuery: string[];
  /** The statuses the spec declares. */
  statuses: string[];
}

type RawOp = {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { $ref?: string; name?: string; in?: string; required?: boolean }[];
  requestBody?: {
    content?: { "application/json"?: { example?: unknown; examples?: Record<string, { value: unknown }> } };
  };
  responses: Record<string, unknown>;
};

export const spec = JSON.parse(readFileSync("generated/openapi.json", "utf8"));
const HTTP_METHODS = ["get", "put", "post", "delete", "patch"];

function resolveParam(p: NonNullable<RawOp["parameters"]>[number]) {
  if (!p.$ref) return p;
  return spec.components.parameters[p.$ref.split("/").pop()!] as typeof p;
}

export const specOps: SpecOp[] = Object.entries(spec.paths as Record<string, Record<string, RawOp>>).flatMap(
  ([path, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => {
      const op = item[m]!;
      const media = op.requestBody?.content?.["application/json"];
      const params = [
        ...((item as { parameters?: RawOp["parameters"] }).parameters ?? []),
        ...(op.parameters ?? []),
      ].map(resolveParam);
      return {
        operationId: op.operationId,
        method: m.toUpperCase(),
        path,
        roles: (op.security ?? spec.security).flatMap((r: { basicAuth?: string[] }) => r.basicAuth ?? []),
        stationRoles: (op.security ?? spec.security).flatMap(
          (r: { stationCookieAuth?: string[] }) => r.stationCookieAuth ?? [],
        ),
        schemes: [
          ...new Set((op.security ?? spec.security).flatMap((r: Record<string, string[]>) => Object.keys(r))),
        ] as string[],
        hasBody: Boolean(op.requestBody),
        bodyExample: media?.example ?? Object.values(media?.examples ?? {})[0]?.value,
        requiredQuery: params.filter((p) => p.in === "query" && p.required).map((p) => p.name!),
        statuses: Object.keys(op.responses),
      };
    }),
);

/** The operations the server implements: the registry's keys. */
export const implemented = IMPLEMENTED;

/** A concrete URL path for the operation, with a well-formed id in every path parameter. */
export const concretePath = (op: SpecOp, id = "0123456789abcdef01234567") => op.path.replace(/\{[^}]+\}/g, id);
