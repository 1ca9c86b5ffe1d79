import { readFileSync } from "node:fs";
import { Router } from "express";
import { parse } from "yaml";

interface SpecDoc {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>;
}

const METHODS = ["get", "post", "put", "delete", "patch"];
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** The contract itself, public like the docs: what a merchant needs before it has credentials. */
export function specRoutes(specPath: string, basePath: string): Router {
  const yamlText = readFileSync(specPath, "utf8");
  const doc = parse(yamlText) as SpecDoc;
  const json = JSON.stringify(doc);
  const r = Router();
  r.get(`${basePath}/openapi.yaml`, (_req, res) => void res.type("application/yaml").send(yamlText));
  r.get(`${basePath}/openapi.json`, (_req, res) => void res.type("application/json").send(json));
  r.get("/docs", (_req, res) => {
    const rows = Object.entries(doc.paths).flatMap(([p, item]) =>
      METHODS.filter((m) => item[m]).map((m) => {
        const op = item[m]!;
        return `<tr><td>${esc(op.tags?.[0] ?? "")}</td><td><code>${m.toUpperCase()} ${esc(basePath + p)}</code></td><td>${esc(op.summary ?? "")}</td><td><code>${esc(op.operationId ?? "")}</code></td></tr>`;
      }),
    );
    res.type("html").send(`<!doctype html><html><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}td{padding:.2rem .6rem;border-bottom:1px solid #ddd}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>The contract: <a href="${basePath}/openapi.yaml">openapi.yaml</a> (<a href="${basePath}/openapi.json">JSON</a>).</p>
<pre style="white-space:pre-wrap">${esc(doc.info.description ?? "")}</pre>
<table><tr><th>Tag</th><th>Operation</th><th>Summary</th><th>operationId</th></tr>${rows.join("\n")}</table></body></html>`);
  });
  return r;
}
