import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scoreClaims, type ScoringClaim } from '../core/method/score.ts';
import { storeReport, type StoredClaim } from '../core/reports/store.ts';
import { ClaimsPageSchema } from '../core/schemas/resources.ts';
import {
  ClaimReviewAckSchema, ReplyReviewAckSchema, ReviewQueueSchema, ReviewRecordSchema, SignOffAckSchema,
} from '../core/schemas/reviews.ts';
import { type TestApp } from './helpers/app.ts';
import { BRIGHTWATER, LABEL, reviewClient, startReviewSetting, type Headers, type ReviewSetting } from './helpers/review-client.ts';
import { makeReport as makeReportOn } from './helpers/reports.ts';

/**
 * Editorial review end to end (issue #18), on the real embedded PostgreSQL,
 * the real HTTP app and a report made by the real pipeline from the sample
 * pack: reviews of claims (confirmed, corrected, stale, raced), the report's
 * sign-off and its withdrawal, decisions on replies, the queue, reviews
 * surviving (or lapsing on) a remade report, and the record in the export.
 * Key scopes are in review-scopes.test.ts.
 */

let setting: ReviewSetting;
let t: TestApp;
let reader: Headers;
let reviewer: Headers;
let reportId: string;
const { get, post, claims, claim, stored, state, review, record } = reviewClient(() => setting);
const makeReport = (headers: Headers, payload: object) => makeReportOn(t, headers, payload);

/** Another outcome of the scale than this one: what a correction sends. */
const other = (o: string) => (o === 'false' ? 'true' : 'false');

beforeAll(async () => {
  setting = await startReviewSetting('reviews');
  ({ t, reader, reviewer, reportId } = setting);
}, 120_000);
afterAll(() => t.close());

describe('the queue', () => {
  it('lists every unreviewed claim of the latest report, featured first, then by weight on the headline, paged', async () => {
    const all = ReviewQueueSchema.parse((await get(`/v1/reviews/queue?page_size=200`, reviewer)).json());
    const page = await claims();
    expect(all.paging.total).toBe(page.claims.length);
    expect(all.items.every((i) => i.report_id === reportId && i.waiting_for.includes('review') && i.claim.review_status === LABEL)).toBe(true);
    const report = await stored(reportId);
    const featured = new Set(report.report.featured_claims.map((f) => f.claim_id));
    expect(featured.size).toBeGreaterThan(1);
    const n = featured.size;
    expect(new Set(all.items.slice(0, n).map((i) => i.claim.claim_id))).toEqual(featured);
    for (let i = 1; i < all.items.length; i++) {
      const [a, b] = [all.items[i - 1]!, all.items[i]!];
      if (a.featured === b.featured) expect(a.weight).toBeGreaterThanOrEqual(b.weight);
      else expect(a.featured).toBe(true);
    }
    // Weights are the method's: leaving a heavy claim out moves the headline by that much.
    const heavy = all.items.find((i) => !i.featured && i.weight > 0)!;
    // (Clustered by source document, as the pipeline scores them: claims of one source count as correlated.)
    const scoring = page.claims.map((c): ScoringClaim => ({ claim_id: c.claim_id, claim_type: c.claim_type, topic: c.topic, outcome: c.outcome, judges_disagree: c.judges_disagree, on_time: c.on_time, quote: c.quote, said_on: c.said_on ?? '', ...(c.source?.url ? { cluster: c.source.url } : {}) }));
    const without = scoreClaims(scoring.filter((c) => c.claim_id !== heavy.claim.claim_id));
    expect(without.status).toBe('scored');
    if (without.status === 'scored') expect(Math.abs(report.report.score.score - without.score.score)).toBeCloseTo(heavy.weight, 1);
    const second = ReviewQueueSchema.parse((await get(`/v1/reviews/queue?page=2&page_size=3`, reviewer)).json());
    expect(second.items.map((i) => i.claim.claim_id)).toEqual(all.items.slice(3, 6).map((i) => i.claim.claim_id));
    expect(second.paging).toEqual({ page: 2, page_size: 3, total: all.paging.total, total_pages: Math.ceil(all.paging.total / 3) });
    expect((await get(`/v1/reviews/queue?subject_id=sub_nobody`, reviewer)).json().paging.total).toBe(0);
    expect((await get(`/v1/reviews/queue?page_size=0`, reviewer)).statusCode).toBe(422);
  });
});

describe('reviewing a claim', () => {
  let confirmed: string;
  let corrected: string;

  it('a reviewer confirms the machine\'s outcome: the claim is reviewed, the machine\'s verdict kept beside, the report counts it and keeps the label', async () => {
    const report = await stored(reportId);
    confirmed = report.report.featured_claims[0]!.claim_id;
    const before = await claim(confirmed);
    expect(before).toMatchObject({ review_status: LABEL, review: { decision: null, revision: 0, lapsed: null } });
    const res = await review(confirmed, { version: before.review.version, outcome: before.outcome, rationale: 'The regulator\'s figures match the claim.', reviewer: 'Ada Editor' });
    expect(res.statusCode).toBe(200);
    const ack = ClaimReviewAckSchema.parse(res.json());
    expect(ack.claim).toMatchObject({
      claim_id: confirmed, review_status: 'reviewed', outcome: before.outcome, rationale: 'The regulator\'s figures match the claim.',
      machine_verdict: { outcome: before.outcome, rationale: before.rationale, judges_disagree: before.judges_disagree },
      review: { decision: 'confirmed', reviewer: 'Ada Editor', revision: 1, lapsed: null },
    });
    expect(ack.claim.review.version).not.toBe(before.review.version);
    expect(ack.record).toMatchObject({ action: 'claim_review', claim_id: confirmed, report_id: reportId, reviewer: 'Ada Editor', before: { review_status: LABEL }, after: { review_status: 'reviewed', decision: 'confirmed' } });
    expect(await claim(confirmed)).toEqual(ack.claim);
    const after = await stored(reportId);
    expect(after.report.review_status).toBe(LABEL);
    expect(after.report.review).toMatchObject({ claims_reviewed: 1, claims_total: (await claims()).claims.length, signed_off_by: null });
    expect(after.report.score).toEqual(report.report.score);
  });

  it('a reviewer corrects another: any outcome of the scale, with a rationale; the claims list filters by the outcome that stands', async () => {
    const report = await stored(reportId);
    corrected = report.report.featured_claims[1]!.claim_id;
    const before = await claim(corrected);
    const outcome = other(before.outcome);
    const ack = ClaimReviewAckSchema.parse((await review(corrected, { version: before.review.version, outcome, rationale: 'The annual report gives another figure.', reviewer: 'Ben Checker' })).json());
    expect(ack.claim).toMatchObject({ outcome, review_status: 'reviewed', machine_verdict: { outcome: before.outcome }, review: { decision: 'corrected', reviewer: 'Ben Checker' } });
    const filtered = ClaimsPageSchema.parse((await get(`/v1/subjects/${BRIGHTWATER}/claims?outcome=${outcome}&page_size=200`, reader)).json());
    expect(filtered.claims.map((c) => c.claim_id)).toContain(corrected);
    const machineFiltered = ClaimsPageSchema.parse((await get(`/v1/subjects/${BRIGHTWATER}/claims?outcome=${before.outcome}&page_size=200`, reader)).json());
    expect(machineFiltered.claims.map((c) => c.claim_id)).not.toContain(corrected);
    expect((await stored(reportId)).report.review.claims_reviewed).toBe(2);
  });

  it('bad input: unknown claim 404, a check result\'s id 404, a bad outcome 422, missing fields 422; nothing recorded', async () => {
    const before = (await record()).length;
    const c = await claim(corrected);
    for (const id of ['clm_00000000000000000000', 'chk_00000000000000000000']) {
      const res = await review(id, { version: 'x.0', outcome: 'true', rationale: 'r', reviewer: 'r' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ type: '/problems/not-found', status: 404 });
    }
    const bad = await review(corrected, { version: c.review.version, outcome: 'very_false', rationale: 'r', reviewer: 'r' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toEqual([expect.objectContaining({ loc: ['body', 'outcome'], type: 'enum' })]);
    const missing = await review(corrected, { version: c.review.version, outcome: 'true' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.rationale', 'body.reviewer']);
    expect((await review(corrected, { version: c.review.version, outcome: 'true', rationale: '   ', reviewer: 'r' })).statusCode).toBe(422);
    expect((await record()).length).toBe(before);
  });

  it('a stale version is refused with 409: reviewed since (review-conflict), or changed since (claim-changed)', async () => {
    const c = await claim(confirmed);
    const staleRev = `${c.review.version.split('.')[0]}.0`;
    const conflict = await review(confirmed, { version: staleRev, outcome: 'false', rationale: 'r', reviewer: 'Late Reviewer' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ type: '/problems/review-conflict', current_version: c.review.version });
    expect(conflict.json().detail).toContain('Ada Editor');
    const changed = await review(confirmed, { version: '0000000000000000.1', outcome: 'false', rationale: 'r', reviewer: 'Late Reviewer' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ type: '/problems/claim-changed', current_version: c.review.version });
    expect(await claim(confirmed)).toEqual(c);
  });

  it('two reviewers at once on one claim: one review is kept, the other is refused; the record and the counts agree', async () => {
    const page = await claims();
    const target = page.claims.find((c) => c.review_status === LABEL)!;
    const [a, b] = await Promise.all([
      review(target.claim_id, { version: target.review.version, outcome: 'true', rationale: 'First reviewer.', reviewer: 'Reviewer A' }),
      review(target.claim_id, { version: target.review.version, outcome: 'false', rationale: 'Second reviewer.', reviewer: 'Reviewer B' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? a : b;
    const loser = a.statusCode === 200 ? b : a;
    expect(loser.json()).toMatchObject({ type: '/problems/review-conflict' });
    const now = await claim(target.claim_id);
    expect(now).toEqual(ClaimReviewAckSchema.parse(winner.json()).claim);
    const entries = (await record()).filter((e) => e.claim_id === target.claim_id);
    expect(entries).toEqual([{ action: 'claim_review', claim_id: target.claim_id, report_id: reportId, response_id: null, reviewer: now.review.reviewer }]);
    expect((await stored(reportId)).report.review.claims_reviewed).toBe(3);
  });

  it('reviews of many claims of one report at once are all counted', async () => {
    const open = (await claims()).claims.filter((c) => c.review_status === LABEL).slice(0, 4);
    const answers = await Promise.all(open.map((c) => review(c.claim_id, { version: c.review.version, outcome: c.outcome, rationale: 'Checked.', reviewer: 'Batch Reviewer' })));
    expect(answers.map((r) => r.statusCode)).toEqual(open.map(() => 200));
    const page = await claims();
    const reviewed = page.claims.filter((c) => c.review_status === 'reviewed').length;
    expect(reviewed).toBe(3 + open.length);
    expect((await stored(reportId)).report.review.claims_reviewed).toBe(reviewed);
  });
});

describe('replies', () => {
  let responseId: string;
  let claimId: string;

  it('a reply waits in the queue until a reviewer accepts it, with a published note shown on the claim', async () => {
    const report = await stored(reportId);
    claimId = report.report.featured_claims[1]!.claim_id;
    const sent = await post('/v1/responses', reader, { claim_id: claimId, name: 'Lena Marsh', role: 'Chief executive', statement: 'Our annual report gives the right figure.' });
    expect(sent.statusCode).toBe(200);
    responseId = sent.json().response_id;
    const queued = ReviewQueueSchema.parse((await get('/v1/reviews/queue?page_size=200', reviewer)).json()).items.find((i) => i.claim.claim_id === claimId)!;
    expect(queued).toMatchObject({ replies_waiting: 1, waiting_for: ['replies'] });
    const res = await post(`/v1/responses/${responseId}/review`, reviewer, { decision: 'accepted', note: 'Accepted: the claim was corrected to the annual report\'s figure.', reviewer: 'Ben Checker' });
    expect(res.statusCode).toBe(200);
    const ack = ReplyReviewAckSchema.parse(res.json());
    expect(ack.response).toMatchObject({ response_id: responseId, status: 'reviewed: accepted', review: { decision: 'accepted', reviewer: 'Ben Checker', note: 'Accepted: the claim was corrected to the annual report\'s figure.' } });
    expect(ack.record).toMatchObject({ action: 'reply_decision', response_id: responseId, claim_id: claimId, before: { status: 'response received, not yet reviewed' }, after: { status: 'reviewed: accepted', decision: 'accepted' } });
    expect((await claim(claimId)).responses[0]).toEqual(ack.response);
    const queue = ReviewQueueSchema.parse((await get('/v1/reviews/queue?page_size=200', reviewer)).json());
    expect(queue.items.map((i) => i.claim.claim_id)).not.toContain(claimId);
  });

  it('bad input: unknown reply 404, a bad decision or no note 422', async () => {
    expect((await post('/v1/responses/rsp_00000000000000000000/review', reviewer, { decision: 'accepted', note: 'n', reviewer: 'r' })).statusCode).toBe(404);
    const bad = await post(`/v1/responses/${responseId}/review`, reviewer, { decision: 'maybe', reviewer: 'r' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual(['body.decision', 'body.note']);
    expect((await post(`/v1/responses/${responseId}/review`, reviewer, { decision: 'accepted', note: 'x'.repeat(501), reviewer: 'r' })).statusCode).toBe(422);
  });
});

describe('signing a report off', () => {
  let machineScore: unknown;

  it('is refused until every featured claim and every claim that moves the headline by more than the threshold is reviewed', async () => {
    const s = await state(reportId);
    expect(s.weight_threshold).toBe(2);
    expect(s.can_sign_off).toBe(false);
    expect(s.missing.length).toBeGreaterThan(0);
    for (const r of s.required) expect(r.featured || r.weight > 2).toBe(true);
    const res = await post(`/v1/reports/${reportId}/review`, reviewer, { reviewer: 'Ada Editor' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ type: '/problems/review-incomplete', missing: s.missing });
    expect((await stored(reportId)).report.review_status).toBe(LABEL);
    expect((await get('/v1/reports/rep_00000000000000000000/review', reviewer)).statusCode).toBe(404);
    expect((await post('/v1/reports/rep_00000000000000000000/review', reviewer, { reviewer: 'x' })).statusCode).toBe(404);
  });

  it('once they are, the sign-off recomputes the score with the reviewed outcomes and removes the label', async () => {
    for (;;) {
      const s = await state(reportId);
      if (s.missing.length === 0) break;
      const c = await claim(s.missing[0]!);
      expect((await review(c.claim_id, { version: c.review.version, outcome: c.outcome, rationale: 'Checked against the evidence.', reviewer: 'Ada Editor' })).statusCode).toBe(200);
    }
    const before = await stored(reportId);
    machineScore = before.report.score;
    const page = await claims();
    // The score the method gives with every reviewed outcome in place of the machine's, worked out here independently.
    const expected = scoreClaims(page.claims.map((c): ScoringClaim => ({
      claim_id: c.claim_id, claim_type: c.claim_type, topic: c.topic, outcome: c.outcome, judges_disagree: c.judges_disagree, on_time: c.on_time, quote: c.quote, said_on: c.said_on ?? '',
      // Claims of one source are correlated, as in the pipeline's own score.
      cluster: c.source.url,
      ...(c.review_status === 'reviewed' ? { reviewed: true } : {}),
    })));
    expect(expected.status).toBe('scored');
    const preview = await state(reportId);
    expect(preview.can_sign_off).toBe(true);
    if (expected.status === 'scored') expect(preview.reviewed_score).toEqual(expected.score);
    const res = await post(`/v1/reports/${reportId}/review`, reviewer, { reviewer: 'Ada Editor', note: 'Featured and weighty claims checked.' });
    expect(res.statusCode).toBe(200);
    const ack = SignOffAckSchema.parse(res.json());
    expect(ack).toMatchObject({ review_status: 'reviewed', signed_off_by: 'Ada Editor', can_sign_off: false, machine_score: machineScore, record: { action: 'report_signoff', report_id: reportId } });
    const after = await stored(reportId);
    expect(after.report.review_status).toBe('reviewed');
    if (expected.status === 'scored') {
      expect(after.report.score).toEqual(expected.score);
      expect(after.report.scores).toEqual(expected.scores);
      expect(after.report.featured_claims).toEqual(expected.featured_claims);
    }
    expect(after.report.review).toMatchObject({ signed_off_by: 'Ada Editor', note: 'Featured and weighty claims checked.', machine_score: machineScore });
    expect(after.report.review.claims_reviewed).toBe(page.claims.filter((c) => c.review_status === 'reviewed').length);
    const machineCaveat = after.report.caveats.find((c) => c.code === 'machine_generated');
    if (after.report.review.claims_reviewed < after.report.review.claims_total) expect(machineCaveat?.message).toMatch(/signed this report off.*Some outcomes were set by machine judges/);
    // The subject's headline follows.
    expect((await get(`/v1/subjects/${BRIGHTWATER}`, reader)).json().latest_report.score).toBe(after.report.score.score);
    // Claims no one reviewed keep the label.
    expect(page.claims.some((c) => c.review_status === LABEL)).toBe(true);
  });

  it('a second sign-off is refused with 409', async () => {
    const res = await post(`/v1/reports/${reportId}/review`, reviewer, { reviewer: 'Ben Checker' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ type: '/problems/review-conflict' });
    expect(res.json().detail).toContain('Ada Editor');
  });

  it('a review that leaves an outcome as it was keeps the sign-off; one that changes it withdraws it, and the record says why', async () => {
    const required = (await state(reportId)).required;
    const c = await claim(required[0]!.claim_id);
    const same = ClaimReviewAckSchema.parse((await review(c.claim_id, { version: c.review.version, outcome: c.outcome, rationale: 'Checked a second time.', reviewer: 'Ada Editor' })).json());
    expect(same.signoffs_withdrawn).toEqual([]);
    expect(same.claim.review.revision).toBe(c.review.revision + 1);
    expect((await stored(reportId)).report.review_status).toBe('reviewed');
    const changed = ClaimReviewAckSchema.parse((await review(c.claim_id, { version: same.claim.review.version, outcome: other(c.outcome), rationale: 'New evidence.', reviewer: 'Ben Checker' })).json());
    expect(changed.signoffs_withdrawn).toEqual([reportId]);
    const back = await stored(reportId);
    expect(back.report.review_status).toBe(LABEL);
    expect(back.report.score).toEqual(machineScore);
    expect(back.report.review).toMatchObject({ signed_off_by: null, machine_score: null });
    const { rows } = await t.db.pool.query(`SELECT reviewer, note, before->>'review_status' AS was FROM review_events WHERE action = 'signoff_withdrawn'`);
    expect(rows).toEqual([{ reviewer: 'Ben Checker', note: expect.stringContaining(`Claim ${c.claim_id} was reviewed again after the sign-off`), was: 'reviewed' }]);
  });

  it('two reviewers signing off at once: one sign-off, one 409', async () => {
    // The corrected outcome may have made another claim featured: review what the sign-off now needs.
    for (const id of (await state(reportId)).missing) {
      const c = await claim(id);
      expect((await review(id, { version: c.review.version, outcome: c.outcome, rationale: 'Checked.', reviewer: 'Ada Editor' })).statusCode).toBe(200);
    }
    const [a, b] = await Promise.all([
      post(`/v1/reports/${reportId}/review`, reviewer, { reviewer: 'Reviewer A' }),
      post(`/v1/reports/${reportId}/review`, reviewer, { reviewer: 'Reviewer B' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM review_events WHERE action = 'report_signoff' AND report_id = $1`, [reportId]);
    expect(rows[0].n).toBe(2);
    expect((await stored(reportId)).report.review.signed_off_by).toBe((a.statusCode === 200 ? 'Reviewer A' : 'Reviewer B'));
  });
});

describe('a remade report', () => {
  it('keeps every review of a claim whose quote, fixed test and evidence are unchanged; the new report needs its own sign-off', async () => {
    const before = await claims();
    const reviewed = before.claims.filter((c) => c.review_status === 'reviewed');
    const remade = await makeReport(reader, { subject_id: BRIGHTWATER, refresh: true });
    expect(remade).not.toBe(reportId);
    const after = await claims();
    expect(after.report_id).toBe(remade);
    for (const c of reviewed) expect(after.claims.find((x) => x.claim_id === c.claim_id)).toMatchObject({ review_status: 'reviewed', outcome: c.outcome, review: { version: c.review.version } });
    const report = await stored(remade);
    expect(report.report.review_status).toBe(LABEL);
    expect(report.report.review).toMatchObject({ claims_reviewed: reviewed.length, signed_off_by: null });
    expect((await state(remade)).missing).toEqual([]);
    // The first report stays signed off, and the record lost nothing.
    expect((await stored(reportId)).report.review_status).toBe('reviewed');
    expect((await record()).filter((e) => e.action === 'review_lapsed')).toEqual([]);
  });

  it('a claim whose evidence changed is unreviewed again and says why; the record notes the lapse; a review of the old version is refused', async () => {
    const page = await claims();
    const target = page.claims.find((c) => c.review_status === 'reviewed' && c.evidence.length > 0)!;
    const rows = (await t.db.pool.query<{ data: StoredClaim }>('SELECT data FROM claims WHERE report_id = $1 ORDER BY position', [page.report_id])).rows.map((r) => r.data);
    const changed = rows.map((c) => (c.claim_id === target.claim_id ? { ...c, evidence: [...(c.evidence as object[]).slice(1), { url: 'https://regulator.example/new', publisher: 'Regulator', published: '2026-01-02', quote: 'A new figure.', independent_of_subject: true }] } : c));
    const old = await stored(page.report_id);
    const { reportId: third } = await storeReport(t.db.pool, { subjectId: BRIGHTWATER, methodVersion: old.report.method_version, depth: 'quick', topic: null, report: old.report as unknown as Record<string, unknown>, claims: changed });
    const now = await claim(target.claim_id);
    expect(now.review_status).toBe(LABEL);
    expect(now.outcome).toBe(target.machine_verdict.outcome);
    expect(now.review.lapsed).toMatchObject({ changed: ['evidence'], reviewer: target.review.reviewer, outcome: target.outcome });
    expect(now.review.lapsed!.reason).toMatch(/its evidence changed when the report was remade/);
    expect((await stored(third)).report.review.claims_reviewed).toBe(page.claims.filter((c) => c.review_status === 'reviewed').length - 1);
    const lapses = (await t.db.pool.query(`SELECT report_id, claim_id, reviewer, after->'changed' AS changed FROM review_events WHERE action = 'review_lapsed'`)).rows;
    expect(lapses).toEqual([{ report_id: third, claim_id: target.claim_id, reviewer: null, changed: ['evidence'] }]);
    const stale = await review(target.claim_id, { version: target.review.version, outcome: target.outcome, rationale: 'r', reviewer: 'r' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ type: '/problems/claim-changed', current_version: now.review.version });
    // The report it was reviewed in still shows it reviewed: the review holds for that version.
    const inOld = (await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM claims c JOIN claim_reviews r ON r.claim_id = c.claim_id AND r.content_hash = c.content_hash WHERE c.report_id = $1 AND c.claim_id = $2`,
      [page.report_id, target.claim_id],
    )).rows[0]!.n;
    expect(inOld).toBe(1);
  });
});

describe('the record in the export', () => {
  it('JSON Lines: every review, sign-off, withdrawal, lapse and reply decision, with who, when, before and after; claims and scores carry their review status', async () => {
    const res = await get(`/v1/export?subject_id=${BRIGHTWATER}`, reader);
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\n').map((l) => JSON.parse(l));
    const reviews = lines.filter((l) => l.record === 'review');
    const inDb = (await t.db.pool.query('SELECT count(*)::int AS n FROM review_events')).rows[0].n;
    expect(reviews).toHaveLength(inDb);
    for (const r of reviews) {
      const { record: _r, ...entry } = r;
      ReviewRecordSchema.parse(entry);
      expect(r).toHaveProperty('before');
      expect(r).toHaveProperty('after');
      expect(r.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    expect(new Set(reviews.map((r) => r.action))).toEqual(new Set(['claim_review', 'report_signoff', 'signoff_withdrawn', 'reply_decision', 'review_lapsed']));
    expect(reviews.map((r) => r.record_id)).toEqual([...reviews.map((r) => r.record_id)].sort((a, b) => a - b));
    const claimsOut = lines.filter((l) => l.record === 'claim');
    expect(claimsOut.some((c) => c.review_status === 'reviewed' && c.machine_verdict && c.review.reviewer)).toBe(true);
    expect(claimsOut.some((c) => c.review_status === LABEL)).toBe(true);
    expect(lines.filter((l) => l.record === 'score').every((s) => s.review_status === LABEL)).toBe(true);
  });

  it('CSV: the reviews table, and the claims table with the machine\'s outcome beside the reviewed one', async () => {
    const res = await get(`/v1/export?format=csv&table=reviews&subject_id=${BRIGHTWATER}`, reader);
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe('record_id,action,subject_id,report_id,claim_id,response_id,reviewer,at,before,after,note');
    expect(res.body).toContain('report_signoff');
    expect(res.body).toContain('reply_decision');
    const claimsCsv = (await get(`/v1/export?format=csv&table=claims&subject_id=${BRIGHTWATER}`, reader)).body;
    expect(claimsCsv.split(/\r?\n/)[0]).toMatch(/,review_status,machine_outcome,review_decision,reviewed_by,reviewed_at$/);
    expect(claimsCsv).toMatch(/,reviewed,(true|mostly_true|mixed|mostly_false|false|unresolvable|pending),(confirmed|corrected),/);
  });
});
