import { VERSION_COLUMNS, type ClaimVersion } from '../claims.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { DomainError, NotFoundError } from '../errors.ts';
import { REVIEW_LABEL, type Outcome, type Topic } from '../method/outcomes.ts';
import type { Caveat, HeadlineScore, ScoringResult } from '../method/score.ts';
import { METHOD_SEMVER } from '../method/version.ts';
import { REVIEWED, unsignedSummary, type ReportReviewSummary } from '../schemas/review-state.ts';
import type { SignOffRequest } from '../schemas/reviews.ts';
import { reviewRows } from './claims.ts';
import { appendRecord } from './record.ts';
import { REVIEW_WEIGHT_POINTS, headlineWeights, mustBeReviewed, rescore, scoringClaimOf, type StoredScoringFields } from './weights.ts';

/**
 * Reviews of reports (issue #18, item 3). A report's row holds what every
 * reader serves (the API from its cache, the pages, the export, MCP), so
 * editorial review writes there: the reviewed-claims count on every claim
 * review, and on sign-off the score recomputed by the method with the
 * reviewed outcomes, the machine's report kept whole in report_signoffs (and
 * put back if the sign-off is withdrawn). Every write to reports sends the
 * change notice that empties the API's caches (migration 010).
 *
 * Lock order, so that no two review acts deadlock: a claim's advisory lock
 * first (claim reviews, storeReport), then report rows in id order.
 */

type ReportRow = { id: string; subject_id: string; topic: Topic | null; method_version: string; report: StoredReportJson };
type StoredReportJson = Record<string, unknown> & {
  score: HeadlineScore; featured_claims?: { claim_id: string }[]; caveats?: Caveat[]; review?: ReportReviewSummary; review_status?: string;
};
type ClaimRow = ClaimVersion & { claim_id: string; data: StoredScoringFields & { quote: string }; featured: boolean | null; headline_weight: number | null };

/** Locks every report that carries the claim, in id order; returns their ids. */
export async function lockReportsCarrying(tx: Queryable, claimId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM reports WHERE id IN (SELECT report_id FROM claims WHERE claim_id = $1) ORDER BY id FOR UPDATE',
    [claimId],
  );
  return rows.map((r) => r.id);
}

/**
 * Brings each report's `review.claims_total` and `claims_reviewed` up to
 * date. The rows must be locked by the caller (or new): the counts are read
 * by a statement that starts after the lock is held, so two reviews of
 * claims of one report, committed one after the other, both count.
 */
export async function refreshReviewCounts(tx: Queryable, reportIds: readonly string[]): Promise<void> {
  if (reportIds.length === 0) return;
  await tx.query(
    `UPDATE reports r SET report = jsonb_set(r.report, '{review}', coalesce(r.report->'review', $2::jsonb) || jsonb_build_object('claims_total', x.total, 'claims_reviewed', x.reviewed))
       FROM (SELECT c.report_id, count(*)::int AS total, count(cr.claim_id)::int AS reviewed
               FROM claims c LEFT JOIN claim_reviews cr ON cr.claim_id = c.claim_id AND cr.content_hash = c.content_hash
              WHERE c.report_id = ANY($1::text[]) GROUP BY c.report_id) x
      WHERE r.id = x.report_id
        AND (r.report->'review'->'claims_total' IS DISTINCT FROM to_jsonb(x.total) OR r.report->'review'->'claims_reviewed' IS DISTINCT FROM to_jsonb(x.reviewed))`,
    [reportIds, JSON.stringify(unsignedSummary(0, 0))],
  );
}

const CLAIM_COLUMNS = `claim_id, data, ${VERSION_COLUMNS.join(', ')}, featured, headline_weight`;

/** What a new report's claims weigh (storeReport): featured as the machine made it, and each claim's weight on its headline. */
export function weighClaims(claims: readonly StoredScoringFields[], featuredIds: readonly string[], topic: Topic | null): Map<string, { featured: boolean; weight: number }> {
  const weights = headlineWeights(claims.map(scoringClaimOf), topic);
  const featured = new Set(featuredIds);
  return new Map(claims.map((c) => [c.claim_id, { featured: featured.has(c.claim_id), weight: weights.get(c.claim_id) ?? 0 }]));
}

/**
 * Fills in `featured` and `headline_weight` for reports stored before
 * migration 015 (storeReport writes them for every report since). Derived
 * from the stored report alone, so filling twice writes the same values.
 */
export async function ensureWeights(db: Queryable, reportIds: readonly string[]): Promise<void> {
  if (reportIds.length === 0) return;
  const { rows } = await db.query<{ id: string; topic: Topic | null; featured: { claim_id: string }[] | null }>(
    `SELECT r.id, r.topic, coalesce(s.machine_report, r.report)->'featured_claims' AS featured FROM reports r LEFT JOIN report_signoffs s ON s.report_id = r.id
      WHERE r.id = ANY($1::text[]) AND EXISTS (SELECT 1 FROM claims c WHERE c.report_id = r.id AND (c.headline_weight IS NULL OR c.featured IS NULL))`,
    [reportIds],
  );
  for (const r of rows) {
    const claims = (await db.query<{ data: StoredScoringFields }>('SELECT data FROM claims WHERE report_id = $1', [r.id])).rows.map((c) => c.data);
    const weighed = weighClaims(claims, (r.featured ?? []).map((f) => f.claim_id), r.topic);
    await db.query(
      `UPDATE claims c SET featured = w.featured, headline_weight = w.weight
         FROM jsonb_to_recordset($2::jsonb) AS w(claim_id text, featured boolean, weight double precision)
        WHERE c.report_id = $1 AND c.claim_id = w.claim_id`,
      [r.id, JSON.stringify([...weighed].map(([claim_id, w]) => ({ claim_id, ...w })))],
    );
  }
}

type Assessment = {
  claims: ClaimRow[];
  reviewed: Map<string, Outcome>;
  result: ScoringResult;
  required: { claim_id: string; quote: string; featured: boolean; weight: number; reviewed: boolean }[];
  missing: string[];
  blockedBy: string | null;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the report's sign-off needs, and the score it would publish, from the reviews so far. */
async function assess(db: Queryable, report: ReportRow): Promise<Assessment> {
  await ensureWeights(db, [report.id]);
  const claims = (await db.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM claims WHERE report_id = $1 ORDER BY position`, [report.id])).rows;
  const reviews = await reviewRows(db, claims.map((c) => c.claim_id));
  const reviewed = new Map<string, Outcome>();
  for (const c of claims) {
    const r = reviews.get(c.claim_id)?.find((x) => x.content_hash === c.content_hash);
    if (r) reviewed.set(c.claim_id, r.outcome);
  }
  const result = rescore(claims.map((c) => scoringClaimOf({ ...c.data, claim_id: c.claim_id })), reviewed, report.topic);
  const nowFeatured = new Set(result.status === 'scored' ? result.featured_claims.map((f) => f.claim_id) : []);
  const required = claims
    .map((c) => ({ claim_id: c.claim_id, quote: c.data.quote, featured: c.featured === true || nowFeatured.has(c.claim_id), weight: c.headline_weight ?? 0, reviewed: reviewed.has(c.claim_id) }))
    .filter(mustBeReviewed)
    .sort((a, b) => Number(b.featured) - Number(a.featured) || b.weight - a.weight || (a.claim_id < b.claim_id ? -1 : 1));
  const missing = required.filter((c) => !c.reviewed).map((c) => c.claim_id);
  const semver = report.method_version.split('+')[0];
  const blockedBy =
    semver !== METHOD_SEMVER
      ? `The report was made with method ${semver}, and the method is now ${METHOD_SEMVER}: its score cannot be recomputed by the method it was made with. Remake the report (POST /v1/reports with refresh: true) and review that one; reviews of claims that did not change carry over.`
      : missing.length > 0
        ? `${plural(missing.length, 'claim')} that the sign-off needs ${missing.length === 1 ? 'is' : 'are'} not reviewed yet (every featured claim, and every claim that moves the headline by more than ${REVIEW_WEIGHT_POINTS} points): ${missing.join(', ')}.`
        : result.status !== 'scored'
          ? `With the reviewed outcomes the report has too few resolved claims for a score: ${result.reason}`
          : null;
  return { claims, reviewed, result, required, missing, blockedBy };
}

async function reportRow(db: Queryable, reportId: string, lock = false): Promise<ReportRow> {
  const { rows } = await db.query<ReportRow>(`SELECT id, subject_id, topic, method_version, report FROM reports WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [reportId]);
  if (!rows[0]) throw new NotFoundError(`No report ${reportId}. Report ids (rep_…) come from POST /v1/reports, a subject's latest report (GET /v1/subjects/{subject_id}) or the review queue.`);
  return rows[0];
}

async function signOffOf(db: Queryable, reportId: string) {
  const { rows } = await db.query<{ machine_report: StoredReportJson; reviewer: string; note: string | null; signed_off_at: Date }>(
    'SELECT machine_report, reviewer, note, signed_off_at FROM report_signoffs WHERE report_id = $1',
    [reportId],
  );
  return rows[0] ?? null;
}

function stateOut(report: ReportRow, a: Assessment, signed: Awaited<ReturnType<typeof signOffOf>>) {
  const summary = report.report.review ?? unsignedSummary(a.claims.length, a.reviewed.size);
  return {
    report_id: report.id,
    subject_id: report.subject_id,
    review_status: signed ? REVIEWED : REVIEW_LABEL,
    claims_total: a.claims.length,
    claims_reviewed: a.reviewed.size,
    weight_threshold: REVIEW_WEIGHT_POINTS,
    required: a.required,
    missing: a.missing,
    can_sign_off: !signed && a.blockedBy === null,
    blocked_by: signed ? null : a.blockedBy,
    signed_off_by: signed?.reviewer ?? null,
    signed_off_at: signed?.signed_off_at.toISOString() ?? null,
    note: signed?.note ?? summary.note ?? null,
    machine_score: (signed?.machine_report ?? report.report).score,
    reviewed_score: a.result.status === 'scored' ? a.result.score : null,
  } as const;
}

/** GET /v1/reports/{report_id}/review. */
export async function reportReviewState(db: Queryable, reportId: string) {
  const report = await reportRow(db, reportId);
  return stateOut(report, await assess(db, report), await signOffOf(db, reportId));
}

/**
 * The machine's `machine_generated` caveat, once a person has signed the
 * report off: it stays (reworded) while any claim is unreviewed, since each
 * of those still carries the label; it goes when every claim is reviewed.
 */
function signedCaveats(caveats: readonly Caveat[], unreviewed: number): Caveat[] {
  return caveats.flatMap((c) => {
    if (c.code !== 'machine_generated') return [c];
    if (unreviewed === 0) return [];
    return [{
      code: c.code,
      message: `A reviewer signed this report off after reviewing every featured claim and every claim that moves the score by more than ${REVIEW_WEIGHT_POINTS} points; the score is recomputed with the reviewed outcomes. Some outcomes were set by machine judges and not reviewed by a person: each of those is marked ${REVIEW_LABEL}.`,
    }];
  });
}

/**
 * POST /v1/reports/{report_id}/review: the sign-off. Refused (409
 * `review-incomplete`) until every claim it needs is reviewed; refused (409
 * `review-conflict`) when the report is signed off already, which is also
 * what the second of two reviewers signing off at once is told (the report
 * row's lock orders them).
 */
export async function signOffReport(pool: Pool, keyId: number, reportId: string, body: SignOffRequest) {
  return withTransaction(pool, async (tx) => {
    const report = await reportRow(tx, reportId, true);
    const signed = await signOffOf(tx, reportId);
    if (signed) {
      throw new DomainError(409, 'review-conflict', `Report ${reportId} was signed off by ${signed.reviewer} at ${signed.signed_off_at.toISOString()}. A later review that changes an outcome its score was made with withdraws the sign-off; then it can be signed off again.`);
    }
    const a = await assess(tx, report);
    if (a.blockedBy !== null || a.result.status !== 'scored') {
      throw new DomainError(409, 'review-incomplete', `Report ${reportId} cannot be signed off yet. ${a.blockedBy}`, { missing: a.missing });
    }
    const machine = report.report;
    const outcomes = Object.fromEntries(a.claims.map((c) => [c.claim_id, a.reviewed.get(c.claim_id) ?? c.data.outcome]));
    const { rows: [s] } = await tx.query<{ signed_off_at: Date }>(
      `INSERT INTO report_signoffs (report_id, machine_report, outcomes, reviewer, note, key_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING signed_off_at`,
      [reportId, JSON.stringify(machine), JSON.stringify(outcomes), body.reviewer, body.note ?? null, keyId],
    );
    const r = a.result;
    const review: ReportReviewSummary = {
      claims_total: a.claims.length, claims_reviewed: a.reviewed.size, signed_off_by: body.reviewer, signed_off_at: s!.signed_off_at.toISOString(),
      note: body.note ?? null, machine_score: machine.score,
    };
    const reviewedReport = { ...machine, score: r.score, scores: r.scores, featured_claims: r.featured_claims, caveats: signedCaveats(r.caveats, a.claims.length - a.reviewed.size), review_status: REVIEWED, review };
    await tx.query('UPDATE reports SET report = $2 WHERE id = $1', [reportId, JSON.stringify(reviewedReport)]);
    const record = await appendRecord(tx, {
      action: 'report_signoff', subject_id: report.subject_id, report_id: reportId, claim_id: null, response_id: null, reviewer: body.reviewer, keyId,
      before: { review_status: REVIEW_LABEL, score: machine.score, claims_reviewed: a.reviewed.size, claims_total: a.claims.length },
      after: { review_status: REVIEWED, score: r.score, claims_reviewed: a.reviewed.size, claims_total: a.claims.length },
      note: body.note ?? null,
    });
    const after = await signOffOf(tx, reportId);
    return { ...stateOut({ ...report, report: reviewedReport }, a, after), record };
  });
}

/**
 * After a review of one version of a claim: every signed-off report whose
 * score was made with another outcome for that version goes back to the
 * machine's report (the label returns), and the record says why. A review
 * that leaves the outcome as it was withdraws nothing. The caller holds the
 * reports' locks (lockReportsCarrying). Returns the reports withdrawn.
 */
export async function withdrawSignOffs(tx: Queryable, o: { claimId: string; contentHash: string; outcome: Outcome; reviewer: string; keyId: number }): Promise<string[]> {
  const { rows } = await tx.query<{ report_id: string; subject_id: string; machine_report: StoredReportJson; used: string | null; reviewer: string; signed_off_at: Date; score: HeadlineScore }>(
    `SELECT s.report_id, r.subject_id, s.machine_report, s.outcomes->>$1 AS used, s.reviewer, s.signed_off_at, r.report->'score' AS score
       FROM report_signoffs s JOIN reports r ON r.id = s.report_id
       JOIN claims c ON c.report_id = s.report_id AND c.claim_id = $1 AND c.content_hash = $2
      ORDER BY s.report_id`,
    [o.claimId, o.contentHash],
  );
  const withdrawn: string[] = [];
  for (const w of rows.filter((x) => x.used !== o.outcome)) {
    const reason = `Claim ${o.claimId} was reviewed again after the sign-off, as ${o.outcome}; the signed score was made with ${w.used ?? 'no outcome for it'}, so the report is unreviewed again until it is signed off anew.`;
    const summary = { ...unsignedSummary(0, 0), ...(w.machine_report.review ?? {}), signed_off_by: null, signed_off_at: null, note: null, machine_score: null };
    await tx.query('UPDATE reports SET report = $2 WHERE id = $1', [w.report_id, JSON.stringify({ ...w.machine_report, review_status: REVIEW_LABEL, review: summary })]);
    await tx.query('DELETE FROM report_signoffs WHERE report_id = $1', [w.report_id]);
    await appendRecord(tx, {
      action: 'signoff_withdrawn', subject_id: w.subject_id, report_id: w.report_id, claim_id: o.claimId, response_id: null, reviewer: o.reviewer, keyId: o.keyId,
      before: { review_status: REVIEWED, score: w.score, signed_off_by: w.reviewer, signed_off_at: w.signed_off_at.toISOString() },
      after: { review_status: REVIEW_LABEL, score: w.machine_report.score },
      note: reason,
    });
    withdrawn.push(w.report_id);
  }
  return withdrawn;
}
