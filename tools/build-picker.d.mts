/**
 * Builds the checkout picker's scripts: picker.js into `outfile` (default dist/picker/picker.js) and picker-map.js
 * (the map, imported by picker.js when a shopper opens it) beside it; returns the files they were built from.
 */
export function buildPicker(outfile?: string): Promise<string[]>;
