// Types of build.mjs (plain JavaScript, so that `npm start` runs it without a TypeScript loader).
import type { BuildOptions, Plugin } from "esbuild";
export function buildServer(outfile?: string): Promise<string[]>;
export function serverScriptOptions(entry: string, outfile: string): BuildOptions & { metafile: true };
export const pgOnNode: Plugin;
