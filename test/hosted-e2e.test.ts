import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';
import { SUBJECT, startSimulatedWeb, type SimulatedWeb } from './helpers/simulated-web.ts';

// A report job and a check job end to end with every hosted provider pointed
// at loopback servers that speak their wire formats (test/helpers/simulated-web.ts):
// SearXNG search, pages fetched through the safe fetcher, Google Fact Check
// Tools, and an OpenAI-compatible model for extraction, typing, fixed tests
// and two judges. Prints the model calls, tokens and cost per report and per
// checked claim.

let web: SimulatedWeb;
let t: TestApp;
let headers: Record<string, string>;
const ID = subjectIdFor(SUBJECT.kind, SUBJECT.name);

beforeAll(async () => {
  web = await startSimulatedWeb();
  t = await startTestApp({ ...web.env, RATE_LIMIT_PER_MINUTE: '10000', PIPELINE_THREADS: '0' }, 'hosted-e2e', { workers: true });
  headers = bearer(await t.key());
  await ingestPack(t.db.pool, Readable.from([`${JSON.stringify({ record: 'subject', ...SUBJECT, urls: [web.ownSite] })}\n`]));
});

afterAll(async () => {
  await t?.close();
  await web?.close();
});

const spend = async () =>
  (await t.db.pool.query<{ calls: number; input: number; output: number; usd: string }>(
    `SELECT count(*)::int AS calls, coalesce(sum(input_tokens), 0)::int AS input, coalesce(sum(output_tokens), 0)::int AS output, coalesce(sum(amount_usd), 0) AS usd FROM spend_ledger WHERE provider = 'openai'`,
  )).rows[0]!;

async function finished(jobId: string) {
  return until(async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/reports/${jobId}`, headers });
    const body = res.json();
    return ['complete', 'insufficient', 'refused', 'failed'].includes(body.status) ? body : null;
  }, `job ${jobId}`, 60_000);
}

describe('hosted providers end to end', () => {
  it('researches a subject on the simulated web with the model stages, and records every call\'s cost', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload: { subject_id: ID } });
    expect(res.statusCode).toBe(202);
    const job = await finished(res.json().job_id);
    expect(job.status, job.reason).toBe('complete');

    const claims = (await t.app.inject({ method: 'GET', url: `/v1/subjects/${ID}/claims?page_size=200`, headers })).json().claims as Array<Record<string, any>>;
    const byQuote = new Map(claims.map((c) => [c.quote, c]));
    // Every sentence with a figure on the subject's own pages, verbatim; the re-worded quote the model also gave is dropped.
    expect([...byQuote.keys()].sort()).toEqual([
      'Corvale Transit Authority hired 85 new drivers in 2024.',
      'Corvale Transit Authority ran 4,200 buses in 2024.',
      'Corvale Transit Authority repaired 310 stations in 2025.',
      'Ridership rose 12% in 2024.',
      'The network carried 61 million passengers in 2024.',
      'We will open 3 new depots by 2027.',
    ]);
    expect(claims.every((c) => c.quote_verified && !/about \d/.test(c.quote))).toBe(true);

    const buses = byQuote.get('Corvale Transit Authority ran 4,200 buses in 2024.')!;
    expect(buses).toMatchObject({ claim_type: 'factual', topic: 'transport', outcome: 'true', judges_disagree: false });
    expect(buses.source.url).toBe(`${web.pagesUrl}/corvale/annual-2025`);
    expect(buses.resolution_criteria).toMatch(/independent source/);
    expect(buses.evidence.some((e: any) => e.url === `${web.pagesUrl}/audit/review-2025` && e.independent_of_subject)).toBe(true);

    // The two judges differ on the percentage: flagged, and the more cautious reading stands.
    const ridership = byQuote.get('Ridership rose 12% in 2024.')!;
    expect(ridership).toMatchObject({ outcome: 'mostly_true', judges_disagree: true });
    // The published fact-check is evidence too.
    expect(ridership.evidence.map((e: any) => e.url)).toContain('https://factdesk.example/corvale-ridership');

    const depots = byQuote.get('We will open 3 new depots by 2027.')!;
    expect(depots).toMatchObject({ claim_type: 'promise', due: '2027-12-31', outcome: 'true', on_time: true });

    // Nothing independent bears on it: unresolvable, and no judge was paid to say so.
    expect(byQuote.get('Corvale Transit Authority repaired 310 stations in 2025.')).toMatchObject({ outcome: 'unresolvable', evidence: [] });

    // Every model call is in the day's spend, with its tokens and cost; the API shows it.
    const s = await spend();
    expect(s.calls).toBe(web.model.requests.length);
    expect(s.input).toBe(400 * s.calls);
    expect(Number(s.usd)).toBeCloseTo(s.calls * (400 * 3 + 60 * 15) / 1e6, 6);
    const status = (await t.app.inject({ method: 'GET', url: '/v1/status', headers })).json();
    expect(status.spend.spent_usd).toBeCloseTo(Number(s.usd), 4);
    const purposes = web.model.requests.map((r) => r.body.response_format.json_schema.name);
    expect(new Set(purposes)).toEqual(new Set(['extract', 'criteria', 'judge-a', 'judge-b']));
    // The key went to the model server as the SDK sends it, and nowhere into our tables.
    expect(web.model.requests[0]!.headers.authorization).toBe('Bearer sk-simulated-test-key');
    const leaked = await t.db.pool.query(`SELECT count(*)::int AS n FROM jobs WHERE request::text LIKE '%sk-simulated%' OR coalesce(reason, '') LIKE '%sk-simulated%'`);
    expect(leaked.rows[0].n).toBe(0);
    console.log(`hosted e2e, report: ${s.calls} model calls (${purposes.filter((p) => p === 'extract').length} extract, ${purposes.filter((p) => p === 'criteria').length} criteria, ${purposes.filter((p) => p.startsWith('judge')).length} judge), ${s.input} input + ${s.output} output tokens, $${Number(s.usd).toFixed(4)} for ${claims.length} claims`);

    // The same research again: answered from the model cache, nothing paid twice.
    const again = await t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload: { subject_id: ID, refresh: true } });
    expect((await finished(again.json().job_id)).status).toBe('complete');
    expect((await spend()).calls).toBe(s.calls);
  });

  it('checks sent claims with the model judges; the checked text leaves no trace in the model cache', async () => {
    const before = await spend();
    const sent = ['Corvale Transit Authority ran 4,200 buses in 2024.', 'Ridership rose 12% in 2024.'];
    const cacheBefore = (await t.db.pool.query(`SELECT count(*)::int AS n FROM model_cache`)).rows[0].n;
    // A day the report never used: every prompt differs from the report's, so a cached check call would add a row.
    const res = await t.app.inject({ method: 'POST', url: '/v1/check', headers, payload: { claims: sent.map((text) => ({ text })), author: SUBJECT.name, said_on: '2025-03-02' } });
    expect(res.statusCode).toBe(202);
    const job = await finished(res.json().job_id);
    expect(job.status, job.reason).toBe('complete');
    const outcomes = Object.fromEntries((job.results as Array<{ text: string; outcome: string; judges_disagree: boolean }>).map((r) => [r.text, r]));
    expect(outcomes[sent[0]!]).toMatchObject({ outcome: 'true', judges_disagree: false });
    expect(outcomes[sent[1]!]).toMatchObject({ outcome: 'mostly_true', judges_disagree: true });
    const after = await spend();
    const calls = after.calls - before.calls;
    // A fixed test and two judges a claim; nothing of the checked text is left in the model cache.
    expect(calls).toBe(3 * sent.length);
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM model_cache`)).rows[0].n).toBe(cacheBefore);
    console.log(`hosted e2e, check: ${calls / sent.length} model calls, ${(after.input - before.input) / sent.length} input + ${(after.output - before.output) / sent.length} output tokens, $${((Number(after.usd) - Number(before.usd)) / sent.length).toFixed(5)} per checked claim`);
  });

  it('resolve: a name nothing else knows goes to the model\'s short identification call, and the rules apply', async () => {
    const resolve = async (name: string) =>
      (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers, payload: { name } })).json().candidates as Array<Record<string, unknown>>;
    const ferry = await resolve('Dalmere Ferry Company');
    expect(ferry).toHaveLength(1);
    expect(ferry[0]).toMatchObject({ kind: 'organisation', known: true, eligible: true });
    // Stored: a report may be asked for by the id it was given.
    const post = await t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload: { subject_id: ferry[0]!.subject_id } });
    expect(post.statusCode).toBe(202);
    expect((await resolve('Senator Quill Harrow'))[0]).toMatchObject({ kind: 'person', serving_politician: true, eligible: false });
    expect((await resolve('Dr Wenna Ostrow'))[0]).toMatchObject({ kind: 'person', public_figure: true, eligible: true });
    expect((await resolve('Nobody We Know'))[0]).toMatchObject({ known: false, eligible: false });
    // A text's proper nouns are not sent to the model one by one.
    const calls = web.model.requests.length;
    await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers, payload: { text: 'Yesterday Mira Castell met Teodor Vance in Lunfield.' } });
    expect(web.model.requests.length).toBe(calls);
  });
});
