// Types of build.mjs (plain JavaScript, so that `npm start` runs it without a TypeScript loader).
import type { Plugin } from "esbuild";
export function buildServer(outfile?: string): Promise<string[]>;
export const pgOnNode: Plugin;
