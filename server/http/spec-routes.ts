import { readFileSync } from "node:fs";
import { Router } from "express";
import { parse } from "yaml";

/** The contract itself, public like the docs: what a merchant needs before it has credentials. */
export function specRoutes(specPath: string, basePath: string): Router {
  const yamlText = readFileSync(specPath, "utf8");
  const json = JSON.stringify(parse(yamlText));
  const r = Router();
  r.get(`${basePath}/openapi.yaml`, (_req, res) => void res.type("application/yaml").send(yamlText));
  r.get(`${basePath}/openapi.json`, (_req, res) => void res.type("application/json").send(json));
  return r;
}
