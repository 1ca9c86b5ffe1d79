// When a failed delivery is attempted again: a schedule of waits (WEBHOOK_RETRY_SCHEDULE, read with the other
// settings in server/config/settings.ts) with jitter, so that many deliveries failing together (a receiver
// outage) do not come back in one burst.
import { DEFAULT_RETRY_SCHEDULE } from "../config/settings.ts";

/** Each wait is multiplied by a factor in [1 - JITTER, 1 + JITTER]. */
export const JITTER = 0.2;

/**
 * When to make the next attempt after `attempts` attempts have failed (1 after the first), or undefined when
 * the schedule is exhausted and the delivery is `failed`. `random` returns [0, 1) like Math.random.
 */
export function nextAttemptAt(
  attempts: number,
  now: Date,
  schedule: readonly number[] = DEFAULT_RETRY_SCHEDULE,
  random: () => number = Math.random,
): Date | undefined {
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be a whole number >= 1, got ${attempts}`);
  const wait = schedule[attempts - 1];
  if (wait === undefined) return undefined;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return new Date(now.getTime() + Math.round(wait * factor * 1000));
}
