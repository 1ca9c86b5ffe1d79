// Retry-After (RFC 9110 10.2.3), read one way by the webhook sender (a receiver's 429 or 503) and the client
// package (the service's): delta-seconds or an HTTP date, nothing else. Browser-safe: the client package ships it.

/** Retry-After as milliseconds from `now`; undefined when absent or not one of RFC 9110's two forms. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value.trim();
  if (/^\d{1,10}$/.test(v)) return Number(v) * 1000;
  // An HTTP date names a weekday and GMT; Date.parse alone would also take "1" or "2026".
  if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
