// The stored secrets as a whole: which columns hold them (each resource declares its own), sealing what a release
// before this one stored plain, checking at start that every stored secret opens with the keys held, and sealing
// every row again under the current key (`npm run cli -- secrets rotate`). Plain columns are named only here and
// only while they exist: this release runs on the schema after their contract step too.
import { sql } from "kysely";
import type { Db } from "../db/database.ts";
import { inTransaction } from "../db/transaction.ts";
import { QUOTE_SEALED_COLUMNS } from "../quotes/tables.ts";
import { SHOPIFY_SEALED_COLUMNS } from "../shopify/tables.ts";
import { WEBHOOK_SEALED_COLUMNS } from "../webhooks/tables.ts";
import type { MainKeys } from "./main-keys.ts";

interface SealedColumns {
  table: string;
  /** Sealed column -> the plain column it replaced. */
  columns: Readonly<Record<string, string>>;
}

/** Every column of the database that holds a sealed secret. */
export const SEALED: readonly SealedColumns[] = [WEBHOOK_SEALED_COLUMNS, QUOTE_SEALED_COLUMNS, SHOPIFY_SEALED_COLUMNS];

/** What a row's secrets are sealed for (associated data): a sealed value opens only in the row it was made for. */
export const sealedFor = (table: string, id: string) => `${table}:${id}`;

const BATCH = 200;

async function hasColumn(db: Db, table: string, column: string): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`
    select exists (select 1 from pg_attribute
                   where attrelid = to_regclass(${table}) and attname = ${column} and not attisdropped) as present`.execute(
    db,
  );
  return rows[0]!.present;
}

/**
 * Seals the plain secrets a release before this one stored (before contract/0020 drops their columns), keeping
 * the plain value for that release while it still runs. Returns how many values it sealed.
 */
export async function sealPlainSecrets(db: Db, keys: MainKeys): Promise<number> {
  let sealed = 0;
  for (const { table, columns } of SEALED) {
    for (const [sealedColumn, plainColumn] of Object.entries(columns)) {
      if (!(await hasColumn(db, table, plainColumn))) continue;
      const t = sql.table(table);
      const plain = sql.ref(plainColumn);
      const target = sql.ref(sealedColumn);
      for (let after = ""; ;) {
        const { rows } = await sql<{ id: string; plain: string }>`
          select id, ${plain} as plain from ${t}
          where ${plain} is not null and ${target} is null and id > ${after} order by id limit ${BATCH}`.execute(db);
        for (const row of rows) {
          // Only if still unsealed: another instance starting at the same time may have sealed it first.
          const r = await sql`update ${t} set ${target} = ${keys.seal(row.plain, sealedFor(table, row.id))}
                              where id = ${row.id} and ${target} is null`.execute(db);
          sealed += Number(r.numAffectedRows ?? 0);
        }
        if (rows.length < BATCH) break;
        after = rows.at(-1)!.id;
      }
    }
  }
  return sealed;
}

/** How many stored secrets each main key id sealed. */
export async function sealedByKey(db: Db): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { table, columns } of SEALED) {
    for (const column of Object.keys(columns)) {
      const { rows } = await sql<{ value: string; n: string }>`
        select split_part(${sql.ref(column)}, '.', 2) as value, count(*) as n from ${sql.table(table)}
        where ${sql.ref(column)} is not null group by 1`.execute(db);
      for (const r of rows) counts.set(r.value, (counts.get(r.value) ?? 0) + Number(r.n));
    }
  }
  return counts;
}

/** The key ids stored secrets are sealed under that `keys` lacks (a wrong or missing main key). */
export async function missingKeys(db: Db, keys: MainKeys): Promise<Map<string, number>> {
  const missing = new Map<string, number>();
  for (const [id, n] of await sealedByKey(db)) if (!keys.has(id)) missing.set(id, n);
  return missing;
}

export class MainKeyMissing extends Error {}

/**
 * At start, after the migrations: plain secrets a release before stored are sealed, and every stored secret
 * must open with the keys held. A process with the wrong key or without the one it needs stops here with a
 * message that says which, rather than fail each delivery or quote later.
 */
export async function prepareSecretsAtRest(db: Db, keys: MainKeys): Promise<{ sealed: number }> {
  const sealed = await sealPlainSecrets(db, keys);
  const missing = await missingKeys(db, keys);
  if (missing.size > 0) {
    const list = [...missing].map(([id, n]) => `${n} under main key ${id}`).join(", ");
    throw new MainKeyMissing(
      `The database holds secrets encrypted under a main key this process does not have (${list}; it has ${keys.ids.join(", ")}). Set SECRETS_MAIN_KEY to the key they were encrypted with (during a rotation, the other one in SECRETS_READ_KEYS); see docs/secrets.md.`,
    );
  }
  return { sealed };
}

export interface ResealReport {
  /** Values sealed again under the current key by this run. */
  resealed: number;
  /** Values still under another key (an instance still encrypting with it wrote them meanwhile). */
  remaining: number;
}

/**
 * Seals every stored secret that is not under the current key again under it, `batch` rows per short
 * transaction. A value is replaced only if it is still the one read (an instance may have changed it meanwhile:
 * a rotated endpoint secret stays the new one), so running instances keep working: those that hold both keys
 * read either. Passes repeat while they find work, for values other instances sealed under the old key meanwhile.
 */
export async function resealAll(
  db: Db,
  keys: MainKeys,
  opts: { batch?: number; onBatch?: (done: number) => void } = {},
): Promise<ResealReport> {
  const batch = opts.batch ?? BATCH;
  const notCurrent = `v1.${keys.currentId}.%`;
  let resealed = 0;
  for (let pass = 0; pass < 5; pass++) {
    let thisPass = 0;
    for (const { table, columns } of SEALED) {
      for (const column of Object.keys(columns)) {
        const t = sql.table(table);
        const c = sql.ref(column);
        for (let after = ""; ;) {
          const { rows } = await sql<{ id: string; value: string }>`
            select id, ${c} as value from ${t}
            where ${c} is not null and ${c} not like ${notCurrent} and id > ${after} order by id limit ${batch}`.execute(
            db,
          );
          if (rows.length === 0) break;
          const changed = await inTransaction(db, async (trx) => {
            let n = 0;
            for (const row of rows) {
              const context = sealedFor(table, row.id);
              const fresh = keys.seal(keys.open(row.value, context), context);
              const r = await sql`update ${t} set ${c} = ${fresh} where id = ${row.id} and ${c} = ${row.value}`.execute(
                trx,
              );
              n += Number(r.numAffectedRows ?? 0);
            }
            return n;
          });
          thisPass += changed;
          opts.onBatch?.(resealed + thisPass);
          if (rows.length < batch) break;
          after = rows.at(-1)!.id;
        }
      }
    }
    resealed += thisPass;
    if (thisPass === 0) break;
  }
  const counts = await sealedByKey(db);
  const remaining = [...counts].filter(([id]) => id !== keys.currentId).reduce((sum, [, n]) => sum + n, 0);
  return { resealed, remaining };
}
