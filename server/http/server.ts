// The app's HTTP server. Its requests and responses are made with the app's prototypes from the start: Express
// otherwise sets them on each request (Object.setPrototypeOf in app.handle), after which the first property
// stores on both objects were the costliest lines of an API request (bench/levers.md section 22).
import http from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";
import { CHECK_INTERVAL_MS, CONNECTION_LIMITS, limitConnections, type ConnectionLimits } from "./connection-limits.ts";
import { connectionTurns } from "./connection-turns.ts";
import { entryOf } from "./api-entry.ts";

export function createHttpServer(app: Express, limits: ConnectionLimits = CONNECTION_LIMITS): http.Server {
  // node's own constructors, called on objects whose prototype is the app's (Express's request and response,
  // whose prototypes are node's): what Express's setPrototypeOf makes of them, but once per object's making.
  function AppRequest(this: http.IncomingMessage, socket: Socket) {
    Reflect.apply(http.IncomingMessage, this, [socket]);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    Reflect.apply(http.ServerResponse, this, [req, options]);
  }
  AppResponse.prototype = app.response;
  const server = http.createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
      connectionsCheckingInterval: CHECK_INTERVAL_MS,
    },
    // A pipelining connection's requests take their turns (connection-turns.ts).
    // The API's requests go straight to its pipeline (api-entry.ts), the rest to the app.
    connectionTurns<http.IncomingMessage, http.ServerResponse>(entryOf(app)),
  );
  // Connection caps and time limits (connection-limits.ts); a proxy TRUST_PROXY names is not capped per address.
  const trusts = app.get("trust proxy fn") as ((address: string, hop: number) => boolean) | undefined;
  limitConnections(server, limits, (address) => trusts?.(address, 0) ?? false);
  return server;
}
