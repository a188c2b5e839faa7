import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { ClaimsPageSchema, JobPollSchema, StoredReportSchema, SubjectListSchema } from '../core/schemas/resources.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';

let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');
const LEDGER = subjectIdFor('outlet', 'The Eastmere Ledger');
const THALE = subjectIdFor('person', 'Imogen Thale');

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'reports', { workers: true });
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  alice = bearer(await t.key('alice'));
  bob = bearer(await t.key('bob'));
});
afterAll(() => t.close());

const post = (headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload });
const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: 'GET', url, headers });
const finished = (headers: Record<string, string>, jobId: string) =>
  until(async () => {
    const body = JobPollSchema.parse((await get(headers, `/v1/reports/${jobId}`)).json());
    return ['complete', 'insufficient', 'refused', 'failed'].includes(body.status) ? body : undefined;
  }, `job ${jobId} to end`, 60_000);

describe('report lifecycle', () => {
  let reportId: string;

  it('no stored report: 202 with a job, which runs and completes with the report', async () => {
    const res = await post(alice, { name: 'Brightwater Utilities' });
    expect(res.statusCode).toBe(202);
    const accepted = res.json();
    expect(accepted).toMatchObject({ status: 'queued', poll: `/v1/reports/${accepted.job_id}` });
    expect(accepted.job_id).toMatch(/^job_/);
    const job = await finished(alice, accepted.job_id);
    expect(job).toMatchObject({ status: 'complete', reason: null, kind: 'report' });
    expect(job.report_id).toMatch(/^rep_/);
    expect(job.report!.subject.subject_id).toBe(BRIGHTWATER);
    expect(job.report!.review_status).toBe('machine-generated, unreviewed');
    reportId = job.report_id!;
  });

  it('a fresh stored report: 200 with it at once; by report id too', async () => {
    const t0 = performance.now();
    const res = await post(bob, { subject_id: BRIGHTWATER });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(res.statusCode).toBe(200);
    const env = StoredReportSchema.parse(res.json());
    expect(env).toMatchObject({ report_id: reportId, status: 'complete', stale: false, html_url: `/v1/reports/${reportId}/html` });
    const byId = StoredReportSchema.parse((await get(bob, `/v1/reports/${reportId}`)).json());
    expect(byId.report).toEqual(env.report);
  });

  it('refresh: true starts a new job although a fresh report is stored', async () => {
    const res = await post(alice, { subject_id: BRIGHTWATER, refresh: true });
    expect(res.statusCode).toBe(202);
    const job = await finished(alice, res.json().job_id);
    expect(job.status).toBe('complete');
    expect(job.report_id).not.toBe(reportId);
  });

  it('two callers asking at the same moment share one job, and both may poll it', async () => {
    const [a, b] = await Promise.all([post(alice, { subject_id: LEDGER }), post(bob, { subject_id: LEDGER })]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(a.json().job_id).toBe(b.json().job_id);
    const job = await finished(bob, a.json().job_id);
    expect(job.status).toBe('complete');
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM jobs WHERE subject_id = $1`, [LEDGER])).rows[0].n).toBe(1);
    // Only one of the two paid for it.
    const quota = await t.db.pool.query(`SELECT coalesce(sum(jobs), 0)::int AS n FROM job_quota`);
    expect(quota.rows[0].n).toBe(3); // Brightwater, its refresh, and this one
  });

  it('a report 90 days old or more: 200 with stale: true while exactly one refresh job runs', async () => {
    const { rows } = await t.db.pool.query(`SELECT id FROM reports WHERE subject_id = $1`, [LEDGER]);
    // Held in the API's memory first, so that seeing it stale below means the change was heard (both of its maps are forgotten together).
    expect((await t.app.inject({ method: 'GET', url: `/v1/reports/${rows[0].id}`, headers: alice })).json().stale).toBe(false);
    await t.db.pool.query(`UPDATE reports SET generated_at = now() - interval '91 days' WHERE subject_id = $1`, [LEDGER]);
    // The API serves stored reports from memory until it hears of a change (a NOTIFY, milliseconds later).
    await until(async () => (await t.app.inject({ method: 'GET', url: `/v1/reports/${rows[0].id}`, headers: alice })).json().stale === true, 'the API to hear of the change', 5_000);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 ? alice : bob, { subject_id: LEDGER })));
    for (const a of answers) {
      expect(a.statusCode).toBe(200);
      expect(a.json()).toMatchObject({ stale: true, report_id: rows[0].id });
    }
    const refreshes = await t.db.pool.query(`SELECT id, key_id FROM jobs WHERE subject_id = $1 AND key_id IS NULL`, [LEDGER]);
    expect(refreshes.rows).toHaveLength(1);
    await until(async () => (await t.db.pool.query(`SELECT status FROM jobs WHERE id = $1`, [refreshes.rows[0].id])).rows[0].status === 'complete', 'the refresh to complete', 60_000);
    await until(async () => (await post(alice, { subject_id: LEDGER })).json().report_id !== rows[0].id, 'the new report to be served', 5_000);
    const fresh = await post(alice, { subject_id: LEDGER });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toMatchObject({ stale: false });
    expect(fresh.json().report_id).not.toBe(rows[0].id);
  });

  it('a name matching several subjects: 409 with the candidates; kind tells them apart', async () => {
    const res = await post(alice, { name: 'Jordan Avery' });
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body).toMatchObject({ status: 409, type: '/problems/conflict' });
    expect(body.candidates.map((c: { kind: string }) => c.kind).sort()).toEqual(['organisation', 'person']);
    expect((await post(alice, { name: 'Jordan Avery', kind: 'person' })).statusCode).toBe(202);
    // A URL on one namesake's own site tells them apart too.
    const byUrl = await post(alice, { name: 'Jordan Avery', urls: ['https://jordanavery-estates.example/news'] });
    expect(byUrl.statusCode).toBe(202);
    const job = await finished(alice, byUrl.json().job_id);
    expect(['complete', 'insufficient']).toContain(job.status);
    const row = (await t.db.pool.query('SELECT subject_id FROM jobs WHERE id = $1', [byUrl.json().job_id])).rows[0];
    expect(row.subject_id).toBe(subjectIdFor('organisation', 'Jordan Avery'));
  });

  it('an unknown subject: 404 problem; offline, its detail says how to add the subject or configure a model', async () => {
    const unknown = await post(alice, { name: 'Nobody We Know' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(unknown.json().detail).toMatch(/No subject named "Nobody We Know" is known to the service, and no model is configured/);
    expect(unknown.json().detail).toMatch(/source pack \(docs\/source-packs\.md/);
    expect(unknown.json().detail).toMatch(/MODEL_PROVIDER/);
    // No job was started for it.
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM jobs WHERE subject_id IS NULL AND kind = 'report'`)).rows[0].n).toBe(0);
    expect((await post(alice, { subject_id: 'sub_0000000000000000' })).statusCode).toBe(404);
  });

  it('a serving politician: the job ends refused, with the reason', async () => {
    const res = await post(alice, { name: 'Rafe Dunmore' });
    const job = await finished(alice, res.json().job_id);
    expect(job).toMatchObject({ status: 'refused', report: null });
    expect(job.reason).toMatch(/political office/);
  });

  it('a private person: refused without consent_ref, researched with it', async () => {
    const without = await finished(alice, (await post(alice, { name: 'Tobias Wren' })).json().job_id);
    expect(without.status).toBe('refused');
    expect(without.reason).toMatch(/consent_ref/);
    const withConsent = await finished(alice, (await post(alice, { name: 'Tobias Wren', consent_ref: 'signed consent 2026-10-02' })).json().job_id);
    expect(['complete', 'insufficient']).toContain(withConsent.status);
    if (withConsent.status === 'insufficient') expect(withConsent.reason).toMatch(/resolved/);
  });

  it('polling: unknown ids 404; another key\'s job 404', async () => {
    expect((await get(alice, '/v1/reports/job_nope')).statusCode).toBe(404);
    expect((await get(alice, '/v1/reports/rep_nope')).statusCode).toBe(404);
    expect((await get(alice, '/v1/reports/whatever')).statusCode).toBe(404);
    const own = (await post(alice, { subject_id: THALE })).json().job_id;
    expect((await get(bob, `/v1/reports/${own}`)).statusCode).toBe(404);
    await finished(alice, own);
  });
});

describe('subjects and claims', () => {
  it('lists subjects with a stored report, newest report first', async () => {
    const list = SubjectListSchema.parse((await get(alice, '/v1/subjects')).json());
    const ids = list.subjects.map((s) => s.subject_id);
    expect(ids).toContain(BRIGHTWATER);
    expect(ids).not.toContain(subjectIdFor('person', 'Rafe Dunmore'));
    const times = list.subjects.map((s) => s.latest_report!.generated_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(list.paging).toEqual({ page: 1, page_size: 50, total: ids.length, total_pages: Math.ceil(ids.length / 50) });
    expect(ids.length).toBeGreaterThan(1);
  });

  it('pages the subject list as every list is paged', async () => {
    const whole = SubjectListSchema.parse((await get(alice, '/v1/subjects?page_size=200')).json());
    const pages = [];
    for (let page = 1; page <= whole.paging.total; page++) {
      const one = SubjectListSchema.parse((await get(alice, `/v1/subjects?page=${page}&page_size=1`)).json());
      expect(one.paging).toEqual({ page, page_size: 1, total: whole.paging.total, total_pages: whole.paging.total });
      pages.push(...one.subjects);
    }
    expect(pages).toEqual(whole.subjects);
    const past = SubjectListSchema.parse((await get(alice, `/v1/subjects?page=${whole.paging.total + 1}&page_size=1`)).json());
    expect(past).toEqual({ subjects: [], paging: { page: whole.paging.total + 1, page_size: 1, total: whole.paging.total, total_pages: whole.paging.total } });
    expect((await get(alice, '/v1/subjects?page_size=201')).statusCode).toBe(422);
  });

  it('gets one subject; an unknown one 404', async () => {
    expect((await get(alice, `/v1/subjects/${BRIGHTWATER}`)).json()).toMatchObject({ subject_id: BRIGHTWATER, kind: 'organisation' });
    expect((await get(alice, '/v1/subjects/sub_0000000000000000')).statusCode).toBe(404);
  });

  it('lists every claim of the latest report, filtered and paged', async () => {
    const all = ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?page_size=200`)).json());
    expect(all.claims.length).toBe(all.paging.total);
    expect(all.claims.length).toBeGreaterThan(10);
    for (const c of all.claims) expect(c).toMatchObject({ review_status: 'machine-generated, unreviewed', responses: [] });
    const promises = ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?type=promise`)).json());
    expect(promises.claims.length).toBe(all.claims.filter((c) => c.claim_type === 'promise').length);
    expect(promises.claims.every((c) => c.claim_type === 'promise')).toBe(true);
    const pending = ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?outcome=pending&claim_type=promise`)).json());
    expect(pending.claims.every((c) => c.outcome === 'pending' && c.claim_type === 'promise')).toBe(true);
    const topic = all.claims[0]!.topic;
    const byTopic = ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?topic=${topic}`)).json());
    expect(byTopic.paging.total).toBe(all.claims.filter((c) => c.topic === topic).length);
    const page2 = ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?page=2&page_size=3`)).json());
    expect(page2.claims.map((c) => c.claim_id)).toEqual(all.claims.slice(3, 6).map((c) => c.claim_id));
    expect(page2.paging).toMatchObject({ page: 2, page_size: 3, total: all.paging.total, total_pages: Math.ceil(all.paging.total / 3) });
    const beyond = ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?page=999`)).json());
    expect(beyond.claims).toEqual([]);
    expect((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?page_size=201`)).statusCode).toBe(422);
    expect((await get(alice, `/v1/subjects/${subjectIdFor('person', 'Rafe Dunmore')}/claims`)).statusCode).toBe(404);
  });

  it('resolves names and texts into candidates, known ones with ids', async () => {
    const byName = (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers: alice, payload: { name: 'Brightwater' } })).json();
    expect(byName.candidates).toEqual([expect.objectContaining({ subject_id: BRIGHTWATER, known: true, eligible: true })]);
    const text = 'At the meeting, Imogen Thale disagreed with Rafe Dunmore about the figures Brightwater Utilities published.';
    const byText = (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers: alice, payload: { text } })).json();
    const found = Object.fromEntries(byText.candidates.map((c: { name: string }) => [c.name, c]));
    expect(found['Imogen Thale']).toMatchObject({ subject_id: THALE, eligible: true });
    expect(found['Rafe Dunmore']).toMatchObject({ serving_politician: true, eligible: false });
    expect(found['Brightwater Utilities']).toMatchObject({ subject_id: BRIGHTWATER });
    const unknown = (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers: alice, payload: { name: 'Quentin Nobody' } })).json();
    expect(unknown.candidates).toEqual([expect.objectContaining({ subject_id: null, known: false, eligible: false })]);
    const byHandle = (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers: alice, payload: { handles: ['@brightwater_sample'] } })).json();
    expect(byHandle.candidates).toEqual([expect.objectContaining({ subject_id: BRIGHTWATER })]);
    const byUrl = (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers: alice, payload: { name: 'Jordan Avery', urls: ['https://www.calder-institute.example/people/jordan-avery'] } })).json();
    expect(byUrl.candidates.map((c: { kind: string }) => c.kind)).toEqual(['person']);
    const priv = (await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers: alice, payload: { name: 'Tobias Wren' } })).json();
    expect(priv.candidates[0]).toMatchObject({ needs_consent_ref: true, public_figure: false });
    // The text is not stored anywhere.
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM jobs WHERE request::text LIKE '%disagreed with%'`);
    expect(rows[0].n).toBe(0);
  });
});
