/** Builds the checkout picker's one script into `outfile` (default dist/picker/picker.js); returns the files it read. */
export function buildPicker(outfile?: string): Promise<string[]>;
