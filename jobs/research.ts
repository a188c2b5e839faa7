import type { Pool } from '../core/db/pool.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { Providers } from '../core/providers/types.ts';
import { storeReport } from '../core/reports/store.ts';
import { methodVersion } from '../core/method/version.ts';
import { researchSubject, type ResearchOptions, type ResearchResult } from './pipeline/run.ts';

export type ReportOutcome = ResearchResult & { reportId: string | null; generatedAt: string | null };

/**
 * Researches one subject and stores the report when it is complete: what a
 * report job does, and what `npm run research` does from the command line.
 * Insufficient and refused results are not stored as reports.
 */
export async function makeReport(
  pool: Pool,
  subjectId: string,
  opts: ResearchOptions & { jobId?: string | null; providers?: Providers } = {},
): Promise<ReportOutcome> {
  const providers = opts.providers ?? localProviders(pool);
  const subject = await providers.knowledge.byId(subjectId);
  if (!subject) throw new Error(`no subject ${subjectId}`);
  const result = await researchSubject(subject, providers, opts);
  if (result.status !== 'complete') return { ...result, reportId: null, generatedAt: null };
  const { reportId, generatedAt, report } = await storeReport(pool, {
    subjectId,
    methodVersion: methodVersion(),
    depth: opts.depth ?? 'quick',
    topic: opts.topic ?? null,
    report: result.report,
    claims: result.claims,
    jobId: opts.jobId ?? null,
    stats: result.stats,
  });
  // The report as stored (and served): the pipeline's, with its editorial review summary.
  return { ...result, report, reportId, generatedAt };
}
