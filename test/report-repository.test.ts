import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '../core/method/outcomes.ts';
import {
  latestOf, latestOfEach, latestReport, latestReportSql, latestReportText, latestReportsByScope, latestWholeRecordSubjects, reportSummaries, reportsInScope,
  type ReportScope,
} from '../core/reports/repository.ts';
import { normaliseTopic } from '../core/schemas/topic.ts';
import { topicFilter } from '../core/research/score-stage.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { storeFakeReport } from './site-fixtures.ts';

/**
 * The topic rule of the reports repository, tested once here (issue #15): the
 * subject's latest report is its newest report on the whole record, never a
 * report on one topic, however new; the latest report on a topic is the
 * newest stored under that topic. Every reader (the report service and its
 * cache, the subject list, the export, the site, the label queue) asks
 * through these functions; test/report-topics.test.ts checks them from the API.
 */

let db: TestDatabase;
const HOUR = 3_600_000;

/** A stored report of `name` on `topic`, made `hoursAgo` hours ago. */
async function report(name: string, topic: string | null, hoursAgo: number): Promise<{ id: string; subjectId: string }> {
  const { reportId, subjectId } = await storeFakeReport(db.pool, { name, topic, claims: 2 });
  await db.pool.query('UPDATE reports SET generated_at = $2 WHERE id = $1', [reportId, new Date(Date.now() - hoursAgo * HOUR)]);
  return { id: reportId, subjectId };
}

let mixed: { whole: string; olderWhole: string; environment: string; health: string; subjectId: string };
let topicsOnly: { environment: string; subjectId: string };

beforeAll(async () => {
  db = await createTestDatabase('report_repository');
  // Whole-record reports older than the topic reports: exactly the case where a topic report became the headline.
  const olderWhole = await report('Mixed Reports Ltd', null, 30);
  const whole = await report('Mixed Reports Ltd', null, 20);
  const environment = await report('Mixed Reports Ltd', 'environment', 10);
  const olderEnvironment = await report('Mixed Reports Ltd', 'environment', 15);
  const health = await report('Mixed Reports Ltd', 'health', 1);
  expect(olderEnvironment.id).not.toBe(environment.id);
  mixed = { whole: whole.id, olderWhole: olderWhole.id, environment: environment.id, health: health.id, subjectId: whole.subjectId };
  const only = await report('Topics Only Trust', 'environment', 5);
  topicsOnly = { environment: only.id, subjectId: only.subjectId };
});
afterAll(() => db.drop());

describe('the latest report of a subject', () => {
  it('on the whole record: the newest whole-record report, never a newer topic report', async () => {
    expect((await latestReport(db.pool, mixed.subjectId))?.id).toBe(mixed.whole);
    expect((await latestReport(db.pool, mixed.subjectId, null))?.topic).toBeNull();
    const text = await latestReportText(db.pool, mixed.subjectId);
    expect(text).toMatchObject({ id: mixed.whole, topic: null });
    expect(JSON.parse(text!.report)).toHaveProperty('score');
  });

  it('on a topic: the newest report stored under that topic, never the whole record or another topic', async () => {
    expect(await latestReport(db.pool, mixed.subjectId, 'environment')).toMatchObject({ id: mixed.environment, topic: 'environment' });
    expect(await latestReport(db.pool, mixed.subjectId, 'health')).toMatchObject({ id: mixed.health, topic: 'health' });
    expect(await latestReportText(db.pool, mixed.subjectId, 'environment')).toMatchObject({ id: mixed.environment, topic: 'environment' });
    expect(await latestReport(db.pool, mixed.subjectId, 'economy')).toBeNull();
    expect(await latestReportText(db.pool, mixed.subjectId, 'economy')).toBeNull();
  });

  it('a subject with reports on topics only has no latest report on its whole record', async () => {
    expect(await latestReport(db.pool, topicsOnly.subjectId)).toBeNull();
    expect(await latestReportText(db.pool, topicsOnly.subjectId)).toBeNull();
    expect((await latestReport(db.pool, topicsOnly.subjectId, 'environment'))?.id).toBe(topicsOnly.environment);
  });

  it('two reports stored at the same moment: the greater id is the latest, in SQL and in memory alike', async () => {
    const a = await report('Same Moment Co', null, 2);
    const b = await report('Same Moment Co', null, 2);
    await db.pool.query('UPDATE reports SET generated_at = $2 WHERE id = ANY($1::text[])', [[a.id, b.id], new Date(Date.now() - 2 * HOUR)]);
    const expected = [a.id, b.id].sort().at(-1);
    expect((await latestReport(db.pool, a.subjectId))?.id).toBe(expected);
    expect(latestOf(await reportSummaries(db.pool), a.subjectId)?.id).toBe(expected);
  });

  it('as SQL inside other queries (a lateral join per subject), for the whole record or a topic', async () => {
    const whole = await db.pool.query<{ id: string; report_id: string | null }>(
      `SELECT s.id, r.id AS report_id FROM subjects s LEFT JOIN LATERAL (${latestReportSql('id', 's.id', null)}) r ON true WHERE s.id = ANY($1::text[])`,
      [[mixed.subjectId, topicsOnly.subjectId]],
    );
    expect(Object.fromEntries(whole.rows.map((r) => [r.id, r.report_id]))).toEqual({ [mixed.subjectId]: mixed.whole, [topicsOnly.subjectId]: null });
    const onTopic = await db.pool.query<{ id: string; report_id: string | null }>(
      `SELECT s.id, r.id AS report_id FROM subjects s LEFT JOIN LATERAL (${latestReportSql('id', 's.id', '$2')}) r ON true WHERE s.id = ANY($1::text[])`,
      [[mixed.subjectId, topicsOnly.subjectId], 'environment'],
    );
    expect(Object.fromEntries(onTopic.rows.map((r) => [r.id, r.report_id]))).toEqual({ [mixed.subjectId]: mixed.environment, [topicsOnly.subjectId]: topicsOnly.environment });
  });

  it('for every scope at once (the export): the whole record first, then each topic\'s latest', async () => {
    const rows = await latestReportsByScope(db.pool, mixed.subjectId);
    expect(rows.map((r) => [r.topic, r.id])).toEqual([[null, mixed.whole], ['environment', mixed.environment], ['health', mixed.health]]);
    expect((await latestReportsByScope(db.pool, topicsOnly.subjectId)).map((r) => [r.topic, r.id])).toEqual([['environment', topicsOnly.environment]]);
  });

  it('in memory over rows read newest first (the site): the same answer as the SQL, for every subject and scope', async () => {
    const rows = await reportSummaries(db.pool);
    const subjects = [...new Set(rows.map((r) => r.subject_id))];
    const scopes: ReportScope[] = [null, 'environment', 'health', 'economy'];
    for (const subjectId of subjects) {
      for (const scope of scopes) {
        expect(latestOf(rows, subjectId, scope)?.id ?? null, `${subjectId} ${scope}`).toBe((await latestReport(db.pool, subjectId, scope))?.id ?? null);
      }
    }
    const headlines = latestOfEach(rows, null);
    expect(headlines.get(mixed.subjectId)?.id).toBe(mixed.whole);
    expect(headlines.has(topicsOnly.subjectId)).toBe(false);
    expect(latestOfEach(rows, 'environment').get(topicsOnly.subjectId)?.id).toBe(topicsOnly.environment);
    // Every report in a scope (a subject page's record over time): the whole record's reports only, in the order given.
    expect(reportsInScope(rows, mixed.subjectId, null).map((r) => r.id)).toEqual([mixed.whole, mixed.olderWhole]);
    expect(reportsInScope(rows, topicsOnly.subjectId, null)).toEqual([]);
  });

  it('the subjects whose headlines are newest (the site\'s index): each once, however many reports the newest has', async () => {
    // Five reports of one subject newer than any other: a LIMIT on reports alone would find one subject where two are asked for.
    for (let i = 1; i <= 5; i++) await report('Prolific Board', null, i / 10);
    const headlines = [...latestOfEach(await reportSummaries(db.pool), null).keys()];
    expect(headlines.length).toBeGreaterThanOrEqual(3);
    for (const limit of [1, 2, 3, headlines.length + 1]) expect(await latestWholeRecordSubjects(db.pool, limit), `limit ${limit}`).toEqual(headlines.slice(0, limit));
  });
});

describe('the topic a report is stored under', () => {
  it('is the method\'s topic the request names, or null (the whole record) when it names none', async () => {
    const safety = await report('Stored Topic Co', 'Public safety', 1);
    const cheese = await report('Stored Topic Co', 'cheese', 1);
    const { rows } = await db.pool.query<{ id: string; topic: string | null }>('SELECT id, topic FROM reports WHERE id = ANY($1::text[])', [[safety.id, cheese.id]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.topic]))).toEqual({ [safety.id]: 'public_safety', [cheese.id]: null });
  });

  it('is read as the score stage reads it (normaliseTopic and the pipeline\'s topicFilter agree)', () => {
    const inputs = [...TOPICS, 'Public safety', 'public-safety', ' PUBLIC  SAFETY ', 'Environment', 'cheese', '', '  ', 'public__safety', 'health care', null, undefined];
    for (const input of inputs) expect(normaliseTopic(input), String(input)).toBe(topicFilter(input));
    expect(normaliseTopic('Public safety')).toBe('public_safety');
    expect(normaliseTopic('cheese')).toBeNull();
  });

  it('migration 012 rewrote the topics stored before it: the method\'s topic, or null for text that named none', async () => {
    const sql = await readFile(new URL('../core/db/migrations/012_report_topics.sql', import.meta.url), 'utf8');
    const statements = sql.split(/;\s*\n/).map((s) => s.replace(/^(\s*--[^\n]*\n)*/g, '').trim());
    const rewriteReports = statements.find((s) => s.startsWith('UPDATE reports'))!;
    const backfillJobs = statements.find((s) => s.startsWith('UPDATE jobs'))!;
    const { reportId, subjectId } = await storeFakeReport(db.pool, { name: 'Old Rows Ltd' });
    const old = { 'Public Safety': 'public_safety', ' environment ': 'environment', 'Housing-': null, cheese: null, health: 'health' } as const;
    const ids: Record<string, string> = {};
    for (const [i, raw] of Object.keys(old).entries()) {
      ids[raw] = `${reportId.slice(0, -2)}${String(i).padStart(2, '0')}`;
      await db.pool.query(
        `INSERT INTO reports (id, subject_id, method_version, depth, topic, report) SELECT $1, subject_id, method_version, depth, $2, report FROM reports WHERE id = $3`,
        [ids[raw], raw, reportId],
      );
      await db.pool.query(`INSERT INTO jobs (id, kind, status, subject_id, request) VALUES ($1, 'report', 'complete', $2, $3)`, [`job_old${i}`, subjectId, JSON.stringify({ topic: raw })]);
    }
    await db.pool.query(rewriteReports);
    await db.pool.query(backfillJobs);
    const reports = await db.pool.query<{ id: string; topic: string | null }>('SELECT id, topic FROM reports WHERE id = ANY($1::text[])', [Object.values(ids)]);
    const jobs = await db.pool.query<{ id: string; topic: string | null }>(`SELECT id, topic FROM jobs WHERE id LIKE 'job_old%' ORDER BY id`);
    const byId = new Map(reports.rows.map((r) => [r.id, r.topic]));
    for (const [raw, want] of Object.entries(old)) expect(byId.get(ids[raw]!), raw).toBe(want);
    expect(jobs.rows.map((r) => r.topic)).toEqual(Object.values(old));
    // The rewrite agrees with the function the service stores topics with.
    for (const raw of Object.keys(old)) expect(normaliseTopic(raw) ?? null, raw).toBe(old[raw as keyof typeof old]);
  });
});
