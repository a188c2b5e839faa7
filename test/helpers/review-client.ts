import { createReadStream } from 'node:fs';
import { ingestPack } from '../../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../../core/corpus/sample.ts';
import { subjectIdFor } from '../../core/corpus/pack.ts';
import { createKey } from '../../core/keys.ts';
import { ClaimsPageSchema, StoredReportSchema } from '../../core/schemas/resources.ts';
import { ReportReviewStateSchema } from '../../core/schemas/reviews.ts';
import { bearer, startTestApp, type TestApp } from './app.ts';
import { makeReport } from './reports.ts';

// The editorial-review tests' shared setting: a real app with workers, the sample pack, a reader key, a
// reviewer key (read and review), a review-only key, and Brightwater Utilities' first report; and the calls
// the tests make on it.

export type Headers = Record<string, string>;
export const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');
export const LABEL = 'machine-generated, unreviewed';

export type ReviewSetting = { t: TestApp; reader: Headers; reviewer: Headers; reviewOnly: Headers; reportId: string };

/** The calls of a review test on whichever setting `setting()` returns when they run. */
export function reviewClient(setting: () => ReviewSetting) {
  const get = (url: string, headers: Headers) => setting().t.app.inject({ method: 'GET', url, headers });
  const post = (url: string, headers: Headers, payload: object) => setting().t.app.inject({ method: 'POST', url, headers, payload });
  const claims = async (headers = setting().reader) => ClaimsPageSchema.parse((await get(`/v1/subjects/${BRIGHTWATER}/claims?page_size=200`, headers)).json());
  const claim = async (id: string) => (await claims()).claims.find((c) => c.claim_id === id)!;
  const stored = async (id: string) => StoredReportSchema.parse((await get(`/v1/reports/${id}`, setting().reader)).json());
  const state = async (id: string) => ReportReviewStateSchema.parse((await get(`/v1/reports/${id}/review`, setting().reviewer)).json());
  const review = (id: string, body: object, headers = setting().reviewer) => post(`/v1/claims/${id}/review`, headers, body);
  const record = async () => (await setting().t.db.pool.query('SELECT action, claim_id, report_id, response_id, reviewer FROM review_events ORDER BY id')).rows;
  return { get, post, claims, claim, stored, state, review, record };
}

/** Starts the setting: app and workers, sample pack, keys, and Brightwater's first report. */
export async function startReviewSetting(name: string): Promise<ReviewSetting> {
  const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, name, { workers: true });
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  const reader = bearer(await t.key('reader'));
  const reviewer = bearer((await createKey(t.db.pool, 'editor', ['read', 'review'])).key);
  const reviewOnly = bearer((await createKey(t.db.pool, 'review-only', ['review'])).key);
  const reportId = await makeReport(t, reader, { subject_id: BRIGHTWATER });
  return { t, reader, reviewer, reviewOnly, reportId };
}
