// Kysely's PostgreSQL introspector, read again when the catalogue changed under it. Its table list calls
// pg_get_serial_sequence for every column by name: a column another transaction drops while the list is read is
// still in the list's snapshot but no longer in the catalogue that function reads, and the whole list fails
// ("column ... does not exist"). Kysely's migrator lists the tables before it takes the migration lock, to see
// whether its own tables exist; so an instance that starts beside another applying the contract migrations of a new
// database (which drop columns) failed its start (test/process/migration-lock.test.ts, "two instances that start at
// once"). A list read again after such a change sees the catalogue as it is then.
import { PostgresIntrospector, type DatabaseMetadataOptions, type SchemaMetadata, type TableMetadata } from "kysely";

/** What a catalogue changing under a read says: a column or table gone (42703, 42P01), or a lookup missing (XX000). */
const CHANGED_UNDERNEATH = new Set(["42703", "42P01", "XX000"]);
const TRIES = 5;

async function readAgainIfChanged<T>(read: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await read();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (tried >= TRIES || typeof code !== "string" || !CHANGED_UNDERNEATH.has(code)) throw err;
    }
  }
}

export class SteadyIntrospector extends PostgresIntrospector {
  override getSchemas(): Promise<SchemaMetadata[]> {
    return readAgainIfChanged(() => super.getSchemas());
  }
  override getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    return readAgainIfChanged(() => super.getTables(options));
  }
}
