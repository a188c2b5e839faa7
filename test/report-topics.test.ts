import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { TOPICS } from '../core/method/outcomes.ts';
import { ClaimsPageSchema, JobPollSchema, StoredReportSchema, SubjectDetailSchema, SubjectListSchema } from '../core/schemas/resources.ts';
import { browsePage, common, indexPage, letterOf, loadSummaries, reportPages, subjectPage } from '../core/site/page-data.ts';
import { runReportJob } from '../jobs/report-worker.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';
import { storeFakeReport } from './site-fixtures.ts';

/**
 * A report on one topic is a view of its own (issue #15), seen from the API:
 * an unknown topic is refused; a topic request is answered, joined and stored
 * in its own scope; the plain request, the subject list, the claims list, the
 * export and the site's headlines stay on the whole record. Jobs are run here
 * one by one (no queue workers), so open jobs stay open while a test looks.
 * The rule itself is tested in test/report-repository.test.ts.
 */

let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'report_topics');
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  alice = bearer(await t.key('alice'));
  bob = bearer(await t.key('bob'));
});
afterAll(() => t.close());

const post = (headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload });
const get = (url: string, headers = alice) => t.app.inject({ method: 'GET', url, headers });
const run = async (jobId: string) => {
  await runReportJob(t.db.pool, jobId, { retryCount: 0, retryLimit: 0 });
  return JobPollSchema.parse((await get(`/v1/reports/${jobId}`)).json());
};
const jobsOf = async () => (await t.db.pool.query<{ id: string; topic: string | null; request: { topic: string | null } }>(`SELECT id, topic, request FROM jobs WHERE subject_id = $1 ORDER BY created_at`, [BRIGHTWATER])).rows;
const exportRecords = async () => (await get(`/v1/export?subject_id=${BRIGHTWATER}`)).body.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('an unknown topic', () => {
  it('is refused with 422 listing the allowed topics, with or without refresh, and starts no job', async () => {
    for (const payload of [{ subject_id: BRIGHTWATER, topic: 'cheese' }, { subject_id: BRIGHTWATER, topic: 'cheese', refresh: true }, { name: 'Brightwater Utilities', topic: '' }]) {
      const res = await post(alice, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const [item, ...rest] = res.json().detail;
      expect(rest).toEqual([]);
      expect(item).toMatchObject({ loc: ['body', 'topic'], type: 'enum', input: payload.topic });
      for (const topic of TOPICS) expect(item.msg).toContain(`'${topic}'`);
    }
    expect(await jobsOf()).toEqual([]);
  });

  it('is described as such in the OpenAPI file', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const request = doc.components.schemas.ReportRequest.properties.topic;
    const described = JSON.stringify(request);
    for (const topic of TOPICS) expect(described).toContain(`\`${topic}\``);
    expect(described).toMatch(/422/);
    expect(described).toMatch(/never replaces the subject's report on its whole record/);
    expect(doc.paths['/v1/reports'].post.description).toMatch(/a request without `topic` only ever gets a report on the whole record/);
    expect(JSON.stringify(doc.components.schemas.StoredReport.properties.topic)).toMatch(/whole record/);
  });
});

describe('a topic report, from request to export', () => {
  let wholeJob: string;
  let topicJob: string;
  let whole: string;
  let onEnvironment: string;
  let exportBefore: Record<string, unknown>[];

  it('a topic request never joins a job for the whole record or another topic; the same topic is shared', async () => {
    const plain = await post(alice, { subject_id: BRIGHTWATER });
    const env = await post(alice, { subject_id: BRIGHTWATER, topic: 'Environment' });
    const envAgain = await post(bob, { subject_id: BRIGHTWATER, topic: 'environment' });
    const health = await post(bob, { subject_id: BRIGHTWATER, topic: 'health' });
    const plainAgain = await post(bob, { subject_id: BRIGHTWATER });
    for (const r of [plain, env, envAgain, health, plainAgain]) expect(r.statusCode).toBe(202);
    wholeJob = plain.json().job_id;
    topicJob = env.json().job_id;
    expect(new Set([wholeJob, topicJob, health.json().job_id]).size).toBe(3);
    expect(envAgain.json().job_id).toBe(topicJob);
    expect(plainAgain.json().job_id).toBe(wholeJob);
    // Stored with the method's topic (normalised), which is what the worker scores.
    expect((await jobsOf()).map((j) => [j.topic, j.request.topic])).toEqual([[null, null], ['environment', 'environment'], ['health', 'health']]);
  });

  it('the topic job stores a report under its topic; the whole-record job one with none', async () => {
    const w = await run(wholeJob);
    expect(w.status).toBe('complete');
    whole = w.report_id!;
    exportBefore = await exportRecords();
    const e = await run(topicJob);
    expect(e.status).toBe('complete');
    onEnvironment = e.report_id!;
    expect(e.report!.caveats.map((c) => c.code)).toContain('topic_filter');
    const { rows } = await t.db.pool.query<{ id: string; topic: string | null }>('SELECT id, topic FROM reports WHERE subject_id = $1', [BRIGHTWATER]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.topic]))).toEqual({ [whole]: null, [onEnvironment]: 'environment' });
    expect(StoredReportSchema.parse((await get(`/v1/reports/${onEnvironment}`)).json()).topic).toBe('environment');
    expect(StoredReportSchema.parse((await get(`/v1/reports/${whole}`)).json()).topic).toBeNull();
  });

  it('a plain request gets the whole-record report, a topic request the report on its topic, another topic a job', async () => {
    const plain = await post(alice, { subject_id: BRIGHTWATER });
    expect(plain.statusCode).toBe(200);
    expect(StoredReportSchema.parse(plain.json())).toMatchObject({ report_id: whole, topic: null });
    const env = await post(bob, { subject_id: BRIGHTWATER, topic: 'ENVIRONMENT' });
    expect(env.statusCode).toBe(200);
    expect(StoredReportSchema.parse(env.json())).toMatchObject({ report_id: onEnvironment, topic: 'environment', stale: false });
    // No health report yet: the open health job, not a report made for something else.
    const health = await post(alice, { subject_id: BRIGHTWATER, topic: 'health' });
    expect(health.statusCode).toBe(202);
    expect(health.json().job_id).toBe((await jobsOf()).find((j) => j.topic === 'health')!.id);
  });

  it('the subject list, the subject and its claims stay on the whole record', async () => {
    // Another subject's whole-record report, made between the two: the list's order must not move Brightwater ahead of it.
    const other = await storeFakeReport(t.db.pool, { name: 'Between Times Ltd' });
    await t.db.pool.query(`UPDATE reports SET generated_at = CASE id WHEN $1 THEN now() - interval '3 hours' WHEN $2 THEN now() - interval '2 hours' ELSE now() - interval '1 hour' END WHERE id = ANY($3::text[])`, [whole, other.reportId, [whole, other.reportId, onEnvironment]]);
    const list = SubjectListSchema.parse((await get('/v1/subjects')).json()).subjects;
    expect(list.map((s) => [s.subject_id, s.latest_report!.report_id])).toEqual([[other.subjectId, other.reportId], [BRIGHTWATER, whole]]);
    expect(SubjectDetailSchema.parse((await get(`/v1/subjects/${BRIGHTWATER}`)).json()).latest_report!.report_id).toBe(whole);
    expect(ClaimsPageSchema.parse((await get(`/v1/subjects/${BRIGHTWATER}/claims`)).json()).report_id).toBe(whole);
    // A subject with reports on topics only is not listed (it has no headline), but can be looked up.
    const topicsOnly = await storeFakeReport(t.db.pool, { name: 'Only Topics Ltd', topic: 'housing' });
    await until(async () => (await get(`/v1/subjects/${topicsOnly.subjectId}`)).statusCode === 200 && true, 'the new subject', 5_000);
    expect(SubjectListSchema.parse((await get('/v1/subjects')).json()).subjects.map((s) => s.subject_id)).not.toContain(topicsOnly.subjectId);
    expect(SubjectDetailSchema.parse((await get(`/v1/subjects/${topicsOnly.subjectId}`)).json()).latest_report).toBeNull();
  });

  it('the export carries each report with its topic, and the whole-record rows are those it had before', async () => {
    const after = await exportRecords();
    const wholeRows = (rs: Record<string, unknown>[]) => rs.filter((r) => r.record === 'subject' || (r.record === 'score' && r.topic === null) || (r.record === 'claim' && r.report_topic === null));
    expect(exportBefore.length).toBeGreaterThan(2);
    expect(wholeRows(exportBefore)).toEqual(exportBefore);
    // generated_at was moved by the test above; everything else is as it was.
    const moved = (rs: Record<string, unknown>[]) => rs.map(({ generated_at: _g, ...r }) => r);
    expect(moved(wholeRows(after))).toEqual(moved(exportBefore));
    const scores = after.filter((r) => r.record === 'score');
    expect(new Set(scores.map((r) => `${r.topic}:${r.report_id}`))).toEqual(new Set([`null:${whole}`, `environment:${onEnvironment}`]));
    const claims = after.filter((r) => r.record === 'claim');
    expect(new Set(claims.map((r) => `${r.report_topic}:${r.report_id}`))).toEqual(new Set([`null:${whole}`, `environment:${onEnvironment}`]));

    const csvScores = (await get(`/v1/export?format=csv&table=scores&subject_id=${BRIGHTWATER}`)).body.trim().split(/\r?\n/).map((l) => l.split(','));
    const [header, ...rows] = csvScores as [string[], ...string[][]];
    const col = (name: string) => header.indexOf(name);
    expect(col('topic')).toBeGreaterThan(-1);
    expect(new Set(rows.map((r) => `${r[col('topic')]}:${r[col('report_id')]}`))).toEqual(new Set([`:${whole}`, `environment:${onEnvironment}`]));
    expect(rows.filter((r) => r[col('topic')] === '' && r[col('type')] === 'overall')).toHaveLength(1);

    const csvClaims = (await get(`/v1/export?format=csv&table=claims&subject_id=${BRIGHTWATER}`)).body.split(/\r?\n/)[0]!.split(',');
    expect(csvClaims).toContain('report_topic');
    expect(csvClaims).toContain('topic');
  });

  it('the site: the subject\'s headline and the index are the whole record; the topic report has its page, marked', async () => {
    const c = common();
    const sum = await loadSummaries(t.db.pool);
    const page = subjectPage(sum, BRIGHTWATER, c)!;
    expect(page.latest?.report_id).toBe(whole);
    expect(page.reports.map((r) => [r.report_id, r.topic])).toEqual([[onEnvironment, 'environment'], [whole, null]]);
    expect(indexPage(sum, c, null).latest.map((r) => r.report_id)).not.toContain(onEnvironment);
    expect(indexPage(sum, c, null).latest.map((r) => r.report_id)).toContain(whole);
    const browse = browsePage(sum, letterOf('Brightwater Utilities'), c)!;
    expect(browse.subjects.find((e) => e.subject.subject_id === BRIGHTWATER)!.latest.report_id).toBe(whole);
    const [report] = await reportPages(t.db.pool, [onEnvironment], c, null);
    expect(report).toMatchObject({ report_id: onEnvironment, topic: 'environment', topic_label: 'Environment' });
    const [plain] = await reportPages(t.db.pool, [whole], c, null);
    expect(plain).toMatchObject({ topic: null, topic_label: null });
    // A subject with reports on topics only: a subject page without a headline, and no browse entry.
    const only = subjectPage(sum, subjectIdFor('organisation', 'Only Topics Ltd'), c)!;
    expect(only.latest).toBeNull();
    expect(only.reports).toHaveLength(1);
    expect(browsePage(sum, 'o', c)).toBeNull();
  });

  it('a stale topic report is served stale while a refresh of that topic runs, and the whole record is untouched', async () => {
    const health = (await jobsOf()).find((j) => j.topic === 'health')!;
    await run(health.id);
    await t.db.pool.query(`UPDATE reports SET generated_at = now() - interval '91 days' WHERE id = $1`, [onEnvironment]);
    await until(async () => (await get(`/v1/reports/${onEnvironment}`)).json().stale === true, 'the API to hear of the change', 5_000);
    const env = await post(alice, { subject_id: BRIGHTWATER, topic: 'environment' });
    expect(env.statusCode).toBe(200);
    expect(env.json()).toMatchObject({ report_id: onEnvironment, topic: 'environment', stale: true });
    const open = (await t.db.pool.query<{ topic: string | null; key_id: string | null }>(`SELECT topic, key_id FROM jobs WHERE subject_id = $1 AND status IN ('queued', 'running')`, [BRIGHTWATER])).rows;
    expect(open).toEqual([{ topic: 'environment', key_id: null }]);
    const plain = await post(alice, { subject_id: BRIGHTWATER });
    expect(plain.json()).toMatchObject({ report_id: whole, topic: null, stale: false });
  });
});
