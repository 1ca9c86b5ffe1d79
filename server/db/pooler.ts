// PostgreSQL through a transaction-mode pooler (PgBouncer's pool_mode = transaction, DATABASE_POOL_MODE): each
// transaction, and each statement outside one, may run on a different server connection, so nothing may rely on
// a session. PgBouncer 1.18 refuses start-up parameters it does not know (statement_timeout among them) and does
// not carry prepared statements across connections; LISTEN would listen on a connection that goes back to the
// pool. So statements are sent unnamed, the time limits ride on each BEGIN (one round trip, as before) and on the
// database role for statements outside a transaction, and LISTEN needs a direct URL or is replaced by polling.
import type pg from "pg";
import { sendingPool, sendPlain } from "./pool-clients.ts";

export interface TimeLimits {
  statementTimeoutMs: number;
  idleInTransactionMs: number;
}

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;

/** A pool for the service's dialect (dialect.ts): clients whose every transaction sets its own time limits. */
export function transactionModePool(pool: pg.Pool, limits: TimeLimits | undefined) {
  if (!limits) return sendingPool(pool, sendPlain);
  const setLocal =
    `; set local statement_timeout = ${limits.statementTimeoutMs}` +
    `; set local idle_in_transaction_session_timeout = ${limits.idleInTransactionMs}`;
  return sendingPool(pool, (query, text, values) =>
    // Kysely begins with `begin` (or `start transaction ...`) and no parameters: the simple protocol, which
    // takes several statements in one message; the answer is BEGIN's.
    typeof text === "string" && BEGIN.test(text) && !values?.length
      ? query(text + setLocal).then((r) => (Array.isArray(r) ? (r[0] as unknown) : r))
      : sendPlain(query, text, values),
  );
}

/**
 * Statements outside a transaction get their limits from the role's defaults for this database, which a
 * transaction-mode pooler keeps (they apply to each server connection it opens). Set here when they differ;
 * a role without the right to set its own defaults is told the command instead.
 */
export async function roleTimeLimits(pool: pg.Pool, limits: TimeLimits): Promise<string | undefined> {
  const { rows } = await pool.query<{ statement: string; idle: string; role: string; database: string }>(
    `select current_setting('statement_timeout') as statement,
            current_setting('idle_in_transaction_session_timeout') as idle,
            current_user as role, current_database() as database`,
  );
  const now = rows[0]!;
  const wanted = { statement: `${limits.statementTimeoutMs}ms`, idle: `${limits.idleInTransactionMs}ms` };
  if (asMs(now.statement) === limits.statementTimeoutMs && asMs(now.idle) === limits.idleInTransactionMs) return;
  const commands = [
    `ALTER ROLE ${ident(now.role)} IN DATABASE ${ident(now.database)} SET statement_timeout = '${wanted.statement}'`,
    `ALTER ROLE ${ident(now.role)} IN DATABASE ${ident(now.database)} SET idle_in_transaction_session_timeout = '${wanted.idle}'`,
  ];
  try {
    // The connection that ran this keeps its session's values: set there too (the same as the role's now).
    await pool.query(
      `${commands.join("; ")}; set statement_timeout = '${wanted.statement}'; set idle_in_transaction_session_timeout = '${wanted.idle}'`,
    );
    return `set the time limits of statements outside a transaction on role ${now.role} in database ${now.database} (statement_timeout ${wanted.statement}, idle_in_transaction_session_timeout ${wanted.idle}); connections the pooler opened before keep theirs until it reconnects them`;
  } catch (err) {
    return `statements outside a transaction run without the time limits: the role may not set its own defaults (${(err as Error).message}); run as an administrator: ${commands.join("; ")}`;
  }
}

/** PostgreSQL's settings read back in ms ("5s", "5000ms", "0"). */
function asMs(setting: string): number {
  const m = /^(\d+)\s*(ms|s|min|h|d)?$/.exec(setting.trim());
  if (!m) return NaN;
  const unit = { ms: 1, s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] ?? "ms"]!;
  return Number(m[1]) * unit;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Instead of LISTEN: calls `onNotify` now and every `everyMs`, as if something might have changed. */
export function pollInstead(onNotify: () => void, everyMs: number): () => Promise<void> {
  onNotify();
  const timer = setInterval(onNotify, everyMs).unref();
  return async () => clearInterval(timer);
}
