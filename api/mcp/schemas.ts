import { z } from 'zod';
import { TOPICS } from '../../core/method/outcomes.ts';
import { JobAcceptedSchema } from '../../core/schemas/common.ts';
import { ReportOrJobPathSchema, SubjectPathSchema } from '../../core/schemas/queries.ts';
import { CheckRequestSchema, ReportRequestSchema, ResponseRequestSchema } from '../../core/schemas/requests.ts';
import { ClaimSchema, ClaimsPageSchema, JobPollSchema, ReportSchema, StoredReportSchema, SubjectCandidateSchema } from '../../core/schemas/resources.ts';

/**
 * The tools' input and output schemas, built from the zod schemas the REST
 * routes validate and answer with (core/schemas), never copied: a field's
 * type, limits and description are the REST one, so the tools cannot drift
 * from the routes they wrap. The SDK publishes them as JSON Schema; a client
 * such as the SDK's own `Client` checks every structured answer against the
 * output schema (objects there admit no property they do not list), so every
 * answer is parsed through its schema before it leaves (see tools.ts).
 */

/** A REST request field that takes null too, offered to tools as a plain optional field (same type, limits and description). */
const optional = <T extends z.ZodType>(field: z.ZodOptional<z.ZodNullable<T>>) => field.unwrap().unwrap().optional();

const report = ReportSchema.shape;
const stored = StoredReportSchema.shape;
const poll = JobPollSchema.shape;
const request = ReportRequestSchema.shape;

const jobId = ReportOrJobPathSchema.shape.report_or_job_id;
const reason = z.string().describe('Why there is no report or result: the job\'s reason, in words.');
const message = z.string().describe('What this answer means and what to do next.');

// lookup_reliability

export const LookupInputSchema = z.object({
  name: optional(request.name),
  subject_id: optional(request.subject_id).describe('The subject id (from an `ambiguous` answer, or an earlier report). Takes precedence over `name`.'),
  topic: optional(request.topic).describe(
    `Restrict the score to claims under this broad topic, one of: ${TOPICS.join(', ')}. Passed to POST /v1/reports as it is; a report restricted to a topic carries the caveat \`topic_filter\`, and the answer says when the report it got is not restricted to the topic asked for.`,
  ),
});

const { overall, ...byType } = report.scores.shape;

export const LookupOutputSchema = z.object({
  status: z
    .enum(['complete', 'pending', 'ambiguous', 'insufficient', 'refused'])
    .describe(
      'complete: the report is here. pending: it is being made; call again later to collect it. ambiguous: the name matches several subjects; call again with the subject_id of one of the candidates. insufficient: no score, for the reason given (too few resolved claims, or a new name that could not be identified). refused: the rules forbid a report (a serving politician, or a private person without consent).',
    ),
  message,
  review_status: report.review_status.optional(),
  review: report.review.optional().describe('Editorial review of the report: how many of its claims a person has reviewed, and once signed off by whom, with the machine\'s headline kept beside.'),
  subject: report.subject.optional(),
  overall: overall.describe('The headline score: all resolved claims pooled.'),
  scores: z.object(byType).describe('Scores for factual claims, promises, guidance and predictions; a type with no resolved claim is left out.').optional(),
  featured_claims: report.featured_claims.optional(),
  caveats: report.caveats.optional(),
  method_version: report.method_version.optional(),
  report_id: stored.report_id.optional(),
  generated_at: stored.generated_at.optional(),
  stale: stored.stale.optional(),
  html_url: stored.html_url.optional(),
  job_id: poll.job_id.optional().describe('The job making the report (pending), or the one that ended without one (insufficient, refused).'),
  reason: reason.optional(),
  claims: poll.claims.describe('When insufficient after research: every claim the research found, each with its verdict and evidence, and no score.'),
  candidates: z.array(SubjectCandidateSchema).optional().describe('When ambiguous: the subjects the name matches.'),
  progress: poll.progress.describe('When pending and the research has begun: its stage and counts so far (as the job poll gives them).'),
});

// check_claims

export const CheckInputSchema = z.object({
  text: optional(CheckRequestSchema.shape.text).describe('A text whose checkable claims to check (starts a check). Send this or job_id, not both.'),
  job_id: jobId.optional().describe('Collect the outcome of a check started earlier (its job_id), instead of starting one. Send this or text, not both.'),
});

export const CheckOutputSchema = z.object({
  status: z
    .enum(['complete', 'pending', 'insufficient'])
    .describe('complete: the outcomes are here. pending: the check is running; call again with job_id to collect it. insufficient: no checkable claim was found.'),
  job_id: JobAcceptedSchema.shape.job_id,
  message,
  results: poll.results.unwrap().optional().describe('Per-claim outcomes with the fixed test, reasoning and evidence; there is no overall score.'),
  review_status: ClaimSchema.shape.review_status.optional(),
  reason: reason.optional(),
  progress: poll.progress.describe('When pending and the job says where it is: its stage and counts so far (as the job poll gives them).'),
});

// get_evidence

export const EvidenceInputSchema = z.object({
  subject_id: SubjectPathSchema.shape.subject_id.describe('The subject the claim belongs to.'),
  claim_id: ResponseRequestSchema.shape.claim_id.describe('The claim (its claim_id in a report\'s featured claims or the claims list).'),
});

export const EvidenceOutputSchema = z.object({
  subject_id: ClaimsPageSchema.shape.subject_id,
  report_id: ClaimsPageSchema.shape.report_id.describe('The report the claim stands behind: the subject\'s latest.'),
  claim: ClaimSchema.describe('The claim with its quote, source, fixed test, outcome, rationale, evidence and any replies.'),
  review_status: ClaimSchema.shape.review_status,
  message,
});

export type LookupOutput = z.infer<typeof LookupOutputSchema>;
export type CheckOutput = z.infer<typeof CheckOutputSchema>;
export type EvidenceOutput = z.infer<typeof EvidenceOutputSchema>;
