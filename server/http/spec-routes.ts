import type { Express } from "express";
import { specDocument, specYaml } from "../shared/spec-document.ts";

/**
 * The contract itself, public like the docs: what a merchant needs before it has credentials. Routes of the app
 * itself, not a Router mounted at "/": every API request passes them, and a route that does not match costs one
 * path test where a Router is entered and left.
 */
export function addSpecRoutes(app: Express, basePath: string): void {
  const json = JSON.stringify(specDocument());
  app.get(`${basePath}/openapi.yaml`, (_req, res) => void res.type("application/yaml").send(specYaml()));
  app.get(`${basePath}/openapi.json`, (_req, res) => void res.type("application/json").send(json));
}
