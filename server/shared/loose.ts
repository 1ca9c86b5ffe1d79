// Reading a request that may not have passed its schema: an operation's value rules run beside a failed schema
// check too (http/validator.ts), so they take what was sent as unknown and judge only the parts of the right type.

/** `v` as an object of fields, or undefined when it is none (an array, a string, null...). */
export function fieldsOf(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The field `key` of `v` when `v` is an object that has it as its own (never one of Object's prototype). */
export function fieldOf(v: unknown, key: string): unknown {
  const fields = fieldsOf(v);
  return fields && Object.hasOwn(fields, key) ? fields[key] : undefined;
}

/** `v` when it is an array, else none. */
export const itemsOf = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

export const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
