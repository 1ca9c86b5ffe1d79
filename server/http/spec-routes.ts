import type { Express } from "express";
import { specDocument, specYaml } from "../shared/spec-document.ts";

/**
 * The contract itself, public like the docs: what a merchant needs before it has credentials. Routes of the app
 * itself, not a Router mounted at "/": every API request passes them, and a route that does not match costs one
 * path test where a Router is entered and left. Returns their paths (the API's entry leaves them to the app).
 */
export function addSpecRoutes(app: Express, basePath: string): string[] {
  const json = JSON.stringify(specDocument());
  const paths = [`${basePath}/openapi.yaml`, `${basePath}/openapi.json`];
  app.get(paths[0]!, (_req, res) => void res.type("application/yaml").send(specYaml()));
  app.get(paths[1]!, (_req, res) => void res.type("application/json").send(json));
  return paths;
}
