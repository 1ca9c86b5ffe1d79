// The merchant portal's files (built by `npm run build` into dist/portal), served at /portal on the API's own
// origin with a strict Content-Security-Policy: no inline script, nothing from another origin, no framing. The
// receiving station for warehouse staff is a second page of the same build (station.html), at /station.
import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";
import { fromRoot } from "../shared/paths.ts";

// style-src: Pico's stylesheet is a file; React sets style properties through the CSSOM, which CSP allows.
// img-src data: Pico draws its checkbox and select icons as data: SVGs.
export const PORTAL_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

const SECURITY_HEADERS = {
  "Content-Security-Policy": PORTAL_CSP,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

export function portalSite(dir = fromRoot("dist/portal")): Router {
  const r = Router();
  r.use("/portal", (req, res, next) => {
    res.set(SECURITY_HEADERS);
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // Relative asset URLs need the trailing slash.
    if (req.originalUrl === "/portal") return res.redirect(301, "/portal/");
    if (!existsSync(dir)) {
      return res.status(503).type("text/plain").send("The portal is not built: run `npm run build` (npm start does).");
    }
    next();
  });
  // The station's page, under the same headers; its scripts and styles are the portal's files under /portal/assets.
  r.get("/station", (_req, res) => {
    res.set(SECURITY_HEADERS);
    const page = path.join(dir, "station.html");
    if (!existsSync(page)) {
      return void res
        .status(503)
        .type("text/plain")
        .send("The station is not built: run `npm run build` (npm start does).");
    }
    res.setHeader("Cache-Control", "no-cache");
    // Relative to its folder: the dotfile rule then reads only "station.html" (the tests' build is under .tmp/).
    res.sendFile("station.html", { root: dir });
  });
  r.use(
    "/portal",
    express.static(dir, {
      index: "index.html",
      redirect: false,
      setHeaders: (res, file) => {
        // Bundles carry their content hash in the name; the page itself must be asked for again.
        res.setHeader("Cache-Control", file.endsWith(".html") ? "no-cache" : "public, max-age=31536000, immutable");
      },
    }),
  );
  return r;
}
