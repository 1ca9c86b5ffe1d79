// An answer's JSON text made by code that knows its shape, in place of JSON.stringify when the answer is sent
// (http/json-answer.ts). The answer stays an object: the spec's check of an answer sees the object, and the text is
// made only as it is sent, from the object as it is then. Kept beside the object, never in it, so that a copy of the
// answer (`{ ...body, more }`) has no text and is sent by JSON.stringify. bench/levers.md section 34.
const texts = new WeakMap<object, (body: never) => string | undefined>();

/** `body` will be sent as `text(body)` (undefined: by JSON.stringify after all). */
export function withText<T extends object>(body: T, text: (body: T) => string | undefined): T {
  texts.set(body, text);
  return body;
}

/**
 * The text `body` is sent as. `compared`: where every answer is checked against the spec (tests, CI, development:
 * RESPONSE_VALIDATION_PERCENT 100), such a text is compared with JSON.stringify's before it is sent, and a difference
 * is an error (a 500): the test suite holds every answer sent this way to JSON.stringify's bytes.
 */
export function answerText(body: unknown, compared = true): string {
  const make = typeof body === "object" && body !== null ? texts.get(body) : undefined;
  const text = make?.(body as never);
  if (text === undefined) return JSON.stringify(body);
  if (compared) {
    const expected = JSON.stringify(body);
    if (text !== expected)
      throw new Error(`an answer's own text differs from JSON.stringify's:\n${text}\nexpected:\n${expected}`);
  }
  return text;
}
