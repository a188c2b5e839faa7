import { VERSION_COLUMNS, type ClaimVersion } from '../claims.ts';
import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL, type Outcome, type Topic } from '../method/outcomes.ts';
import type { HeadlineScore } from '../method/score.ts';
import { reportsByIds, type ReportRow } from '../reports/repository.ts';
import { withResponses, type WithResponses } from '../responses.ts';
import { withReviews, type ReviewFields } from '../reviews/claims.ts';
import { REVIEW_WEIGHT_POINTS } from '../reviews/weights.ts';
import { REVIEWED } from '../schemas/review-state.ts';
import { OUTCOME_LABELS, claimReview, jsonForScript } from './claim-review.ts';
import { httpUrl } from './links.ts';
import type { ClaimReviewView, ClaimView, Common, Headline, ReportPage, SubjectRef } from './page-data.ts';
import { pagePath } from './page-paths.ts';
import { TYPE_LABELS } from './scorecard.ts';

/** A report's page data (the page of one report, with its claims, replies and reviews), from the stored report and its claims. */

const TYPE_ORDER = ['overall', 'factual', 'promise', 'guidance', 'prediction'];

type StoredScore = { score: number; interval_80: [number, number]; n_resolved: number; confidence: { level: string; reasons: string } };
type StoredReport = {
  subject: { subject_id: string; name: string; kind: string; description: string | null };
  score: Headline; scores: Record<string, StoredScore | undefined>; caveats?: { code: string; message: string }[];
  featured_claims?: { claim_id: string; quote: string; claim_type: string; outcome: Outcome; why_featured: string }[]; review_status?: string;
  review?: { claims_total: number; claims_reviewed: number; signed_off_by: string | null; signed_off_at: string | null; note: string | null; machine_score: HeadlineScore | null };
};
type StoredClaim = Omit<ClaimView, 'source' | 'evidence' | 'responses' | 'responses_total' | 'responses_url' | 'outcome_label' | 'review_status' | 'review' | 'claim_review_json'> & ReviewFields & {
  source: { url: string; title: string | null; outlet: string | null; published: string | null };
  evidence?: { url: string; publisher: string | null; published: string | null; quote: string; independent_of_subject: boolean }[];
};
type PageReportRow = Omit<ReportRow, 'report'> & { report: StoredReport };

/** "public_safety" → "Public safety". */
export const topicLabel = (topic: Topic | null): string | null => (topic ? topic.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) : null);

export function subjectRef(s: { subject_id: string; name: string; kind: string; description: string | null }): SubjectRef {
  return { subject_id: s.subject_id, name: s.name, kind: s.kind, description: s.description ?? null, path: pagePath({ view: 'subject', key: s.subject_id }) };
}

function claimReviewView(cl: StoredClaim): ClaimReviewView {
  const m = cl.machine_verdict;
  return {
    reviewed: cl.review_status === REVIEWED, decision: cl.review.decision, reviewer: cl.review.reviewer, reviewed_on: cl.review.reviewed_at?.slice(0, 10) ?? null,
    machine_outcome: m.outcome, machine_outcome_label: OUTCOME_LABELS[m.outcome] ?? m.outcome, machine_rationale: m.rationale, lapsed_reason: cl.review.lapsed?.reason ?? null,
  };
}

function reportPage(row: PageReportRow, claims: (StoredClaim & WithResponses)[], c: Common, siteUrl: string | null): ReportPage {
  const r = row.report;
  const path = pagePath({ view: 'report', key: row.id });
  const generatedOn = row.generated_at.toISOString().slice(0, 10);
  const subject = subjectRef(r.subject);
  const views: ClaimView[] = claims.map((cl) => ({
    claim_id: cl.claim_id, claim_type: cl.claim_type, topic: cl.topic, quote: cl.quote, quote_verified: cl.quote_verified, said_on: cl.said_on ?? null,
    source: { url: cl.source.url, href: httpUrl(cl.source.url), title: cl.source.title ?? null, outlet: cl.source.outlet ?? null, published: cl.source.published ?? null },
    resolution_criteria: cl.resolution_criteria, due: cl.due ?? null, outcome: cl.outcome, outcome_label: OUTCOME_LABELS[cl.outcome] ?? cl.outcome,
    on_time: cl.on_time ?? null, rationale: cl.rationale,
    evidence: (cl.evidence ?? []).map((e) => ({ url: e.url, href: httpUrl(e.url), publisher: e.publisher ?? null, published: e.published ?? null, quote: e.quote, independent_of_subject: e.independent_of_subject })),
    judges_disagree: cl.judges_disagree, review_status: cl.review_status, review: claimReviewView(cl),
    responses: cl.responses.map((x) => ({ ...x, href: httpUrl(x.counter_evidence_url) })), responses_total: cl.responses_total, responses_url: cl.responses_url,
    claim_review_json: jsonForScript(claimReview(cl, { pagePath: path, siteUrl, published: generatedOn, subject: r.subject })),
  }));
  const byId = new Map(views.map((v) => [v.claim_id, v]));
  const rv = r.review;
  return {
    view: 'report', path, common: c, report_id: row.id, generated_at: row.generated_at.toISOString(), generated_on: generatedOn,
    method_version: row.method_version, review_status: r.review_status ?? REVIEW_LABEL, topic: row.topic, topic_label: topicLabel(row.topic), subject, headline: r.score,
    scores: TYPE_ORDER.flatMap((t) => {
      const e = r.scores[t];
      return e ? [{ type: t, label: TYPE_LABELS[t]!, score: e.score, interval_80: e.interval_80, n_resolved: e.n_resolved, confidence: e.confidence }] : [];
    }),
    caveats: r.caveats ?? [],
    review: {
      claims_total: rv?.claims_total ?? views.length, claims_reviewed: rv?.claims_reviewed ?? views.filter((v) => v.review.reviewed).length,
      signed_off_by: rv?.signed_off_by ?? null, signed_off_on: rv?.signed_off_at?.slice(0, 10) ?? null, note: rv?.note ?? null,
      machine_score: rv?.machine_score ?? null, weight_threshold: REVIEW_WEIGHT_POINTS,
    },
    featured: (r.featured_claims ?? []).map((f) => {
      const now = byId.get(f.claim_id);
      const outcome = now?.outcome ?? f.outcome;
      return { claim_id: f.claim_id, quote: f.quote, claim_type: f.claim_type, outcome, outcome_label: OUTCOME_LABELS[outcome] ?? outcome, why_featured: f.why_featured, review_status: now?.review_status ?? REVIEW_LABEL };
    }),
    claims: views,
  };
}

/** The report pages of these reports (demo subjects only when asked: the public site leaves them out), in the order asked; unknown ids are left out. */
export async function reportPages(db: Queryable, ids: readonly string[], c: Common, siteUrl: string | null, o: { includeDemo?: boolean } = {}): Promise<ReportPage[]> {
  if (ids.length === 0) return [];
  const rows = (await reportsByIds(db, ids, o)) as PageReportRow[];
  const claimRows = (
    await db.query<{ report_id: string; claim_id: string; data: Record<string, unknown> } & ClaimVersion>(
      `SELECT report_id, claim_id, data, ${VERSION_COLUMNS.join(', ')} FROM claims WHERE report_id = ANY($1::text[]) ORDER BY report_id, position`,
      [rows.map((r) => r.id)],
    )
  ).rows;
  const reviewed = await withReviews(db, claimRows);
  const joined = await withResponses(db, reviewed.map((cl, i) => ({ ...(cl as unknown as StoredClaim), report_id: claimRows[i]!.report_id })));
  const byReport = new Map<string, typeof joined>();
  for (const cl of joined) byReport.set(cl.report_id, [...(byReport.get(cl.report_id) ?? []), cl]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [reportPage(row, byReport.get(id) ?? [], c, siteUrl)] : [];
  });
}

