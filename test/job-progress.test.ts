import { createReadStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { Providers } from '../core/providers/types.ts';
import { recordProgress, startAttempt } from '../core/reports/jobs.ts';
import { JOB_STAGES, type JobProgress } from '../core/schemas/resources.ts';
import { researchSubject } from '../jobs/pipeline/run.ts';
import { runReportJob } from '../jobs/report-worker.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { call, connect, text } from './helpers/mcp.ts';
import { until } from './helpers/poll.ts';

/**
 * Issue #14: a running report job says where it is. The job runs here through
 * the report worker itself, on the offline providers wrapped so that the
 * research waits at chosen points (the first statement lookup, evidence
 * searches, fact-check lookups) until the poll shows what must be true there:
 * no timing is relied on, only the order the pipeline works in.
 */

type Poll = { status: string; progress?: JobProgress; [k: string]: unknown };

let t: TestApp;
let key: string;

beforeAll(async () => {
  // No workers: the test runs the one job itself, and the other jobs stay where the test puts them.
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', MCP_WAIT_SECONDS: '0' }, 'job_progress');
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  key = await t.key('progress');
});
afterAll(() => t.close());

async function startJob(name: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers: bearer(key), payload: { name } });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().job_id as string;
}

async function poll(jobId: string): Promise<Poll> {
  const res = await t.app.inject({ method: 'GET', url: `/v1/reports/${jobId}`, headers: bearer(key) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Poll;
}

const rank = (p: JobProgress) => JOB_STAGES.indexOf(p.stage);

/** Stages never go back, counts never go down, from one progress to the next. */
function expectMonotonic(seen: readonly JobProgress[]): void {
  for (let i = 1; i < seen.length; i++) {
    const [a, b] = [seen[i - 1]!, seen[i]!];
    expect(rank(b), `stage went from ${a.stage} to ${b.stage}`).toBeGreaterThanOrEqual(rank(a));
    expect(b.documents).toBeGreaterThanOrEqual(a.documents);
    expect(b.claims_found).toBeGreaterThanOrEqual(a.claims_found);
    expect(b.claims_judged).toBeGreaterThanOrEqual(a.claims_judged);
  }
}

describe('the poll of a running report job', () => {
  it('shows the stages advancing and counts that never go down, and no progress once the job is complete', async () => {
    const jobId = await startJob('Brightwater Utilities');
    // Queued, not yet started: no stage to show.
    expect(await poll(jobId)).not.toHaveProperty('progress');

    const seen: JobProgress[] = [];
    const problems: string[] = [];
    const record = async (why: string, check?: (p: JobProgress | undefined) => boolean) => {
      try {
        const body = check
          ? await until(async () => {
              const b = await poll(jobId);
              return check(b.progress) && b;
            }, why, 20_000, 20)
          : await poll(jobId);
        expect(body.status).toBe('running');
        if (body.progress) seen.push(body.progress);
      } catch (err) {
        problems.push(`${why}: ${(err as Error).message}`);
      }
    };

    const base = localProviders(t.db.pool);
    let lookups = 0;
    let searches = 0;
    let factChecks = 0;
    const gated: Providers = {
      ...base,
      statements: {
        ...base.statements,
        async statementsBy(subject, opts) {
          if (++lookups === 1) await record('stage discover', (p) => p?.stage === 'discover');
          return base.statements.statementsBy(subject, opts);
        },
      },
      search: {
        name: base.search.name,
        async search(query, opts) {
          const n = ++searches;
          if (n === 1) await record('stage evidence with counts', (p) => p?.stage === 'evidence' && p.documents > 0 && p.claims_found > 0);
          // One search a claim, at most 8 claims at once: the 18th search starts only after 10 claims were judged.
          else if (n === 18) await record('10 claims judged', (p) => (p?.claims_judged ?? 0) >= 10);
          else await record(`search ${n}`);
          return base.search.search(query, opts);
        },
      },
      // The offline judge asks no service, so a fact-check service that finds nothing
      // (the same as none: the pipeline adds no document) marks where each claim is judged.
      factCheck: {
        name: 'none-found',
        async search() {
          const n = ++factChecks;
          // The last claim to be judged starts judging only once every claim has its evidence.
          const found = seen.find((p) => p.claims_found > 0)?.claims_found;
          if (n === found) await record('stage judge', (p) => p?.stage === 'judge');
          return [];
        },
      },
    };

    await runReportJob(t.db.pool, jobId, { retryCount: 0, retryLimit: 0 }, undefined, gated);
    expect(problems).toEqual([]);

    const ended = await poll(jobId);
    expect(ended.status).toBe('complete');
    expect(ended).not.toHaveProperty('progress');
    const { rows } = await t.db.pool.query('SELECT progress FROM jobs WHERE id = $1', [jobId]);
    expect(rows[0].progress).toBeNull();

    const stages = [...new Set(seen.map((p) => p.stage))];
    expect(stages).toEqual(['discover', 'evidence', 'judge']);
    expectMonotonic(seen);
    expect(seen[0]).toEqual({ stage: 'discover', documents: 0, claims_found: 0, claims_judged: 0 });
    const last = seen.at(-1)!;
    expect(last.claims_found).toBeGreaterThanOrEqual(18);
    expect(Math.max(...seen.map((p) => p.claims_judged))).toBeGreaterThanOrEqual(10);
    expect(last.claims_judged).toBeLessThanOrEqual(last.claims_found);
    expect(factChecks).toBe(last.claims_found);
    // The counts are the report's: every claim found is behind the stored report.
    const claims = await t.app.inject({ method: 'GET', url: `/v1/subjects/${(ended.report as { subject: { subject_id: string } }).subject.subject_id}/claims`, headers: bearer(key) });
    expect(claims.json().paging.total).toBe(last.claims_found);
  });

  it('is told every stage in order by the research, throttled while claims are judged, and the research finds the same', async () => {
    const providers = localProviders(t.db.pool);
    const [subject] = await providers.knowledge.lookup('Imogen Thale');
    const told: JobProgress[] = [];
    const started = performance.now();
    const withProgress = await researchSubject(subject!, providers, { today: '2026-11-21', onProgress: (p) => told.push(p) });
    const seconds = (performance.now() - started) / 1000;
    const without = await researchSubject(subject!, providers, { today: '2026-11-21' });

    expect(withProgress.status).toBe('complete');
    expect(withProgress.claims).toEqual(without.claims);
    expect(withProgress.status === 'complete' && without.status === 'complete' && withProgress.report).toEqual(without.status === 'complete' && without.report);

    expect([...new Set(told.map((p) => p.stage))]).toEqual([...JOB_STAGES]);
    expectMonotonic(told);
    const n = withProgress.claims.length;
    expect(n).toBeGreaterThan(10);
    expect(told.at(-1)).toEqual({ stage: 'score', documents: withProgress.stats!.documents, claims_found: n, claims_judged: n });
    // Between boundaries, a progress only every 10 claims or every second: never one a claim.
    const whileJudging = told.filter((p, i) => i > 0 && p.stage === told[i - 1]!.stage);
    expect(whileJudging.length).toBeLessThanOrEqual(Math.ceil(n / 10) + Math.ceil(seconds) + 1);
    expect(whileJudging.length).toBeLessThan(n);
  });

  it('is told only `identify` for a subject the rules refuse', async () => {
    const providers = localProviders(t.db.pool);
    const [subject] = await providers.knowledge.lookup('Imogen Thale');
    const told: JobProgress[] = [];
    const r = await researchSubject({ ...subject!, serving_politician: true }, providers, { onProgress: (p) => told.push(p) });
    expect(r.status).toBe('refused');
    expect(told).toEqual([{ stage: 'identify', documents: 0, claims_found: 0, claims_judged: 0 }]);
  });
});

describe('the MCP pending answer', () => {
  it('says the stage and counts of a running job in words, and carries them as progress', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const s = { t, url: `http://127.0.0.1:${port}/mcp`, key };

    // A job the test holds at the evidence stage, as the worker would leave it mid-way.
    const running = await startJob('The Eastmere Ledger');
    await startAttempt(t.db.pool, running);
    await recordProgress(t.db.pool, running, { stage: 'evidence', documents: 14, claims_found: 31, claims_judged: 12 });
    // A job no worker has started yet: nothing to say about where it is.
    const queued = await startJob('Tobias Wren');

    const c = await connect(s);
    const r = await call(c, 'lookup_reliability', { name: 'The Eastmere Ledger' });
    expect(r.structuredContent).toMatchObject({ status: 'pending', job_id: running, progress: { stage: 'evidence', documents: 14, claims_found: 31, claims_judged: 12 } });
    expect(text(r)).toMatch(/at the evidence stage \(looking for evidence on each claim and judging it\): 14 documents read, 31 claims found, 12 judged/);
    expect(r.structuredContent!.message).toBe(text(r));

    const q = await call(c, 'lookup_reliability', { name: 'Tobias Wren' });
    expect(q.structuredContent).toMatchObject({ status: 'pending', job_id: queued });
    expect(q.structuredContent).not.toHaveProperty('progress');
    expect(text(q)).not.toMatch(/stage/);
    await c.client.close();
  });
});
