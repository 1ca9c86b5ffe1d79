import { Router } from "express";
import { specDocument, specYaml } from "../shared/spec-document.ts";

/** The contract itself, public like the docs: what a merchant needs before it has credentials. */
export function specRoutes(basePath: string): Router {
  const json = JSON.stringify(specDocument());
  const r = Router();
  r.get(`${basePath}/openapi.yaml`, (_req, res) => void res.type("application/yaml").send(specYaml()));
  r.get(`${basePath}/openapi.json`, (_req, res) => void res.type("application/json").send(json));
  return r;
}
