// The one owner of "now" for what a request's answer depends on (delivery estimates, quotes' iat and exp): the
// system clock in production, a fixed or stepped one in tests (test/helpers/server.ts's `now`), so that an answer
// that depends on the day and the hour can be tested for a given day and hour.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock reading `now()`: a test's fixed instant, or one it moves. */
export const clockOf = (now: () => Date): Clock => ({ now });
