// The checkout picker (client/picker/) as the script files a shop's page loads: picker.js, the one a page's
// <script src=".../picker.js"> names, and picker-map.js beside it, the map view (Leaflet and its style sheet), which
// picker.js imports only when a shopper opens the map (and only when the server has a map tile URL). esbuild bundles
// and minifies them into dist/picker/, or beside the picker.js given as the argument (the browser tests build their
// own). Plain JavaScript so that build.mjs imports it without a TypeScript loader.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// Browsers of the last few years: custom elements, shadow DOM, fetch, Intl, dynamic import.
const TARGET = ["es2020", "chrome100", "firefox100", "safari15"];
const LEAFLET_CSS = "node_modules/leaflet/dist/leaflet.css";

export async function buildPicker(outfile = "dist/picker/picker.js") {
  const picker = await build({
    absWorkingDir: root,
    entryPoints: ["client/picker/element.ts"],
    outfile,
    bundle: true,
    minify: true,
    format: "iife",
    target: TARGET,
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
  });
  const map = await build({
    absWorkingDir: root,
    entryPoints: ["client/picker/map.ts"],
    outfile: path.join(path.dirname(outfile), "picker-map.js"),
    bundle: true,
    minify: true,
    // An ES module: picker.js loads it with import(), which needs no global name on the shop's page.
    format: "esm",
    target: TARGET,
    // Leaflet's ES module build: its UMD build (the package's main) sets window.L, which a shop may use itself.
    alias: { leaflet: "./node_modules/leaflet/dist/leaflet-src.esm.js" },
    define: { LEAFLET_CSS: JSON.stringify(await leafletCss()) },
    metafile: true,
    logLevel: "warning",
    // Leaflet's licence (BSD-2-Clause) asks for its notice with the code: kept at the end of the file.
    legalComments: "eof",
  });
  return [...Object.keys(picker.metafile.inputs), ...Object.keys(map.metafile.inputs), LEAFLET_CSS];
}

/**
 * Leaflet's style sheet, minified, without its images: they are for its default marker icon and layers control,
 * which the picker does not use, and a relative URL in a style element would be asked of the shop's own site.
 */
async function leafletCss() {
  const css = readFileSync(path.join(root, LEAFLET_CSS), "utf8").replace(/url\(images\/[^)]*\)/g, "none");
  const result = await build({
    stdin: { contents: css, loader: "css" },
    minify: true,
    write: false,
    logLevel: "warning",
  });
  return result.outputFiles[0].text.trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPicker(process.argv[2]);
