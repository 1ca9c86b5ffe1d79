// Human docs: the spec rendered by Redoc, and the guide (docs/guide.md), all served from the service's own
// files. The Content-Security-Policy allows nothing from another origin, so the pages work offline and a
// stray external request fails loudly in the browser test.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Router, type Request, type Response } from "express";
import { marked } from "marked";
import { fromRoot } from "../shared/paths.ts";
import { clientPackage } from "./client-package.ts";

const REDOC_BUNDLE = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
// The only thing the bundle loads from elsewhere: the logo beside "API docs by Redocly". Ours instead.
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" width="16" height="16"><rect width="16" height="16" rx="3" fill="#1f2d3d"/><path d="M4 11V5h4.5a2 2 0 0 1 0 4H6l4 2" stroke="#fff" stroke-width="1.5" fill="none"/></svg>`;
// Redoc styles with inline <style> (styled-components) and runs its search index in a blob: worker.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; worker-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const NAV_STYLE = `
  .nav{position:sticky;top:0;z-index:10;display:flex;gap:1.5rem;align-items:center;padding:.6rem 1.2rem;background:#1f2d3d;color:#fff;font:15px/1.4 system-ui,sans-serif}
  .nav a{color:#fff;text-decoration:none}.nav a[aria-current=page]{font-weight:700;text-decoration:underline}
  .nav .title{font-weight:700;margin-right:auto}`;

// The guide's examples are written for `npm start`'s default address; served, they name the address they were
// read from (a sentinel survives Markdown untouched and is replaced per request).
const GUIDE_ORIGIN = "http://127.0.0.1:3000";
const ORIGIN_SENTINEL = "ORIGIN-OF-THIS-SERVER";
// The guide names the client's tarball without its version; served, with this server's version.
const GUIDE_CLIENT_FILE = "logistics-api-client-<version>.tgz";

function nav(basePath: string, clientPath: string, current: "reference" | "guide"): string {
  const link = (href: string, label: string, page: string) => `<a href="${href}"${page === current ? ' aria-current="page"' : ""}>${label}</a>`;
  return `<nav class="nav" aria-label="Documentation"><span class="title">Logistics API</span>${link("/docs", "API reference", "reference")}${link("/docs/guide", "Guide", "guide")}<a href="${basePath}/openapi.yaml">openapi.yaml</a><a href="${clientPath}" download>Client package</a></nav>`;
}

/** The origin the page was asked for: the Host header (X-Forwarded-Host behind a trusted proxy), else the socket's. */
function originOf(req: Request): string {
  const host = req.host;
  if (host && /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host)) return `${req.protocol}://${host}`;
  const { localAddress = "127.0.0.1", localPort } = req.socket;
  return `${req.protocol}://${localAddress.includes(":") ? `[${localAddress}]` : localAddress}:${localPort}`;
}

function send(res: Response, html: string): void {
  res.set("Content-Security-Policy", CSP).set("Cache-Control", "no-cache").type("html").send(html);
}

export function docsRoutes(basePath: string): Router {
  // Read on the first page view, not at start: most instances never serve the docs.
  let bundle: string | undefined;
  let guideHtml: string | undefined;
  const client = clientPackage();
  const r = Router();
  r.get("/docs/assets/redoc.standalone.js", (_req, res) => {
    bundle ??= readFileSync(REDOC_BUNDLE, "utf8").replaceAll(REDOC_LOGO_URL, "/docs/assets/logo-mini.svg");
    res.set("Cache-Control", "public, max-age=86400").type("text/javascript").send(bundle);
  });
  r.get("/docs/assets/logo-mini.svg", (_req, res) => {
    res.set("Cache-Control", "public, max-age=86400").type("image/svg+xml").send(LOGO_SVG);
  });
  r.get("/docs", (_req, res) => {
    send(res, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Logistics API reference</title><style>body{margin:0}${NAV_STYLE}</style></head>
<body>${nav(basePath, client.path, "reference")}
<redoc spec-url="${basePath}/openapi.json" expand-responses="200,201,202" json-sample-expand-level="4" path-in-middle-panel="true" scroll-y-offset="nav.nav" hide-hostname="false"></redoc>
<script src="/docs/assets/redoc.standalone.js"></script></body></html>`);
  });
  r.get("/docs/guide", (req, res) => {
    guideHtml ??= marked.parse(
      readFileSync(fromRoot("docs/guide.md"), "utf8")
        .replaceAll(GUIDE_ORIGIN, ORIGIN_SENTINEL)
        .replaceAll(GUIDE_CLIENT_FILE, client.file),
      { async: false },
    );
    res.vary("Host");
    send(res, `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Logistics API guide</title><style>body{margin:0}${NAV_STYLE}
  main{max-width:52rem;margin:0 auto;padding:1rem 1.5rem 4rem;font:16px/1.6 system-ui,sans-serif;color:#1f2d3d}
  h1,h2{line-height:1.25}h2{margin-top:2.2rem;border-bottom:1px solid #dde3ea;padding-bottom:.3rem}
  code{font:14px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f4f7;padding:.1rem .3rem;border-radius:3px}
  pre{background:#263238;color:#eef;padding:1rem;border-radius:6px;overflow:auto}pre code{background:none;color:inherit;padding:0}
  a{color:#2f6fbd}</style></head>
<body>${nav(basePath, client.path, "guide")}<main>${guideHtml.replaceAll(ORIGIN_SENTINEL, originOf(req))}</main></body></html>`);
  });
  return r;
}
