// Statements that several writes outside a transaction can share. A batch (write-batches.ts) that holds several
// writes of one mergeable text sends them as that one statement: its values are the writes' values merged, and its
// answer is split into each write's own. The statement then starts, checks its plan and looks things up once for
// all of them instead of once each. Its text is the same for one write as for many (each column an array), so a
// write sent alone, in a transaction or on the embedded database runs the same SQL.
//
// A merged statement that fails was rolled back with its batch, so nothing of it was written: each write then runs
// again alone (write-batches.ts), and each caller gets its own statement's answer.

/** The answer a write gets, as node-postgres gives it (what Kysely reads of it). */
export interface WriteAnswer {
  command: string;
  rowCount: number;
  rows: unknown[];
}

export interface Merger {
  /** One statement's values for several writes' values (at least two), in the batch's order. */
  merge(each: unknown[][]): unknown[];
  /** Each write's answer, from the merged statement's answer. */
  split(answer: WriteAnswer, each: unknown[][]): WriteAnswer[];
}

const mergers = new Map<string, Merger>();

/** Since the process started: statements that carried several writes, those writes, and merges the database refused. */
export const mergeCounts = { statements: 0, writes: 0, refused: 0 };

/** Says that writes of `text` may be merged by `merger`; returns the text. */
export function mergeable(text: string, merger: Merger): string {
  mergers.set(text, merger);
  return text;
}

export const mergerOf = (text: string): Merger | undefined => mergers.get(text);
