// Why "Retry now" was refused, as the portal says it (portal/src/pages/webhooks/words.ts): told apart the way the spec
// tells them apart, by the answer's Retry-After, never by reading the service's English message.
import { describe, expect, it } from "vitest";
import type { ApiError } from "../../portal/src/app/data.ts";
import { retryRefusedWords } from "../../portal/src/pages/webhooks/words.ts";
import { words } from "../../portal/src/words/index.ts";

/** A 409 as unwrap makes it: a message in words the portal must not parse, and Retry-After when the answer had one. */
const refused = (message: string, retryAfterMs?: number) =>
  ({ status: 409, body: { code: "conflict", message, details: [] }, retryAfterMs }) as unknown as ApiError;

describe("a refused Retry now, in plain words", () => {
  for (const lang of ["en", "fi", "sv"] as const) {
    const w = words(lang);
    it(`in ${lang}: with Retry-After, the receiving system asked for time, until the delivery's next try`, () => {
      const next = "2026-11-30T08:22:55Z";
      expect(retryRefusedWords(refused("any words at all", 3_600_000), next, w)).toBe(
        w.t.webhooks.askedToWait(w.date(next)),
      );
    });
    it(`in ${lang}: with Retry-After and no next try, until the time the header names`, () => {
      const said = retryRefusedWords(refused("", 7_200_000), null, w);
      const inTwoHours = w.date(new Date(Date.now() + 7_200_000).toISOString());
      const inTwoHoursAndAMinute = w.date(new Date(Date.now() + 7_260_000).toISOString());
      expect([w.t.webhooks.askedToWait(inTwoHours), w.t.webhooks.askedToWait(inTwoHoursAndAMinute)]).toContain(said);
    });
    it(`in ${lang}: without Retry-After, sending to the address is turned off, whatever the message says`, () => {
      // The message of a receiver's wait, on a 409 without the header: the header decides, not the words.
      const message =
        "The receiver asked for time with Retry-After: it is not called again before 2016-01-18T08:22:55+00:00.";
      expect(retryRefusedWords(refused(message), "2026-11-30T08:22:55Z", w)).toBe(w.t.webhooks.retryOff);
    });
  }
});
