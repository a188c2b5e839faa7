import { VERSION_COLUMNS, type ClaimVersion } from '../claims.ts';
import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL, type Outcome } from '../method/outcomes.ts';
import type { HeadlineScore } from '../method/score.ts';
import { withReviews, type ReviewFields } from '../reviews/claims.ts';
import { REVIEW_WEIGHT_POINTS } from '../reviews/weights.ts';
import { REVIEWED, type ReplyDecision } from '../schemas/review-state.ts';
import { latestMeasurement, measurementNote, type Measurement } from '../methodology.ts';
import { methodVersion } from '../method/version.ts';
import { withResponses, type WithResponses } from '../responses.ts';
import { BEST_RATING, OUTCOME_LABELS, WORST_RATING, claimReview, jsonForScript, ratingScale, type RatingScaleRow } from './claim-review.ts';
import type { ExportManifest } from './exports.ts';
import { httpUrl } from './links.ts';
import type { Topic } from '../method/outcomes.ts';
import { latestOf, latestOfEach, reportSummaries, reportsByIds, reportsInScope, type ReportRow } from '../reports/repository.ts';
import { TYPE_LABELS } from './scorecard.ts';

/**
 * The data of every page of the static site: what the build job hands the
 * Astro project (site/), and what the on-demand renderer passes to the same
 * page components. A page is a pure function of its data, so the page built
 * statically and the one rendered on demand from the same data are the same
 * bytes. Nothing here knows HTML: escaping is the components' job (Astro
 * escapes every expression), links are pre-checked (http(s) only, `href`
 * null otherwise), and each claim's ClaimReview comes ready as script-safe JSON.
 * Demo subjects (claims from published demo sets) are not published, as in the export.
 */

export type Common = { method_version: string; review_label: string };
export type Headline = { score: number; interval_80: [number, number]; confidence: string; n_resolved: number };
export type ScoreView = { type: string; label: string; score: number; interval_80: [number, number]; n_resolved: number; confidence: { level: string; reasons: string } };
export type EvidenceView = { url: string; href: string | null; publisher: string | null; published: string | null; quote: string; independent_of_subject: boolean };
export type ResponseView = {
  response_id: string; name: string; role: string | null; statement: string; counter_evidence_url: string | null; href: string | null; received_at: string; status: string;
  /** The reviewer's decision and published note; null until the reply is reviewed. */
  review: ReplyDecision | null;
};
/**
 * Where a claim stands in editorial review, for the page: `reviewed` (with
 * who, when, whether the machine's outcome was confirmed or corrected, and
 * the machine's verdict kept beside), or unreviewed, perhaps because an
 * earlier review lapsed (`lapsed_reason`).
 */
export type ClaimReviewView = {
  reviewed: boolean; decision: 'confirmed' | 'corrected' | null; reviewer: string | null; reviewed_on: string | null;
  machine_outcome: Outcome; machine_outcome_label: string; machine_rationale: string; lapsed_reason: string | null;
};
export type ClaimView = {
  claim_id: string; claim_type: string; topic: string; quote: string; quote_verified: boolean; said_on: string | null;
  source: { url: string; href: string | null; title: string | null; outlet: string | null; published: string | null };
  resolution_criteria: string; due: string | null; outcome: Outcome; outcome_label: string; on_time: boolean | null; rationale: string;
  evidence: EvidenceView[]; judges_disagree: boolean; review_status: string; review: ClaimReviewView;
  /** The claim's newest replies (RESPONSES_INLINE at most), newest first; `responses_total` counts them all, and `responses_url` (the API's paged list) holds them all. */
  responses: ResponseView[]; responses_total: number; responses_url: string;
  /** schema.org ClaimReview of the verdict, serialised for a script element (see claim-review.ts). */
  claim_review_json: string;
};
export type SubjectRef = { subject_id: string; name: string; kind: string; description: string | null; path: string };
/** A report's editorial review, for its page: how many of its claims are reviewed, and once signed off, by whom and the machine's headline beside the reviewed one. */
export type ReportReviewView = {
  claims_total: number; claims_reviewed: number; signed_off_by: string | null; signed_off_on: string | null; note: string | null;
  machine_score: Headline | null; weight_threshold: number;
};
export type ReportPage = {
  view: 'report'; path: string; common: Common; report_id: string; generated_at: string; generated_on: string; method_version: string; review_status: string;
  /** Null for a report on the subject's whole record; otherwise the one topic it scores (a view of its own, never the subject's headline), and its label. */
  topic: Topic | null; topic_label: string | null;
  subject: SubjectRef; headline: Headline; scores: ScoreView[]; caveats: { code: string; message: string }[]; review: ReportReviewView;
  /** As the report lists them; each with its claim's verdict as it now stands (a claim reviewed since the report was made shows the reviewer's outcome). */
  featured: { claim_id: string; quote: string; claim_type: string; outcome: Outcome; outcome_label: string; why_featured: string; review_status: string }[];
  claims: ClaimView[]; // in the report's order: the page groups them (core/site/scorecard.ts)
};
export type ReportSummary = {
  report_id: string; path: string; subject_id: string; generated_at: string; generated_on: string; method_version: string; headline: Headline;
  /** The label, or `reviewed` once a reviewer has signed the report off. */
  review_status: string;
  /** As on ReportPage: null for the whole record. */
  topic: Topic | null; topic_label: string | null;
};
/** `latest`: the subject's latest report on its whole record (its headline), or null when it has only reports on topics; `reports`: every report, newest first; `record`: those on the whole record, oldest first (its chart). */
export type SubjectPage = { view: 'subject'; path: string; common: Common; subject: SubjectRef & { aliases: string[] }; latest: ReportSummary | null; reports: ReportSummary[]; record: ReportSummary[] };
export type BrowseEntry = { subject: SubjectRef; latest: ReportSummary };
export type BrowsePage = { view: 'browse'; path: string; common: Common; letter: string; label: string; subjects: BrowseEntry[] };
export type IndexPage = {
  view: 'index'; path: string; common: Common; counts: { subjects: number; reports: number };
  latest: (ReportSummary & { subject: SubjectRef })[]; letters: { letter: string; label: string; path: string; count: number }[];
  latest_export: ExportManifest | null;
};
export type MethodologyPage = { view: 'methodology'; path: string; common: Common };
export type MeasurementPage = { view: 'measurement'; path: string; common: Common; measurement: Measurement | null; note: string };
export type RatingScalePage = { view: 'rating-scale'; path: string; common: Common; best: number; worst: number; scale: RatingScaleRow[] };
export type ExportsPage = { view: 'exports'; path: string; common: Common; exports: ExportManifest[] };
export type PageData = ReportPage | SubjectPage | BrowsePage | IndexPage | MethodologyPage | MeasurementPage | RatingScalePage | ExportsPage;

export const KEYED_VIEWS = ['report', 'subject', 'browse'] as const;
export const SINGLE_VIEWS = ['index', 'methodology', 'measurement', 'rating-scale', 'exports'] as const;
export type KeyedView = (typeof KEYED_VIEWS)[number];
export type SingleView = (typeof SINGLE_VIEWS)[number];
export type PageRef = { view: KeyedView; key: string } | { view: SingleView; key?: undefined };

const SINGLE_PATHS: Record<SingleView, string> = {
  index: '/', methodology: '/methodology/', measurement: '/methodology/measurement/', 'rating-scale': '/methodology/rating-scale/', exports: '/exports/',
};
const KEYED_DIRS: Record<KeyedView, string> = { report: 'reports', subject: 'subjects', browse: 'browse' };
// Keys become folder names: only ids the service makes (rep_…, sub_…) and letters.
const SAFE_KEY = /^[a-z0-9_]{1,64}$/;

export function pagePath(ref: PageRef): string {
  if (ref.key === undefined) return SINGLE_PATHS[ref.view as SingleView];
  if (!SAFE_KEY.test(ref.key)) throw new Error(`unsafe page key ${JSON.stringify(ref.key)}`);
  return `/${KEYED_DIRS[ref.view as KeyedView]}/${ref.key}/`;
}

/** The file a page is written to, relative to the site's root. */
export function pageFile(ref: PageRef): string {
  return `${pagePath(ref).slice(1)}index.html`;
}

export function common(): Common {
  return { method_version: methodVersion(), review_label: REVIEW_LABEL };
}

/** The browse letter of a name: its first letter without accents, a to z, or `other`. */
export function letterOf(name: string): string {
  const first = name.normalize('NFKD').replace(/\p{M}/gu, '').match(/\p{L}/u)?.[0]?.toLowerCase();
  return first && first >= 'a' && first <= 'z' ? first : 'other';
}
const letterLabel = (l: string) => (l === 'other' ? 'Other' : l.toUpperCase());

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
const topicLabel = (topic: Topic | null): string | null => (topic ? topic.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) : null);

function subjectRef(s: { subject_id: string; name: string; kind: string; description: string | null }): SubjectRef {
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

/**
 * What the index, subject and browse pages are made from: every published
 * subject (one with any report, so that every report page's subject link
 * leads somewhere) and the scores of its reports, newest first. A subject's
 * headline is its latest report on its whole record (latestOf), never a
 * report on one topic.
 */
export type Summaries = { subjects: Map<string, SubjectRef & { aliases: string[] }>; reports: ReportSummary[] };

/** Every published subject's, or (`subjectIds`) only these subjects' (an incremental build's few pages). */
export async function loadSummaries(db: Queryable, o: { subjectIds?: readonly string[] } = {}): Promise<Summaries> {
  const subjects = new Map<string, SubjectRef & { aliases: string[] }>();
  const s = await db.query<{ id: string; name: string; kind: string; description: string | null; aliases: string[] }>(
    `SELECT s.id, s.name, s.kind, s.description, s.aliases FROM subjects s
      WHERE NOT s.demo AND EXISTS (SELECT 1 FROM reports r WHERE r.subject_id = s.id) ${o.subjectIds ? 'AND s.id = ANY($1::text[])' : ''} ORDER BY s.id`,
    o.subjectIds ? [o.subjectIds] : [],
  );
  for (const r of s.rows) subjects.set(r.id, { ...subjectRef({ subject_id: r.id, name: r.name, kind: r.kind, description: r.description }), aliases: r.aliases });
  const reports = (await reportSummaries(db, o)).map((x) => ({
    report_id: x.id, path: pagePath({ view: 'report', key: x.id }), subject_id: x.subject_id, generated_at: x.generated_at.toISOString(),
    generated_on: x.generated_at.toISOString().slice(0, 10), method_version: x.method_version, headline: x.score as Headline, review_status: x.review_status ?? REVIEW_LABEL,
    topic: x.topic, topic_label: topicLabel(x.topic),
  }));
  return { subjects, reports };
}

export function subjectPage(sum: Summaries, subjectId: string, c: Common): SubjectPage | null {
  const subject = sum.subjects.get(subjectId);
  if (!subject) return null;
  const reports = sum.reports.filter((r) => r.subject_id === subjectId);
  // The headline, by the repository's rule: the latest report on the whole record; the record chart, by the same scope.
  return { view: 'subject', path: subject.path, common: c, subject, latest: latestOf(reports, subjectId, null), reports, record: reportsInScope(reports, subjectId, null).reverse() };
}

/** Every subject's headline, for the browse pages: subjects with reports on topics only have none, and are not browsed. */
function latestBySubject(sum: Summaries): Map<string, ReportSummary> {
  return latestOfEach(sum.reports, null);
}

/** Browse letters and how many subjects each lists (those with a headline, as browsePage lists them). */
export function browseLetters(sum: Summaries): Map<string, number> {
  const letters = new Map<string, number>();
  const latest = latestBySubject(sum);
  for (const s of sum.subjects.values()) if (latest.has(s.subject_id)) letters.set(letterOf(s.name), (letters.get(letterOf(s.name)) ?? 0) + 1);
  return letters;
}

export function browsePage(sum: Summaries, letter: string, c: Common, latest = latestBySubject(sum)): BrowsePage | null {
  const entries = [...sum.subjects.values()]
    .filter((s) => letterOf(s.name) === letter && latest.has(s.subject_id))
    .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.subject_id.localeCompare(b.subject_id))
    .map(({ aliases: _a, ...subject }) => ({ subject, latest: latest.get(subject.subject_id)! }));
  if (entries.length === 0) return null;
  return { view: 'browse', path: pagePath({ view: 'browse', key: letter }), common: c, letter, label: letterLabel(letter), subjects: entries };
}

export const INDEX_LATEST = 20;

/**
 * `totals`: the site's counts and browse letters, when `sum` holds only some
 * subjects (an incremental build: the subjects of the newest reports, with
 * the counts carried from the live version's index).
 */
export function indexPage(sum: Summaries, c: Common, latestExport: ExportManifest | null, totals?: { counts: IndexPage['counts']; letters: Map<string, number> }): IndexPage {
  const letters = [...(totals?.letters ?? browseLetters(sum))].sort(([a], [b]) => (a === 'other' ? 1 : b === 'other' ? -1 : a.localeCompare(b)));
  return {
    view: 'index', path: '/', common: c, counts: totals?.counts ?? { subjects: sum.subjects.size, reports: sum.reports.length },
    // The subjects with the newest headlines, each once with its headline (its latest report on the whole record): a score listed by a subject's
    // name is its headline, so older reports and reports on one topic are on subject pages only.
    latest: [...latestOfEach(sum.reports, null).values()].slice(0, INDEX_LATEST).flatMap((r) => {
      const s = sum.subjects.get(r.subject_id);
      return s ? [{ ...r, subject: { subject_id: s.subject_id, name: s.name, kind: s.kind, description: s.description, path: s.path } }] : [];
    }),
    letters: letters.map(([letter, count]) => ({ letter, label: letterLabel(letter), path: pagePath({ view: 'browse', key: letter }), count })),
    latest_export: latestExport,
  };
}

export async function methodologyPages(db: Queryable, c: Common): Promise<[MethodologyPage, MeasurementPage, RatingScalePage]> {
  const m = await latestMeasurement(db);
  return [
    { view: 'methodology', path: pagePath({ view: 'methodology' }), common: c },
    { view: 'measurement', path: pagePath({ view: 'measurement' }), common: c, measurement: m, note: measurementNote(m) },
    { view: 'rating-scale', path: pagePath({ view: 'rating-scale' }), common: c, best: BEST_RATING, worst: WORST_RATING, scale: ratingScale() },
  ];
}

export function exportsPage(exports: ExportManifest[], c: Common): ExportsPage {
  return { view: 'exports', path: pagePath({ view: 'exports' }), common: c, exports };
}

/** Where a page's data says it goes. */
export function pageRefOf(p: PageData): PageRef {
  switch (p.view) {
    case 'report':
      return { view: 'report', key: p.report_id };
    case 'subject':
      return { view: 'subject', key: p.subject.subject_id };
    case 'browse':
      return { view: 'browse', key: p.letter };
    default:
      return { view: p.view };
  }
}

/** The summaries narrowed to reports already published (so that no page links to one that is not). */
export function publishedOnly(sum: Summaries, reportIds: ReadonlySet<string>): Summaries {
  const reports = sum.reports.filter((r) => reportIds.has(r.report_id));
  const keep = new Set(reports.map((r) => r.subject_id));
  return { subjects: new Map([...sum.subjects].filter(([id]) => keep.has(id))), reports };
}

/** Pages a site of these summaries holds: one per report, subject and browse letter, and the five others. */
export function pageCount(sum: Summaries): number {
  return sum.reports.length + sum.subjects.size + browseLetters(sum).size + SINGLE_VIEWS.length;
}
