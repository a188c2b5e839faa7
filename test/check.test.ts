import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import type { Queryable } from '../core/db/pool.ts';
import { JobPollSchema } from '../core/schemas/resources.ts';
import { startCheckWorkers } from '../jobs/check-worker.ts';
import { QUEUES } from '../jobs/queues.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';

/**
 * POST /v1/check end to end: real PostgreSQL, real pg-boss, real workers and
 * the offline pipeline on the sample pack. The text-deletion proofs read every
 * table of the database directly (ours and pg-boss's) after the job has ended:
 * complete, insufficient, failed after its retries, and dead-lettered.
 */

let t: TestApp; // workers running
let q: TestApp; // no workers until a test starts them: jobs can be caught while queued
let alice: Record<string, string>;
let bob: Record<string, string>;

beforeAll(async () => {
  [t, q] = await Promise.all([
    startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'check', { workers: true }),
    startTestApp({ RATE_LIMIT_PER_MINUTE: '100000', DAILY_JOB_LIMIT: '3' }, 'check_queued'),
  ]);
  await Promise.all([ingestPack(t.db.pool, createReadStream(SAMPLE_PACK)), ingestPack(q.db.pool, createReadStream(SAMPLE_PACK))]);
  alice = bearer(await t.key('alice'));
  bob = bearer(await t.key('bob'));
}, 120_000);
afterAll(async () => {
  await Promise.all([t?.close(), q?.close()]);
});

const check = (app: TestApp, headers: Record<string, string>, payload: object) => app.app.inject({ method: 'POST', url: '/v1/check', headers, payload });
const poll = (app: TestApp, headers: Record<string, string>, jobId: string) => app.app.inject({ method: 'GET', url: `/v1/reports/${jobId}`, headers });
const FINAL = ['complete', 'insufficient', 'refused', 'failed'];
const finished = (app: TestApp, headers: Record<string, string>, jobId: string, timeoutMs = 60_000) =>
  until(async () => {
    const body = JobPollSchema.parse((await poll(app, headers, jobId)).json());
    return FINAL.includes(body.status) ? body : undefined;
  }, `check ${jobId} to end`, timeoutMs, 100);

/** Every table of the database, ours and pg-boss's, whose rows hold `needle` anywhere (each whole row read as text). */
async function tablesHolding(db: Queryable, needle: string): Promise<string[]> {
  const { rows: tables } = await db.query<{ s: string; n: string }>(
    `SELECT table_schema AS s, table_name AS n FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  expect(tables.map((x) => `${x.s}.${x.n}`)).toEqual(expect.arrayContaining(['public.jobs', 'pgboss.job']));
  const found: string[] = [];
  for (const { s, n } of tables) {
    const ident = `"${s.replaceAll('"', '""')}"."${n.replaceAll('"', '""')}"`;
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${ident} AS r WHERE strpos(r::text, $1) > 0`, [needle]);
    if (rows[0]!.n > 0) found.push(`${s}.${n}`);
  }
  return found;
}

const jobRow = async (app: TestApp, id: string) =>
  (await app.db.pool.query('SELECT status, request, results, reason, attempts FROM jobs WHERE id = $1', [id])).rows[0];
const bossRows = async (app: TestApp, id: string) =>
  (await app.db.pool.query(`SELECT name, data, output FROM pgboss.job WHERE data->>'job_id' = $1 ORDER BY created_on`, [id])).rows;

// Plain words and spaces only, so each reads the same in every column type's text form.
const CLAIM_INVESTED = 'We invested £310 million in pipes, pumps and treatment works during 2024.';
const CLAIM_INCIDENTS = 'Brightwater recorded 112 pollution incidents in 2024, down from 150 in 2023.';

describe('a check of a text', () => {
  it('runs as a job: 202, then per-claim outcomes judged on evidence, with no score', async () => {
    const res = await check(t, alice, { text: `${CLAIM_INVESTED} We are proud of our staff. ${CLAIM_INCIDENTS}`, author: 'Brightwater Utilities', said_on: '2025-02-25' });
    expect(res.statusCode).toBe(202);
    const accepted = res.json();
    expect(accepted).toEqual({ job_id: expect.stringMatching(/^job_/), status: 'queued', poll: `/v1/reports/${accepted.job_id}` });
    const job = await finished(t, alice, accepted.job_id);
    expect(job).toMatchObject({ kind: 'check', status: 'complete', reason: null, report_id: null, report: null });
    const results = job.results!;
    // In the order of the text; the opinion in between is not a checkable claim.
    expect(results.map((r) => r.text)).toEqual([CLAIM_INVESTED, CLAIM_INCIDENTS]);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(['claim_id', 'claim_type', 'evidence', 'judges_disagree', 'outcome', 'rationale', 'resolution_criteria', 'review_status', 'text', 'topic']);
      expect(r.claim_id).toMatch(/^chk_[0-9a-f]{20}$/);
      expect(r.review_status).toBe('machine-generated, unreviewed');
      expect(r.resolution_criteria).toMatch(/independent source/);
    }
    const [invested, incidents] = results;
    // The same verdicts the report pipeline reaches on these claims.
    expect(invested).toMatchObject({ claim_type: 'factual', outcome: 'true' });
    expect(invested!.evidence.some((e) => e.independent_of_subject)).toBe(true);
    expect(incidents!.outcome).toBe('mostly_false');
    // The author names a known subject: its own site is not independent evidence.
    for (const e of results.flatMap((r) => r.evidence)) {
      if (e.url.startsWith('https://brightwater-utilities.example')) expect(e.independent_of_subject).toBe(false);
    }
  });

  it('a text with no checkable claim ends insufficient, with the reason, and its text deleted', async () => {
    const res = await check(t, alice, { text: 'Hello and welcome. Thank you all for reading this.' });
    expect(res.statusCode).toBe(202);
    const job = await finished(t, alice, res.json().job_id);
    expect(job).toMatchObject({ status: 'insufficient', results: null });
    expect(job.reason).toMatch(/No checkable claim/);
    expect((await jobRow(t, res.json().job_id)).request).toEqual({});
  });

  it('is visible only to the key that asked', async () => {
    const res = await check(t, alice, { text: CLAIM_INVESTED, author: 'Brightwater Utilities', said_on: '2025-02-25' });
    const id = res.json().job_id;
    expect((await poll(t, bob, id)).statusCode).toBe(404);
    await finished(t, alice, id);
    expect((await poll(t, bob, id)).statusCode).toBe(404);
    expect((await poll(t, alice, id)).statusCode).toBe(200);
  });
});

describe('a check of claims', () => {
  it('checks each item as one claim, as it stands, in the order sent', async () => {
    const claims = [
      // Since method 1.1 a claim's figures are confirmed only by its figures: the sample pack's independent
      // sources report the opening, not the capacity, so the claim is sent without it.
      { text: 'The Kestrel Lane treatment works in Eastmere opened on 28 May 2025.', source_url: 'https://brightwater-utilities.example/news/kestrel-lane-opens' },
      // Not a sentence the extract stage would keep (too short): sent as a claim, it is still checked.
      { text: 'Bills fell.' },
      { text: 'We will connect 10,000 homes to the Eastmere district heating network by December 2027.' },
    ];
    const res = await check(t, alice, { claims, author: 'Brightwater Utilities', said_on: '2025-06-10' });
    expect(res.statusCode).toBe(202);
    const job = await finished(t, alice, res.json().job_id);
    expect(job.status).toBe('complete');
    const results = job.results!;
    expect(results.map((r) => r.text)).toEqual(claims.map((c) => c.text));
    expect(new Set(results.map((r) => r.claim_id)).size).toBe(3);
    expect(results[0]).toMatchObject({ claim_type: 'factual', outcome: 'true' });
    // Its own source is never evidence for it.
    expect(results[0]!.evidence.map((e) => e.url)).not.toContain(claims[0]!.source_url);
    expect(results[2]).toMatchObject({ claim_type: 'promise' });
    expect(results[2]!.resolution_criteria).toMatch(/by 2027-12-31/);
    expect(results[2]!.outcome).toBe('pending');
  });
});

describe('the submitted text is deleted when the job ends', () => {
  // A sentence that is no checkable claim: it can only ever be in the stored request.
  const AROUND = 'Marrowgate orchestra rehearsals resumed with cheerful enthusiasm';
  const AUTHOR = 'Quillon Ferraby Authorsworth';

  it('after a complete job: the text and the author are nowhere in the database; the results keep only the checked claims', async () => {
    const text = `${AROUND}. ${CLAIM_INVESTED} ${CLAIM_INCIDENTS}`;
    const res = await check(t, alice, { text, author: AUTHOR, said_on: '2025-02-25' });
    const id = res.json().job_id as string;
    const job = await finished(t, alice, id);
    expect(job.status).toBe('complete');
    expect(await tablesHolding(t.db.pool, text)).toEqual([]);
    expect(await tablesHolding(t.db.pool, AROUND)).toEqual([]);
    expect(await tablesHolding(t.db.pool, AUTHOR)).toEqual([]);
    const row = await jobRow(t, id);
    expect(row.request).toEqual({});
    // The documented choice: each checked claim is quoted in the results, and only there.
    expect(row.results.map((r: { text: string }) => r.text)).toEqual([CLAIM_INVESTED, CLAIM_INCIDENTS]);
    // (The sample pack's document it was taken from holds it too.)
    expect(await tablesHolding(t.db.pool, CLAIM_INVESTED.slice(0, 40))).toEqual(['public.documents', 'public.jobs']);
    // pg-boss held the job id and nothing else.
    const boss = await bossRows(t, id);
    expect(boss.map((b) => b.name)).toEqual([QUEUES.check]);
    expect(boss[0]!.data).toEqual({ job_id: id });
  });

  it('while a job waits, its text is in jobs.request and nowhere else (the search can find it); said_on defaults to today (UTC)', async () => {
    const key = bearer(await q.key('waiting'));
    const res = await check(q, key, { text: `${AROUND} once more. ${CLAIM_INVESTED}`, author: AUTHOR });
    expect(res.statusCode).toBe(202);
    const id = res.json().job_id as string;
    expect(await tablesHolding(q.db.pool, AROUND)).toEqual(['public.jobs']);
    expect(await tablesHolding(q.db.pool, AUTHOR)).toEqual(['public.jobs']);
    expect((await jobRow(q, id)).request).toMatchObject({ author: AUTHOR, said_on: new Date().toISOString().slice(0, 10) });
    expect((await bossRows(q, id)).map((b) => b.data)).toEqual([{ job_id: id }]);
    // Ended by the dead letter queue in the next test.
    deadLettered = { id, key };
  });

  let deadLettered: { id: string; key: Record<string, string> };

  it('after a job fails on every attempt, and after one dead-lettered by pg-boss: nothing of either text is left', async () => {
    const { id: deadId, key } = deadLettered;
    // A worker that takes the job and stops before ending it, on every attempt (what pg-boss's
    // heartbeat monitor does to a worker that died): pg-boss moves the job to the dead letter queue.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [taken] = await until(async () => {
        const got = await q.boss.fetch(QUEUES.check);
        return got.length ? got : undefined;
      }, `attempt ${attempt + 1} of the job to be offered`, 30_000, 100);
      expect(taken!.data).toEqual({ job_id: deadId });
      await q.boss.fail(QUEUES.check, taken!.id, { message: 'worker stopped' });
    }
    await until(async () => (await bossRows(q, deadId)).some((b) => b.name === QUEUES.checkDead), 'the dead letter to arrive');
    expect((await jobRow(q, deadId)).status).toBe('queued');

    // A job whose stored request no longer reads as a check request (written by another
    // version of the service, or altered in the database) fails each attempt for real.
    const FAILING = 'Hollowmere lanterns flickered above the quiet harbour wall';
    const res = await check(q, key, { text: `${FAILING}. ${CLAIM_INCIDENTS}`, author: AUTHOR });
    const failId = res.json().job_id as string;
    await q.db.pool.query(`UPDATE jobs SET request = jsonb_set(request, '{said_on}', '"not a date"') WHERE id = $1`, [failId]);
    expect(await tablesHolding(q.db.pool, FAILING)).toEqual(['public.jobs']);

    await startCheckWorkers(q.boss, q.db.pool);
    // Between attempts pg-boss keeps the attempt's error: its type, never the text.
    const output = await until(async () => {
      const o = JSON.stringify((await bossRows(q, failId))[0]?.output ?? null);
      return o.includes('check attempt') ? o : undefined;
    }, 'the first attempt to fail', 30_000, 20);
    expect(output).toMatch(/check attempt 1 failed \(ZodError\)/);
    expect(output).not.toContain('Hollowmere');
    const failed = await finished(q, key, failId, 90_000);
    expect(failed).toMatchObject({ status: 'failed', results: null });
    expect(failed.reason).toMatch(/failed on every attempt \(3\).*ZodError.*deleted/);
    expect((await jobRow(q, failId)).attempts).toBe(3);
    const dead = await finished(q, key, deadId);
    expect(dead.status).toBe('failed');
    expect(dead.reason).toMatch(/worker stopped during every attempt/);

    for (const id of [failId, deadId]) expect((await jobRow(q, id)).request).toEqual({});
    for (const needle of [FAILING, AROUND, AUTHOR]) expect(await tablesHolding(q.db.pool, needle), needle).toEqual([]);
    // The claims of both texts: only in the sample pack's documents they come from, in no job.
    for (const needle of [CLAIM_INCIDENTS.slice(0, 40), CLAIM_INVESTED.slice(0, 40)]) {
      expect(await tablesHolding(q.db.pool, needle), needle).toEqual(['public.documents']);
    }
  }, 150_000);
});

describe('limits', () => {
  it('counts against the key\'s daily jobs: 429 past the limit, and no job is stored for it', async () => {
    const plain = await q.key('quota');
    const key = bearer(plain);
    for (let i = 0; i < 3; i++) expect((await check(q, key, { claims: [{ text: `Claim number ${i} about 12 reservoirs.` }] })).statusCode).toBe(202);
    const over = await check(q, key, { text: 'One more text about 40 pipes in Eastmere.' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ type: '/problems/job-limit', status: 429 });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const { rows } = await q.db.pool.query(
      `SELECT count(*)::int AS n FROM jobs j JOIN api_keys k ON k.id = j.key_id WHERE k.name = 'quota' AND j.kind = 'check'`,
    );
    expect(rows[0].n).toBe(3);
    expect(await tablesHolding(q.db.pool, 'One more text about 40 pipes')).toEqual([]);
  });
});
