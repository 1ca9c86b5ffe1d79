// The merchant client package for download, so that `npm install http://<server>/client/<file>` works for anyone
// who can reach the server. `npm run build` (which `npm start` runs) packs it into dist/client
// (tools/client-pack.mjs); the server only serves that file and needs none of the repository's tools to do so.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Router } from "express";
import { AppError } from "../shared/errors.ts";
import { fromRoot } from "../shared/paths.ts";
import { escapeHtml, htmlOrJson, linksPage } from "./home.ts";

export interface ClientPackage {
  name: string;
  version: string;
  /** npm's name for the tarball (@scope/name -> scope-name-version.tgz), as tools/client-pack.mjs writes it. */
  file: string;
  /** Where this server offers it. */
  path: string;
}

export function clientPackage(): ClientPackage {
  const { name, version } = JSON.parse(readFileSync(fromRoot("client/package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  const file = `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
  return { name, version, file, path: `/client/${file}` };
}

interface Loaded {
  mtimeMs: number;
  bytes: Buffer;
  etag: string;
}

export function clientPackageRoutes(dir = fromRoot("dist/client")): Router {
  const pkg = clientPackage();
  let loaded: Loaded | undefined;
  // Read again only when a build replaced the file (the same version may be rebuilt during development).
  const load = (): Loaded | undefined => {
    const file = path.join(dir, pkg.file);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return undefined;
    }
    if (loaded?.mtimeMs !== mtimeMs) {
      const bytes = readFileSync(file);
      loaded = { mtimeMs, bytes, etag: `"${createHash("sha256").update(bytes).digest("base64url")}"` };
    }
    return loaded;
  };

  const r = Router();
  // What the README points to: the package this server offers now, with the command that installs it.
  r.get(["/client", "/client/"], (req, res) => {
    const origin = `${req.protocol}://${req.get("host") ?? "localhost"}`;
    const install = `npm install ${origin}${pkg.path}`;
    htmlOrJson(
      req,
      res,
      () =>
        linksPage(
          `${pkg.name} ${pkg.version}`,
          `The client package for this server. Install it in your project with <code>${escapeHtml(install)}</code>`,
          [[pkg.path, pkg.file, "The package file itself."], ["/docs/guide", "Guide", "How to call the API with it."]],
        ),
      { name: pkg.name, version: pkg.version, path: pkg.path, install },
    );
  });
  r.get("/client/:file", (req, res) => {
    if (req.params.file !== pkg.file)
      throw new AppError(
        "not_found",
        `No client package ${req.params.file} here. This server offers ${pkg.name} ${pkg.version} at ${pkg.path}`,
      );
    const tarball = load();
    if (!tarball)
      throw new AppError(
        "unavailable",
        "The client package is not built on this server: its operator runs `npm run build` (npm start does).",
      );
    // The URL names the version, but a version's bytes may change between builds of one server: caches keep
    // it and ask again each time (a 304 is a few bytes); the ETag is the content's hash.
    res.set({
      "Cache-Control": "public, no-cache",
      ETag: tarball.etag,
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="${pkg.file}"`,
      "X-Content-Type-Options": "nosniff",
    });
    if (req.fresh) return void res.status(304).end();
    res.send(tarball.bytes);
  });
  return r;
}
