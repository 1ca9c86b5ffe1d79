// When a failed delivery is attempted again: a schedule of waits (WEBHOOK_RETRY_SCHEDULE) with jitter, so that
// many deliveries failing together (a receiver outage) do not come back in one burst.

/** Seconds to wait after the 1st, 2nd, ... failed attempt: about a day in total, 8 attempts. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];
/** Each wait is multiplied by a factor in [1 - JITTER, 1 + JITTER]. */
export const JITTER = 0.2;
const MAX_ENTRIES = 100; // retry_count is at most 1000 in the spec; far beyond any sane schedule
const MAX_SECONDS = 7 * 24 * 3600;

export type RetryScheduleResult =
  { schedule: readonly number[]; problem?: undefined } | { schedule?: undefined; problem: string };

/**
 * Parses WEBHOOK_RETRY_SCHEDULE: comma-separated positive seconds between attempts (decimals allowed, e.g.
 * `0.2,0.5` in tests). Unset or empty gives the default. A bad value gives one message for the config check.
 */
export function parseRetrySchedule(raw: string | undefined, name = "WEBHOOK_RETRY_SCHEDULE"): RetryScheduleResult {
  if (raw === undefined || raw.trim() === "") return { schedule: DEFAULT_RETRY_SCHEDULE };
  const parts = raw.split(",").map((p) => p.trim());
  const usage = `${name} must be comma-separated positive seconds between attempts (e.g. ${DEFAULT_RETRY_SCHEDULE.join(",")})`;
  if (parts.length > MAX_ENTRIES) return { problem: `${usage}; got ${parts.length} entries, at most ${MAX_ENTRIES}` };
  const schedule: number[] = [];
  for (const [i, p] of parts.entries()) {
    const n = /^\d+(\.\d+)?$/.test(p) ? Number(p) : NaN;
    if (!(n > 0)) return { problem: `${usage}; entry ${i + 1} is "${p}"` };
    if (n > MAX_SECONDS) return { problem: `${usage}; entry ${i + 1} (${p}) is longer than 7 days` };
    schedule.push(n);
  }
  return { schedule };
}

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
