// The merchant portal's production build (Vite) into dist/portal, or into the folder given as the argument
// (`node tools/build-portal.mjs .tmp/portal-x`, as the browser tests do: in their own process, so that
// vitest's NODE_ENV=test never turns it into React's development build).
import { fileURLToPath } from "node:url";
import { build } from "vite";

export async function buildPortal(outDir) {
  process.env.NODE_ENV = "production";
  await build({
    configFile: fileURLToPath(new URL("../portal/vite.config.ts", import.meta.url)),
    mode: "production",
    ...(outDir && { build: { outDir } }),
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPortal(process.argv[2]);
