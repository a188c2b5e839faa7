import type { Outcome, Topic } from '../method/outcomes.ts';
import type { Measurement } from '../methodology.ts';
import type { ReplyDecision } from '../schemas/review-state.ts';
import type { RatingScaleRow } from './claim-review.ts';
import type { ExportManifest } from './exports.ts';

/**
 * The data of every page of the static site: what the build job hands the
 * Astro project (site/), and what the on-demand renderer passes to the same
 * page components. A page is a pure function of its data, so the page built
 * statically and the one rendered on demand from the same data are the same
 * bytes. Nothing here knows HTML: escaping is the components' job (Astro
 * escapes every expression), links are pre-checked (http(s) only, `href`
 * null otherwise), and each claim's ClaimReview comes ready as script-safe JSON.
 * Demo subjects (claims from published demo sets) are not published, as in the export.
 *
 * This module holds the pages' types and gathers the functions that make
 * them, each in the module of its concern: paths (page-paths.ts), report
 * pages (report-pages.ts), subject pages and the summaries the lists are made
 * from (summaries.ts), browse pages (browse-pages.ts), and the index,
 * methodology and exports pages (site-pages.ts).
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
/**
 * One page of a browse letter (core/site/browse-pages.ts says how a letter is
 * cut into pages): page `page` of `pages`, its neighbours' paths (null at
 * either end), the page links to show (`nav`: every page when there are few,
 * else the first, the last and those near this one; null marks a gap), and
 * its subjects in order, with the first and last names for the page's title.
 */
export type BrowsePage = {
  view: 'browse'; path: string; common: Common; letter: string; label: string;
  page: number; pages: number; prev: string | null; next: string | null; nav: ({ page: number; path: string } | null)[];
  first_name: string; last_name: string; subjects: BrowseEntry[];
};
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

export * from './page-paths.ts';
export * from './report-pages.ts';
export * from './summaries.ts';
export * from './browse-pages.ts';
export * from './site-pages.ts';
