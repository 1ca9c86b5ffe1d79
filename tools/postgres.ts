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
 * Drops a scratch database; used by the test harness too. pg-pool's end() resolves before its sockets are
 * gone and a server may still be closing its sessions, so retry "in use" for a few seconds rather than kill them.
 */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name}`);
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
