import type { PgBoss, JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import { endCheckJob } from '../core/check/jobs.ts';
import { CheckJobRequestSchema, checkClaimId, type CheckJobRequest } from '../core/check/request.ts';
import type { Pool } from '../core/db/pool.ts';
import { REVIEW_LABEL } from '../core/method/outcomes.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { FetchedDocument, KnowledgeProvider, KnownSubject, Providers } from '../core/providers/types.ts';
import { getJob, requeue, startAttempt } from '../core/reports/jobs.ts';
import { CheckResultSchema, type CheckResult } from '../core/schemas/resources.ts';
import type { CandidateClaim, ExtractedClaim, Figure } from '../core/research/types.ts';
import { QUEUES } from './queues.ts';

/**
 * The check queue's worker: takes the claims of a check job (from its text,
 * or as sent), gathers evidence and judges each exactly as a report does
 * (findDocuments, then runAssess: evidence and judges), and stores per-claim
 * results with no score.
 *
 * The submitted text lives in jobs.request only, never in pg-boss (its
 * payload is `{job_id}`), and every end deletes it: complete, insufficient,
 * failed on the last attempt, or failed by the dead letter queue after a
 * worker died on every attempt. Errors handed to pg-boss (which stores them
 * in its own job row) and failure reasons name the error's type and code,
 * never its message, which might quote the text.
 */

export const CheckJobPayload = z.object({ job_id: z.string().startsWith('job_') });

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

/** Who the checked text speaks for: a known subject when `author` names exactly one, else the author (or a placeholder) as a name alone. */
export const PLACEHOLDER_AUTHOR = 'Author of the checked text';

async function speakerOf(knowledge: KnowledgeProvider, author: string | null): Promise<KnownSubject> {
  const known = author ? await knowledge.lookup(author) : [];
  if (known.length === 1) return known[0]!;
  return {
    subject_id: 'check', name: author ?? PLACEHOLDER_AUTHOR, kind: 'organisation', aliases: [], description: null,
    public_figure: true, offices: [], serving_politician: false, urls: [], handles: [], demo: false,
  };
}

// The pipeline brings the language models with it: loaded on the first job, not at start.
const pipeline = async () => {
  const [cpu, criteria, classify, evidence, search, run, stages, modelStages] = await Promise.all([
    import('./pipeline/cpu-pool.ts'), import('../core/research/criteria.ts'), import('../core/research/classify.ts'), import('../core/research/evidence.ts'), import('./pipeline/search.ts'), import('./pipeline/run.ts'),
    import('./pipeline/stages.ts'), import('./pipeline/model-stages.ts'),
  ]);
  return { ...cpu, ...criteria, ...classify, ...evidence, ...search, ...stages, modelCriteria: modelStages.modelCriteria, DEPTHS: run.DEPTHS };
};
type Pipeline = Awaited<ReturnType<typeof pipeline>>;

/** `text`: read as a document the author published on `said_on`; its checkable claims are what it says in its own voice. */
async function claimsOfText(p: Pipeline, jobId: string, r: CheckJobRequest, speaker: KnownSubject, providers: Pick<Providers, 'model'>): Promise<CandidateClaim[]> {
  const doc = { url: `urn:check:${jobId}`, title: '', publisher: speaker.name, published: r.said_on, speakers: [speaker.name], text: r.text ?? '' };
  // With a model configured, it reads the text (uncached: the text is deleted when the job ends).
  const found = await p.extractStage(providers, doc, { name: speaker.name, kind: speaker.kind, aliases: speaker.aliases, urls: speaker.urls }, { ephemeral: true });
  const seen = new Set<string>();
  return found.filter((c) => !seen.has(c.quote) && seen.add(c.quote));
}

/**
 * `claims`: each item is one claim, its whole text the quote. Its names,
 * words and figures (for the evidence search and the figures judge) are read
 * by the extract stage from the item as a one-document text; the claim is
 * typed with classifyClaim and given its fixed test with writeCriteria.
 */
async function claimsAsSent(p: Pipeline, jobId: string, r: CheckJobRequest, speaker: KnownSubject, providers: Pick<Providers, 'model'>): Promise<CandidateClaim[]> {
  const ref = { name: speaker.name, kind: speaker.kind, aliases: speaker.aliases, urls: speaker.urls };
  return Promise.all((r.claims ?? []).map(async (item, i) => {
    const url = item.source_url ?? `urn:check:${jobId}:${i}`;
    const parts = await p.runExtract({ doc: { url, title: '', publisher: speaker.name, published: r.said_on, speakers: [speaker.name], text: item.text }, ref });
    const figures: Figure[] = [];
    for (const f of parts.flatMap((c) => c.figures)) if (!figures.some((g) => g.text === f.text)) figures.push(f);
    const claim: ExtractedClaim = {
      quote: item.text,
      quote_verified: false,
      said_on: r.said_on,
      source: { url, title: '', outlet: '', published: r.said_on },
      speaker: speaker.name,
      attribution: 'own_document',
      entities: [...new Set(parts.flatMap((c) => c.entities))],
      keywords: [...new Set(parts.flatMap((c) => c.keywords))],
      figures,
    };
    const classified = { ...claim, ...p.classifyClaim(item.text, { said_on: r.said_on, self_names: [speaker.name, ...speaker.aliases] }) };
    const criteria = providers.model ? await p.modelCriteria(providers.model, classified, { ephemeral: true }) : p.writeCriteria(classified);
    return { ...classified, resolution_criteria: criteria };
  }));
}

export async function checkClaims(pool: Pool, jobId: string, r: CheckJobRequest, today = new Date().toISOString().slice(0, 10), given?: Providers): Promise<CheckResult[]> {
  const p = await pipeline();
  const providers = given ?? localProviders(pool);
  const speaker = await speakerOf(providers.knowledge, r.author);
  const candidates = r.claims ? await claimsAsSent(p, jobId, r, speaker, providers) : await claimsOfText(p, jobId, r, speaker, providers);
  // One check fetches the same documents for claim after claim: fetch each once.
  const fetched = new Map<string, Promise<FetchedDocument | null>>();
  const jobProviders: Pick<Providers, 'search' | 'fetch'> = {
    search: providers.search,
    fetch: { name: providers.fetch.name, fetch: (url) => fetched.get(url) ?? (fetched.set(url, providers.fetch.fetch(url)), fetched.get(url)!) },
  };
  const limit = p.DEPTHS.quick.evidencePerClaim;
  const results: CheckResult[] = new Array(candidates.length);
  let next = 0;
  const lane = async () => {
    while (next < candidates.length) {
      const i = next++;
      const c = candidates[i]!;
      const docs = await p.findDocuments(c, jobProviders, limit);
      const { evidence, verdict } = await p.assessStage(providers, { claim: c, subject: speaker, docs, limit, today }, { ephemeral: true });
      results[i] = {
        claim_id: checkClaimId(jobId, i, c.quote),
        text: c.quote,
        claim_type: c.claim_type,
        topic: c.topic,
        resolution_criteria: c.resolution_criteria,
        outcome: verdict.outcome,
        rationale: verdict.rationale,
        evidence: evidence.map((e) => ({ url: e.url, publisher: e.publisher || null, published: e.published, quote: e.quote, independent_of_subject: e.independent_of_subject })),
        judges_disagree: verdict.judges_disagree,
        review_status: REVIEW_LABEL,
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, candidates.length) }, lane));
  // What a poll will serve, checked before it is stored.
  return z.array(CheckResultSchema).parse(results);
}

/** An error as it may be stored or logged: its type and code, never its message. */
function errorKind(err: unknown): string {
  const e = err as { name?: unknown; code?: unknown };
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  return typeof e?.code === 'string' && /^[A-Za-z0-9_]{1,20}$/.test(e.code) ? `${name} ${e.code}` : name;
}

export async function runCheckJob(pool: Pool, jobId: string, attempt: { retryCount: number; retryLimit: number }, log?: Log, providers?: Providers): Promise<void> {
  const open = await getJob(pool, jobId);
  if (!open || open.kind !== 'check') return;
  const job = await startAttempt(pool, jobId);
  if (!job) return; // already ended: a duplicate delivery
  try {
    const request = CheckJobRequestSchema.parse(job.request);
    const results = await checkClaims(pool, jobId, request, undefined, providers);
    if (results.length === 0) {
      await endCheckJob(pool, jobId, { status: 'insufficient', reason: 'No checkable claim was found in the text: a checkable claim states a figure, a date, a named person, place or organisation, a commitment, a forecast or advice. Send the claims themselves in `claims` to check them as they stand.' });
    } else {
      await endCheckJob(pool, jobId, { status: 'complete', results });
    }
    log?.info({ job: jobId, claims: results.length }, 'check job ended');
  } catch (err) {
    const kind = errorKind(err);
    const n = attempt.retryCount + 1;
    const last = attempt.retryCount >= attempt.retryLimit;
    log?.warn({ job: jobId, attempt: n, last, error: kind }, 'check job attempt failed');
    if (last) {
      await endCheckJob(pool, jobId, { status: 'failed', reason: `The check failed on every attempt (${n}); the last error was a ${kind}. The submitted text has been deleted; send the check again.` });
      return;
    }
    await requeue(pool, jobId);
    throw new Error(`check attempt ${n} failed (${kind})`);
  }
}

export async function startCheckWorkers(boss: PgBoss, pool: Pool, log?: Log, providers?: Providers): Promise<void> {
  await boss.work(QUEUES.check, { includeMetadata: true, batchSize: 1, localConcurrency: 2 }, async (jobs: JobWithMetadata<unknown>[]) => {
    for (const j of jobs) {
      const { job_id } = CheckJobPayload.parse(j.data);
      await runCheckJob(pool, job_id, { retryCount: j.retryCount, retryLimit: j.retryLimit }, log, providers);
    }
  });
  // A job whose worker died on every attempt (no heartbeat) arrives here: end it, which deletes its text.
  await boss.work(QUEUES.checkDead, { batchSize: 1 }, async (jobs) => {
    for (const j of jobs) {
      const { job_id } = CheckJobPayload.parse(j.data);
      const job = await getJob(pool, job_id);
      if (job?.kind === 'check' && (job.status === 'queued' || job.status === 'running')) {
        await endCheckJob(pool, job_id, { status: 'failed', reason: `The worker stopped during every attempt (${job.attempts}) before the check could finish. The submitted text has been deleted; send the check again.` });
        log?.warn({ job: job_id }, 'check job dead-lettered');
      }
    }
  });
}
