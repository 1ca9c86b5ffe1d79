// The checkout picker (client/picker/) as the one script file a shop's page loads: <script src=".../picker.js">.
// esbuild bundles and minifies it into dist/picker/picker.js, or the file given as the argument (the browser
// tests build their own). Plain JavaScript so that build.mjs imports it without a TypeScript loader.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export async function buildPicker(outfile = "dist/picker/picker.js") {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["client/picker/element.ts"],
    outfile,
    bundle: true,
    minify: true,
    format: "iife",
    // Browsers of the last few years: custom elements, shadow DOM, fetch, Intl.
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
  });
  return Object.keys(result.metafile.inputs);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPicker(process.argv[2]);
