// A throw-away database on the PostgreSQL server of DATABASE_URL, created for one benchmark run.
import pg from "pg";

export interface ScratchDatabase {
  url: string;
  /** Handed on unbound to teardown lists. */
  drop: () => Promise<void>;
}

/** `{ unreachable }` with the reason when the server cannot be reached: the run goes on without PostgreSQL. */
export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase | { unreachable: string }> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (err) {
    await admin.end().catch(() => {});
    return { unreachable: err instanceof Error ? err.message || err.constructor.name : String(err) };
  }
  const name = `logistics_bench_${process.pid}_${Date.now().toString(36)}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(adminUrl, name) };
}

/**
 * Creates database `name` (a name of ours, not input), empty or as a copy of `template`, which its last user may
 * still be leaving (see dropDatabase).
 */
export function createDatabase(adminUrl: string, name: string, template?: string): Promise<void> {
  return whenNotInUse(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
}

/**
 * Drops a scratch database; used by the test harness too. pg-pool's end() resolves before its sockets are
 * gone and a server may still be closing its sessions, so retry "in use" for a few seconds rather than kill them.
 */
export function dropDatabase(adminUrl: string, name: string): Promise<void> {
  return whenNotInUse(adminUrl, `DROP DATABASE IF EXISTS ${name}`);
}

/** Runs a statement about a database, retrying while the database is in use (for at most ~5 s). */
async function whenNotInUse(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(statement);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== "55006" || attempt >= 50) throw err; // object_in_use
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
}
