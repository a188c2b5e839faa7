import type { Pool } from '../db/pool.ts';
import { mapLimit } from '../concurrency.ts';
import { methodVersion } from '../method/version.ts';
import { statementOf, type DemoRow, type ParseProblem, type ParseResult, type Statement } from './rows.ts';
import { upsertDemoClaims, upsertDemoSubjects, type DemoSubjectResult, type JudgedDemo } from './store.ts';

/**
 * Imports parsed demo rows: makes their subjects, has the machine judge each
 * claim from its statement alone, and stores the verdict beside the published
 * outcome. The judge is handed in (core/ cannot reach the research pipeline,
 * which lives in jobs/: jobs/demo-judge.ts is the real one) and is given a
 * Statement, never the row: nothing of the publisher's verdict can reach it.
 */

/** Judges one statement; returns the Claim object with the machine verdict. */
export type DemoJudge = (statement: Statement) => Promise<Record<string, unknown>>;

export type ImportSummary = {
  dataset: string | null;
  /** Records read from the file. */
  read: number;
  /** Claims parsed and imported. */
  claims: number;
  skipped: ParseProblem[];
  subjects: DemoSubjectResult;
  written: { inserted: number; updated: number; unchanged: number };
  /** Machine outcomes of the imported claims. */
  machine: Record<string, number>;
  /** Published outcomes of the imported claims (`unrated`: no place on the scale). */
  published: Record<string, number>;
};

const BATCH = 200;

export async function importDemo(
  pool: Pool,
  parsed: ParseResult,
  opts: { judge: DemoJudge; concurrency?: number; methodVersion?: string; onBatch?: (done: number, total: number) => void },
): Promise<ImportSummary> {
  const version = opts.methodVersion ?? methodVersion();
  // The same row twice in one file (parsers already refuse it) would be one claim.
  const rows = [...new Map(parsed.rows.map((r) => [`${r.dataset}\n${r.source_id}`, r])).values()];
  const dataset = rows[0]?.dataset ?? null;
  const summary: ImportSummary = {
    dataset, read: parsed.read, claims: rows.length, skipped: parsed.problems,
    subjects: { created: 0, updated: 0, not_demo: [] }, written: { inserted: 0, updated: 0, unchanged: 0 }, machine: {}, published: {},
  };
  for (const ds of new Set(rows.map((r) => r.dataset))) {
    const s = await upsertDemoSubjects(pool, rows.filter((r) => r.dataset === ds).map((r) => r.subject), ds, parsed.title);
    summary.subjects.created += s.created;
    summary.subjects.updated += s.updated;
    summary.subjects.not_demo.push(...s.not_demo);
  }
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch: readonly DemoRow[] = rows.slice(i, i + BATCH);
    const judged = await mapLimit(batch, opts.concurrency ?? 8, async (row): Promise<JudgedDemo> => {
      const statement = statementOf(row);
      return { row, statement, claim: await opts.judge(statement) };
    });
    const w = await upsertDemoClaims(pool, judged, version);
    summary.written.inserted += w.inserted;
    summary.written.updated += w.updated;
    summary.written.unchanged += judged.length - w.inserted - w.updated;
    for (const j of judged) {
      const m = String(j.claim.outcome);
      summary.machine[m] = (summary.machine[m] ?? 0) + 1;
      const p = j.row.published_outcome ?? 'unrated';
      summary.published[p] = (summary.published[p] ?? 0) + 1;
    }
    opts.onBatch?.(Math.min(i + BATCH, rows.length), rows.length);
  }
  return summary;
}
