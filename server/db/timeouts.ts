/** PostgreSQL's limits when the operator sets none; its own module, so that reading the configuration loads no driver. */
export const DEFAULT_TIMEOUTS = { connectTimeoutMs: 3_000, statementTimeoutMs: 5_000 };
