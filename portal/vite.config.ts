// The merchant portal's build: served by the API server at /portal from dist/portal (same origin). Two pages: the
// portal (index.html) and the receiving station for warehouse staff (station.html, served at /station), sharing
// the client, the words and their chunks.
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/portal/",
  plugins: [react()],
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/portal", import.meta.url)),
    emptyOutDir: true,
    // The CSP allows no inline script: Vite's module preload helper stays in the bundle.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // No source maps: production ships what runs, not the portal's source (issue 25).
    sourcemap: false,
    // One bundle (React, Pico, the client, the words in three languages): ~430 KB; the portal has no routes worth
    // splitting.
    chunkSizeWarningLimit: 500,
    rollupOptions: {
      input: {
        portal: fileURLToPath(new URL("index.html", import.meta.url)),
        station: fileURLToPath(new URL("station.html", import.meta.url)),
      },
    },
  },
});
