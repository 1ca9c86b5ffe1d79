// The server's address opened in a browser: a small page of where to go next, in plain words. Programs (Accept:
// application/json, */* or none) get the same links as JSON, as before.
import type { Request, Response } from "express";
import { BASE_PATH } from "../../generated/base-path.ts";

export interface HomeLinks {
  service: string;
  api: string;
  docs: string;
  spec: string;
  portal: string;
  station: string;
  picker: string;
  client: string;
  health: string;
}

export const homeLinks = (clientPath: string): HomeLinks => ({
  service: "Logistics API: inbound shipments, shipping options, pickup points, webhooks",
  api: BASE_PATH,
  docs: "/docs",
  spec: `${BASE_PATH}/openapi.yaml`,
  portal: "/portal/",
  station: "/station",
  picker: "/picker.js",
  client: clientPath,
  health: "/healthz",
});

/** Text made safe inside HTML. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A page of links; `items` are [address, what it is, who it is for]. */
export function linksPage(title: string, intro: string, items: [string, string, string][]): string {
  const rows = items
    .map(([href, what, who]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(what)}</a> <span>${escapeHtml(who)}</span></li>`)
    .join("\n      ");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)}</title>
    <style>
      body { font: 1rem/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1b1b1b; }
      li { margin: 0.75rem 0; } a { color: #0b57d0; font-weight: 600; } span { display: block; color: #444; }
      code { background: #f2f2f2; padding: 0.1rem 0.3rem; overflow-wrap: anywhere; }
    </style>
  </head>
  <body>
    <main>
    <h1>${escapeHtml(title)}</h1>
    <p>${intro}</p>
    <ul>
      ${rows}
    </ul>
    </main>
  </body>
</html>
`;
}

/** Sends `html` to a browser and `json` to anyone else, with the headers a page of ours needs. */
export function htmlOrJson(req: Request, res: Response, html: () => string, json: unknown): void {
  res.vary("Accept");
  if (req.accepts(["json", "html"]) !== "html") return void res.json(json);
  res.set({
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
  });
  res.send(html());
}

export function homePage(links: HomeLinks): string {
  return linksPage("Logistics API", "This server answers merchants' systems, their staff and the warehouse. Where to go:", [
    [links.docs, "API documentation", "For developers: every operation, with examples."],
    ["/docs/guide", "Guide", "For developers: the first day's steps, webhooks, errors and limits."],
    [links.portal, "Merchant portal", "For a shop's staff: shipments, prices, webhooks and users."],
    [links.station, "Receiving station", "For the warehouse's staff at the dock."],
    [links.spec, "OpenAPI description", "The contract, for tools that read it."],
    ["/client/", "Client package", "The TypeScript client for this server, to install with npm."],
    [links.health, "Health", "For operators: answers while the server runs."],
  ]);
}
