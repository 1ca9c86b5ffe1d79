// Which failures mean "the database cannot be reached or does not answer now" (a restart, a failover, a
// stall), as opposed to a bug: those are answered 503 `unavailable` with Retry-After, never 500.
const UNAVAILABLE_SQLSTATES = new Set([
  "57P01", // admin_shutdown: terminating connection due to administrator command
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: the database system is starting up / shutting down
  "57014", // query_canceled: statement_timeout
  "53300", // too_many_connections
  "25P03", // idle_in_transaction_session_timeout
  "08000",
  "08001",
  "08003",
  "08004",
  "08006", // connection_exception and its kinds
]);
const UNAVAILABLE_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
]);
// node-postgres reports these without a code ("timeout expired": a Client's own connect time is up, as for the
// shared connections and the pool's, whose queue has a bound of its own: database.ts).
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|timeout expired$|Query read timeout|Client has encountered a connection error|Connection terminated unexpectedly)/;

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.code === "string" && (UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_ERRNOS.has(e.code))) return true;
  if (typeof e.message === "string" && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  // AggregateError (a connection attempt to each address of a host) and wrapped causes.
  const nested = (err as { errors?: unknown[] }).errors;
  if (Array.isArray(nested) && nested.length > 0 && nested.every(isDatabaseUnavailable)) return true;
  return e.cause !== undefined && e.cause !== err && isDatabaseUnavailable(e.cause);
}
