/** ISO 8601 with an explicit UTC offset and seconds precision: 2016-01-18T08:17:55+00:00. */
export function formatTimestamp(d: Date): string {
  const iso = d.toISOString();
  // YYYY-MM-DDTHH:mm:ss.sssZ, cut without a regular expression (every answer formats a few); a year outside 0-9999
  // has the longer form, cut the same way from its end.
  return `${iso.slice(0, -5)}+00:00`;
}

/** A real calendar date in YYYY-MM-DD form (the spec pattern cannot reject 2016-02-30). */
export function isCalendarDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}
