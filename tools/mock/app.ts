// The mock partners build against (npm run mock): at the server's address, behind the server's own request
// checks, so that whatever the server refuses for its shape the mock refuses with the same status, code and
// details; what passes is answered by Prism from the spec's examples, shaped to follow the request (follow.ts).
import { Router, type Request } from "express";
import type { Logger } from "pino";
import { BASE_PATH } from "../../server/app.ts";
import { keyOrigins, preflight, readableRefusals } from "../../server/http/cors.ts";
import { errorHandler, notFoundHandler } from "../../server/http/errors.ts";
import { matchedOperation, type Res } from "../../server/http/express.ts";
import { requestStages } from "../../server/http/pipeline.ts";
import { expressBase } from "../../server/http/express-base.ts";
import { addSpecRoutes } from "../../server/http/spec-routes.ts";
import { mockAuthenticate } from "./auth.ts";
import { exampleFor, follow } from "./follow.ts";
import { preferences, prismMocker, type Mocker } from "./prism.ts";

export interface MockOptions {
  logger: Logger;
  /** Called with one line a request when answered: what a partner's code sent and what it got. */
  print?: (line: string) => void;
}

export async function createMockApp({ logger, print }: MockOptions) {
  const mocker = await prismMocker();
  // The server's own base (its settings, its JSON answers, its request log); CORS headers only for a publishable
  // key's page, below.
  const app = expressBase(logger);
  if (print) {
    app.use((req, res, next) => {
      res.once("finish", () => print(`${req.method} ${req.originalUrl} -> ${res.statusCode}`));
      next();
    });
  }
  app.get("/healthz", (_req, res) => void res.json({ status: "ok" }));
  app.get(
    "/",
    (_req, res) =>
      void res.json({
        service: "Logistics API mock: every operation answered from the spec's examples; nothing is stored",
        api: BASE_PATH,
        spec: `${BASE_PATH}/openapi.yaml`,
        health: "/healthz",
      }),
  );
  addSpecRoutes(app, BASE_PATH);
  const { route, checks } = requestStages();
  // A publishable key's page as on the server: its preflight (any origin), its refusals readable, and its CORS
  // headers; every other caller gets none.
  app.use(
    BASE_PATH,
    Router().use(preflight(), ...route, readableRefusals(), mockAuthenticate(), keyOrigins, ...checks, answer(mocker)),
  );
  app.use(notFoundHandler(BASE_PATH));
  app.use(errorHandler);
  return app;
}

/** The last step, where the server dispatches to its handler: Prism's example for the matched operation. */
function answer(mocker: Mocker) {
  return async (req: Request, res: Res) => {
    const operationId = matchedOperation(req)!.operationId!;
    const prefer = preferences(req.header("prefer"));
    const reply = await mocker({
      method: req.method,
      path: req.path,
      body: req.body,
      code: prefer.code,
      example: prefer.example ?? exampleFor(operationId, req.query, prefer.code),
    });
    const body = follow(operationId, req, reply.body, res.locals.requestId);
    for (const [name, value] of Object.entries(reply.headers)) {
      if (name.toLowerCase() !== "content-type") res.setHeader(name, value);
    }
    // res.json passes the response validator of requestStages(): an answer that breaks the spec is a 500. A page
    // the spec declares as HTML (a receiving label) is sent as the server sends it, as text.
    const html = Object.entries(reply.headers).some(
      ([name, value]) => name.toLowerCase() === "content-type" && String(value).startsWith("text/html"),
    );
    if (html && typeof body === "string") res.status(reply.status).type("html").send(body);
    else if (body === undefined) res.status(reply.status).end();
    else res.status(reply.status).json(body);
  };
}
