// Types of build-inputs.mjs (plain JavaScript, so that `npm start` runs it without a TypeScript loader).
export function filesUnder(dir: string): string[];
export function upToDate(manifest: string, output: string): boolean;
export function recordInputs(manifest: string, files: string[]): void;
export function portalInputs(): string[];
