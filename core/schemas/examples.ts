import type { z } from 'zod';
import { REVIEW_LABEL } from '../method/outcomes.ts';
import { JobAcceptedSchema, ProblemSchema, ValidationErrorSchema } from './common.ts';
import { DemoSchema, MethodologySchema } from './resources.ts';
import { CheckRequestSchema, LabelRequestSchema, ReportRequestSchema, ResolveRequestSchema, ResponseRequestSchema } from './requests.ts';
import {
  ClaimResponsesPageSchema, ClaimsPageSchema, HealthSchema, JobPollSchema, LabelAckSchema, LabelListSchema, LabelQueueSchema, ResolveResponseSchema,
  ResponseAckSchema, StatusSchema, StoredReportSchema, SubjectDetailSchema, SubjectListSchema,
} from './resources.ts';
import {
  ClaimReviewAckSchema, ClaimReviewRequestSchema, ReplyReviewAckSchema, ReplyReviewRequestSchema, ReportReviewStateSchema, ReviewQueueSchema,
  SignOffAckSchema, SignOffRequestSchema,
} from './reviews.ts';

/**
 * One example per request and response schema, for the OpenAPI document
 * (api/openapi.ts puts each beside its schema). Typed by the schemas they
 * illustrate, and checked against them (zod and the document's JSON Schema)
 * by test/openapi.test.ts, so an example cannot drift from its schema
 * unnoticed. Invented data: an invented council and its claims.
 */

const EXAMPLES = new Map<z.ZodType, unknown>();
const example = <S extends z.ZodType>(schema: S, value: z.input<S>): z.input<S> => {
  EXAMPLES.set(schema, value);
  return value;
};

/** The example of a schema, if it has one. */
export function exampleOf(schema: z.ZodType): unknown {
  return EXAMPLES.get(schema);
}

/** Every schema with its example (for the test that parses each with its schema). */
export function allExamples(): [z.ZodType, unknown][] {
  return [...EXAMPLES];
}

const SUBJECT_ID = 'sub_3f2a9c1d7e5b4a60';
const REPORT_ID = 'rep_8c1e0b7d2a9f4e31c6d5';
const CLAIM_ID = 'clm_4ba9c37d764116e82da0';
const RESPONSE_ID = 'rsp_b5a05203053ef53578a7';
const JOB_ID = 'job_336fb62fe39e75d6cab8';
const METHOD = '1.5.0+3e5b07c91a24';
const AT = '2026-11-24T09:30:00.000Z';
const LABEL = REVIEW_LABEL as typeof REVIEW_LABEL;

const subject = {
  subject_id: SUBJECT_ID, name: 'Valley District Council', kind: 'organisation' as const, aliases: ['Valley Council'],
  description: 'Local authority of the Valley district (invented example).', public_figure: true, serving_politician: false, demo: false,
};
const entry = (score: number, n: number) => ({
  score, interval_80: [score - 11.5, score + 9.5] as [number, number], n_resolved: n,
  confidence: { level: 'medium' as const, reasons: `Medium: the 80% range is 21 points wide, on ${n} resolved claims.` },
});
const headline = { score: 61.5, interval_80: [50, 71] as [number, number], confidence: 'medium' as const, n_resolved: 12 };
const evidence = {
  url: 'https://stats.example/housing/2025', publisher: 'Valley Statistics Office', published: '2026-02-01',
  quote: 'Homes completed in 2025: 104.', independent_of_subject: true,
};
const reviewState = { version: 'v1.5d41402a', decision: null, reviewer: null, reviewed_at: null, rationale: null, revision: 0, lapsed: null };
const reply = {
  response_id: RESPONSE_ID, name: 'A. Press Officer', role: 'press officer of the council', statement: 'The 2025 figure excludes homes finished in December.',
  counter_evidence_url: 'https://valley-council.example/housing/2025', received_at: AT, status: 'response received, not yet reviewed', review: null,
};
const claim = {
  claim_id: CLAIM_ID, claim_type: 'factual' as const, topic: 'housing' as const, quote: 'We delivered 104 new homes across the district in 2025.',
  quote_verified: true, said_on: '2026-01-15',
  source: { url: 'https://valley-council.example/news/annual-update', title: 'Annual update', outlet: 'Valley District Council', published: '2026-01-15' },
  resolution_criteria: 'True if an independent source reports 104 homes delivered in 2025, within 2%.', due: null, outcome: 'true' as const, on_time: null,
  rationale: 'The statistics office reports 104 homes completed in 2025, as claimed.', evidence: [evidence], judges_disagree: false,
  responses: [reply], responses_total: 1, responses_url: `/v1/claims/${CLAIM_ID}/responses`, review_status: LABEL,
  machine_verdict: { outcome: 'true' as const, rationale: 'The statistics office reports 104 homes completed in 2025, as claimed.', judges_disagree: false },
  review: reviewState,
};
const report = {
  subject, method_version: METHOD, score: headline,
  scores: { overall: entry(61.5, 12), factual: entry(66.5, 7), promise: entry(51.5, 5) },
  featured_claims: [{ claim_id: CLAIM_ID, claim_type: 'factual' as const, quote: claim.quote, said_on: '2026-01-15', outcome: 'true' as const, credit: 1, why_featured: 'high_credit' as const }],
  caveats: [{ code: 'machine_generated' as const, message: `Every outcome was set by machine judges and no person has reviewed them (${REVIEW_LABEL}).` }],
  review_status: LABEL,
  review: { claims_total: 12, claims_reviewed: 0, signed_off_by: null, signed_off_at: null, note: null, machine_score: null },
};
const paging = (total: number) => ({ page: 1, page_size: 50, total, total_pages: total === 0 ? 0 : Math.ceil(total / 50) });
const label = { claim_id: CLAIM_ID, subject_id: SUBJECT_ID, verdict: 'mostly_true' as const, on_time: null, note: 'The December homes are a fair point.', reviewer: 'reviewer-7', labelled_at: AT };
const machine = { outcome: 'true' as const, rationale: claim.rationale, judges_disagree: false, review_status: REVIEW_LABEL };
const record = {
  record_id: 42, action: 'claim_review' as const, subject_id: SUBJECT_ID, report_id: REPORT_ID, claim_id: CLAIM_ID, response_id: null, reviewer: 'J. Editor', at: AT,
  before: { review_status: REVIEW_LABEL, outcome: 'true' }, after: { review_status: 'reviewed', outcome: 'mostly_true' }, note: 'Counts differ by the December homes.',
};
const reportReview = {
  report_id: REPORT_ID, subject_id: SUBJECT_ID, review_status: LABEL as typeof LABEL | 'reviewed', claims_total: 12, claims_reviewed: 1, weight_threshold: 2,
  required: [{ claim_id: CLAIM_ID, quote: claim.quote, featured: true, weight: 3.5, reviewed: true }], missing: [], can_sign_off: true, blocked_by: null,
  signed_off_by: null, signed_off_at: null, note: null, machine_score: headline, reviewed_score: { ...headline, score: 60.5 },
};

// Requests.
example(ReportRequestSchema, { name: 'Valley District Council', kind: 'organisation', topic: 'housing', depth: 'quick' });
example(ResolveRequestSchema, { name: 'Valley District Council', urls: ['https://valley-council.example'], kind: 'organisation' });
example(CheckRequestSchema, { text: 'The council delivered 104 new homes in 2025. It will open two libraries by 2027.', author: 'Valley District Council', said_on: '2026-01-15' });
example(ResponseRequestSchema, { claim_id: CLAIM_ID, name: 'A. Press Officer', role: 'press officer of the council', statement: reply.statement, counter_evidence_url: reply.counter_evidence_url });
example(LabelRequestSchema, { claim_id: CLAIM_ID, verdict: 'mostly_true', note: label.note, reviewer: 'reviewer-7' });
example(ClaimReviewRequestSchema, { version: reviewState.version, outcome: 'mostly_true', rationale: 'The figure leaves out the homes finished in December.', reviewer: 'J. Editor' });
example(SignOffRequestSchema, { reviewer: 'J. Editor', note: 'Featured claims checked against the statistics office.' });
example(ReplyReviewRequestSchema, { decision: 'accepted', note: 'The claim was corrected to mostly_true.', reviewer: 'J. Editor' });

// Responses.
example(HealthSchema, { status: 'ok' });
example(StatusSchema, {
  method_version: METHOD,
  queue: { depth: 3, queued: 2, active: 1, by_queue: { report: { queued: 2, active: 1 }, check: { queued: 0, active: 0 } } },
  spend: { day: '2026-11-24', spent_usd: 1.84, limit_usd: 20, remaining_usd: 18.16, calls: 212 },
  model_price: null,
});
example(ResolveResponseSchema, {
  candidates: [{ subject_id: SUBJECT_ID, name: subject.name, kind: 'organisation', description: subject.description, known: true, public_figure: true, serving_politician: false, eligible: true, needs_consent_ref: false, reason: null }],
});
const detail = example(SubjectDetailSchema, { ...subject, latest_report: { report_id: REPORT_ID, generated_at: AT, score: 61.5, stale: false, html_url: `/v1/reports/${REPORT_ID}/html` } });
example(SubjectListSchema, { subjects: [detail], paging: paging(1) });
example(StoredReportSchema, { report_id: REPORT_ID, status: 'complete', generated_at: AT, stale: false, topic: null, report, html_url: `/v1/reports/${REPORT_ID}/html` });
example(JobAcceptedSchema, { job_id: JOB_ID, status: 'queued', poll: `/v1/reports/${JOB_ID}` });
example(JobPollSchema, {
  job_id: JOB_ID, kind: 'report', status: 'running', poll: `/v1/reports/${JOB_ID}`, created_at: AT, started_at: AT, finished_at: null, reason: null, report_id: null, report: null, results: null,
  progress: { stage: 'evidence', documents: 38, claims_found: 41, claims_judged: 17 },
});
example(ClaimsPageSchema, { subject_id: SUBJECT_ID, report_id: REPORT_ID, claims: [claim], paging: paging(1) });
example(ResponseAckSchema, { response_id: RESPONSE_ID, claim_id: CLAIM_ID, subject_id: SUBJECT_ID, status: 'response received, not yet reviewed', received_at: AT });
example(ClaimResponsesPageSchema, { claim_id: CLAIM_ID, subject_id: SUBJECT_ID, responses: [reply], paging: paging(1) });
example(LabelAckSchema, { label, replaced: false, machine, published: null });
example(LabelListSchema, { labels: [label], paging: paging(1) });
example(LabelQueueSchema, {
  subject_id: SUBJECT_ID, report_id: REPORT_ID, labelled: 0, paging: paging(1),
  claims: [{ claim_id: CLAIM_ID, claim_type: 'factual', quote: claim.quote, said_on: claim.said_on, source: claim.source, resolution_criteria: claim.resolution_criteria, evidence: [evidence], labelled: false, label: null, machine: null }],
});
example(ReviewQueueSchema, {
  items: [{ subject_id: SUBJECT_ID, subject_name: subject.name, report_id: REPORT_ID, featured: true, weight: 3.5, required: true, replies_waiting: 1, waiting_for: ['review', 'replies'], claim }],
  weight_threshold: 2, paging: paging(1),
});
example(ClaimReviewAckSchema, {
  claim_id: CLAIM_ID, subject_id: SUBJECT_ID, report_id: REPORT_ID, record, signoffs_withdrawn: [],
  claim: {
    ...claim, outcome: 'mostly_true', rationale: 'The figure leaves out the homes finished in December.', review_status: 'reviewed' as const,
    review: { ...reviewState, version: 'v2.9b74c989', decision: 'corrected', reviewer: 'J. Editor', reviewed_at: AT, rationale: 'The figure leaves out the homes finished in December.', revision: 1 },
  },
});
example(ReportReviewStateSchema, reportReview);
example(SignOffAckSchema, {
  ...reportReview, review_status: 'reviewed' as const, can_sign_off: false, blocked_by: null, signed_off_by: 'J. Editor', signed_off_at: AT, note: 'Featured claims checked.',
  record: { ...record, record_id: 43, action: 'report_signoff', claim_id: null, before: { review_status: REVIEW_LABEL, score: 61.5 }, after: { review_status: 'reviewed', score: 60.5 }, note: 'Featured claims checked.' },
});
example(ReplyReviewAckSchema, {
  response: { ...reply, status: 'reviewed: accepted', review: { decision: 'accepted', note: 'The claim was corrected to mostly_true.', reviewer: 'J. Editor', reviewed_at: AT } },
  claim_id: CLAIM_ID, subject_id: SUBJECT_ID,
  record: { ...record, record_id: 44, action: 'reply_decision', response_id: RESPONSE_ID, before: { status: 'response received, not yet reviewed' }, after: { status: 'reviewed: accepted' }, note: 'The claim was corrected to mostly_true.' },
});
example(MethodologySchema, {
  method_version: METHOD, markdown: '# How the reliability score is made\n\nA reliability score says how well a subject\'s checkable claims have held up…',
  measurement: null, measurement_note: 'No measurement is published yet.',
});
example(DemoSchema, {
  note: 'Agreement is not accuracy.', definitions: { agreement: 'n_agree / n_compared.' },
  sets: [{
    dataset: 'liar', subjects: 1, n: 1, n_reference_resolved: 1, n_machine_resolved: 1, n_compared: 1, n_agree: 0, n_adjacent: 1, coverage: 1, agreement: 0, adjacent_agreement: 1,
    confusion: { rows: ['true', 'mostly_true'], columns: ['true', 'mostly_true'], counts: [[0, 0], [1, 0]] }, forecast: null, method_versions: { [METHOD]: 1 }, judged_at: AT,
  }],
  subjects: [{
    subject_id: 'sub_9d0c4b2e7a1f3c58', name: 'Example Senator (demo)', kind: 'person', description: 'A demo subject.',
    claims: [{
      claim_id: 'clm_demo_liar_0001', dataset: 'liar', claim_type: 'factual', topic: 'economy', quote: 'Unemployment fell by half in four years.', said_on: '2010-05-01', tested_from: '2010-05-01',
      source: { url: 'urn:demo:clm_demo_liar_0001', title: null, outlet: null, published: null }, resolution_criteria: 'True if official figures show unemployment halved over the four years before.',
      machine: { outcome: 'true', on_time: null, rationale: 'Official figures show a fall from 9.8% to 5.0%.', judges_disagree: false, evidence: [evidence], method_version: METHOD, judged_at: AT },
      published: { publisher_rating: 'mostly-true', outcome: 'mostly_true', forecast_probability: null, reference_url: null },
      review_status: REVIEW_LABEL,
    }],
  }],
  paging: paging(1),
});
example(ProblemSchema, { type: '/problems/not-found', title: 'Not found', status: 404, detail: `No subject ${SUBJECT_ID}. Find subjects with POST /v1/subjects/resolve.` });
example(ValidationErrorSchema, { detail: [{ loc: ['body', 'name'], msg: 'String should have at most 300 characters', type: 'string_too_long', input: 'A name far too long…', ctx: { max_length: 300 } }] });
