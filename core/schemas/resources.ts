import { z } from 'zod';
import { ClaimTypeSchema, OutcomeSchema, LabelVerdictSchema, TopicSchema } from '../method/outcomes.ts';
import { CaveatSchema, FeaturedClaimSchema, HeadlineScoreSchema, ScoreEntrySchema } from '../method/score.ts';
import { JobStatusSchema, PagingSchema, RESPONSES_INLINE, SubjectKindSchema } from './common.ts';
import { MeasurementSchema } from './demo.ts';
// The labels' schemas live in labels.ts; they are re-exported here, where every reader has found them.
export * from './labels.ts';
import { EvidenceSchema, REVIEW } from './evidence.ts';
export { EvidenceSchema, REVIEW };
import { ClaimMachineVerdictSchema, ClaimReviewStateSchema, REPLY_STATUSES, ReplyDecisionSchema, ReportReviewSummarySchema, ReviewStatusSchema } from './review-state.ts';
export { DemoSchema, MeasurementSchema } from './demo.ts';

/** The service's resources as they go out. Response schemas strip anything unlisted. */


export const SubjectSchema = z
  .object({
    subject_id: z.string().describe('Subject identifier.'),
    name: z.string().describe('Name, at most 300 characters.'),
    kind: SubjectKindSchema,
    aliases: z.array(z.string()).describe('Other names the subject goes by.'),
    description: z.string().nullable().describe('One line on who or what the subject is.'),
    public_figure: z.boolean().describe('False for a private person, who needs `consent_ref` to get a report.'),
    serving_politician: z.boolean().describe('True while the subject holds political office; the service makes no report on them.'),
    demo: z.boolean().describe('True for a demo subject whose claims carry outcomes published by others.'),
  })
  .meta({ id: 'Subject' });

export const SubjectDetailSchema = SubjectSchema.extend({
  latest_report: z
    .object({
      report_id: z.string(),
      generated_at: z.string().describe('ISO 8601 timestamp.'),
      score: z.number().nullable(),
      stale: z.boolean(),
      html_url: z.string(),
    })
    .nullable()
    .describe('The newest stored report on the subject\'s whole record, or null when none is stored. A report on one topic never stands here.'),
}).meta({ id: 'SubjectDetail' });

export const SubjectListSchema = z
  .object({
    subjects: z.array(SubjectDetailSchema).describe('One page of the subjects with at least one stored report on their whole record, newest such report first (reports on one topic neither list a subject nor move it).'),
    paging: PagingSchema.describe('Paging over those subjects.'),
  })
  .meta({ id: 'SubjectList' });

export const ResolveCandidateSchema = z
  .object({
    subject_id: z.string().nullable().describe('Known subjects carry their id; null for a name not yet known.'),
    name: z.string(),
    kind: SubjectKindSchema.nullable(),
    description: z.string().nullable(),
    known: z.boolean().describe('True when the subject is already stored.'),
    public_figure: z.boolean().nullable().describe('Null when it could not be established.'),
    serving_politician: z.boolean().nullable(),
    eligible: z.boolean().describe('Whether a report may be made under the rules.'),
    needs_consent_ref: z.boolean().describe('True for a person who is not a public figure.'),
    reason: z.string().nullable().describe('Why the subject is not eligible, when it is not.'),
  })
  .meta({ id: 'ResolveCandidate' });

export const ResolveResponseSchema = z
  .object({ candidates: z.array(ResolveCandidateSchema) })
  .meta({ id: 'ResolveResponse' });

export const ClaimResponseSchema = z
  .object({
    response_id: z.string().describe('`rsp_…`.'),
    name: z.string().describe('Who sent the reply.'),
    role: z.string().nullable().describe('The sender\'s role, as they gave it; null when not given.'),
    statement: z.string().describe('The reply or correction, as sent.'),
    counter_evidence_url: z.string().nullable().describe('The counter-evidence link (http or https), as sent; null when none.'),
    received_at: z.string().describe('ISO 8601 timestamp.'),
    status: z.string().describe(`\`${REPLY_STATUSES[0]}\` until a person has reviewed it; then \`${REPLY_STATUSES[1]}\` or \`${REPLY_STATUSES[2]}\`, with the reviewer's note in \`review\`.`),
    review: ReplyDecisionSchema.nullable().describe('The reviewer\'s decision and published note; null until a person has reviewed the reply.'),
  })
  .describe('A reply or correction stored against a claim. Shown as sent, not checked by the service; the key that sent it is not shown.')
  .meta({ id: 'ClaimResponse' });

export const ClaimSchema = z
  .object({
    claim_id: z.string(),
    claim_type: ClaimTypeSchema,
    topic: TopicSchema,
    quote: z.string().describe('The claim\'s wording, verbatim from the source.'),
    quote_verified: z.boolean().describe('True only when the quote occurs in the fetched source text.'),
    said_on: z.string().nullable().describe('Date the claim was made, YYYY-MM-DD.'),
    source: z.object({
      url: z.string(),
      title: z.string().nullable(),
      outlet: z.string().nullable(),
      published: z.string().nullable(),
    }),
    resolution_criteria: z.string().describe('The fixed test applied to the claim, written before evidence was looked at.'),
    due: z.string().nullable().describe('For promises and predictions, when the claim falls due (YYYY-MM-DD).'),
    outcome: OutcomeSchema,
    on_time: z.boolean().nullable().describe('For promises: whether it was kept by its deadline.'),
    rationale: z.string().describe('Why the outcome, in words a reader can check against the evidence.'),
    evidence: z.array(EvidenceSchema),
    judges_disagree: z.boolean(),
    responses: z
      .array(ClaimResponseSchema)
      .max(RESPONSES_INLINE)
      .describe(`The claim's ${RESPONSES_INLINE} newest replies, newest first (all of them when it has no more). \`responses_total\` says how many it has; \`responses_url\` lists them all.`),
    responses_total: z.number().int().min(0).describe('How many replies the claim has in all.'),
    responses_url: z.string().describe('Path of every reply to the claim, newest first, a page at a time: `/v1/claims/<claim_id>/responses`.'),
    review_status: ReviewStatusSchema,
    machine_verdict: ClaimMachineVerdictSchema,
    review: ClaimReviewStateSchema,
  })
  .describe(
    'A claim and its verdict. `outcome` and `rationale` are the verdict that stands: the machine\'s while `review_status` is `machine-generated, unreviewed`, the reviewer\'s once it is `reviewed` (the machine\'s is kept beside it in `machine_verdict`). A review holds for the version of the claim it was made on: when a remade report changes the claim\'s quote, fixed test or evidence, the claim is unreviewed again and `review.lapsed` says why.',
  )
  .meta({ id: 'Claim' });

export const ReportSchema = z
  .object({
    subject: SubjectSchema,
    method_version: z.string().describe('`<major>.<minor>.<patch>+<build id>` of the scoring method.'),
    score: HeadlineScoreSchema,
    scores: z
      .object({
        factual: ScoreEntrySchema.optional(),
        promise: ScoreEntrySchema.optional(),
        guidance: ScoreEntrySchema.optional(),
        prediction: ScoreEntrySchema.optional(),
        overall: ScoreEntrySchema.optional(),
      })
      .describe('Scores by claim type, and overall. A type with no claims is left out.'),
    featured_claims: z.array(FeaturedClaimSchema),
    caveats: z.array(CaveatSchema),
    review_status: ReviewStatusSchema,
    review: ReportReviewSummarySchema,
  })
  .meta({ id: 'Report' });

export const StoredReportSchema = z
  .object({
    report_id: z.string().startsWith('rep_'),
    status: z.literal('complete'),
    generated_at: z.string().describe('ISO 8601 timestamp.'),
    stale: z.boolean().describe('True when the report is 90 days old or more; a refresh job runs meanwhile.'),
    topic: TopicSchema.nullable().describe(
      'Null for a report on the subject\'s whole record. Otherwise the one topic the report is on: only claims filed under it are scored, and it is served only to requests for that topic, never as the subject\'s latest report.',
    ),
    report: ReportSchema,
    html_url: z.string().describe('Path `/v1/reports/<report_id>/html`.'),
  })
  .meta({ id: 'StoredReport' });

export const CheckResultSchema = z
  .object({
    claim_id: z.string().describe('`chk_…`: the claim\'s id within this job (not a stored claim: replies and labels do not take it).'),
    text: z
      .string()
      .describe('The claim as checked: the sentence taken from the submitted text, verbatim, or one submitted claim. Kept in the result; the rest of the submitted text (and the author) is deleted when the job ends.'),
    claim_type: ClaimTypeSchema,
    topic: TopicSchema,
    resolution_criteria: z.string().describe('The fixed test, written before any evidence was looked at.'),
    outcome: OutcomeSchema,
    rationale: z.string().describe('Why the outcome, in words a reader can check against the evidence.'),
    evidence: z.array(EvidenceSchema),
    judges_disagree: z.boolean(),
    review_status: REVIEW,
  })
  .describe('One checked claim: its outcome with the reasoning and evidence. A check gives no score.')
  .meta({ id: 'CheckResult' });

export const FoundClaimSchema = ClaimSchema.pick({
  claim_type: true, topic: true, quote: true, quote_verified: true, said_on: true, source: true, resolution_criteria: true,
  due: true, outcome: true, on_time: true, rationale: true, evidence: true, judges_disagree: true,
})
  .extend({ review_status: REVIEW })
  .describe('A claim a report job found and judged, though too few of them were resolved to make a report: not stored, so it has no id (replies and labels do not take it) and counts towards no score.')
  .meta({ id: 'FoundClaim' });

/** The research stages a report job passes through, in order. */
export const JOB_STAGES = ['identify', 'discover', 'extract', 'evidence', 'judge', 'score'] as const;

export const JobProgressSchema = z
  .object({
    stage: z
      .enum(JOB_STAGES)
      .describe(
        'The stage the research is at, in this order: `identify` (the subject and the rules on who may be reported on), `discover` (finding the documents in which the subject speaks), `extract` (taking checkable claims from them, each with its fixed test), `evidence` (looking for evidence on each claim; a claim is judged as soon as its evidence is in, so `claims_judged` rises here too), `judge` (every claim has its evidence; the last ones are being judged), `score` (scoring and storing the report).',
      ),
    documents: z.number().int().min(0).describe('Documents read so far: the subject\'s statement documents found by `discover` (0 before then).'),
    claims_found: z.number().int().min(0).describe('Checkable claims found so far (0 before `extract` has finished).'),
    claims_judged: z.number().int().min(0).describe('Claims judged so far, of `claims_found`. Updated at most every second or every 10 claims.'),
  })
  .describe('Where a running report job is: its stage and its counts so far. Counts never go down while an attempt runs; a retried job starts again from `identify`.')
  .meta({ id: 'JobProgress' });

export type JobProgress = z.infer<typeof JobProgressSchema>;

export const JobPollSchema = z
  .object({
    job_id: z.string().startsWith('job_'),
    kind: z.enum(['report', 'check']).describe('What the job makes.'),
    status: JobStatusSchema,
    poll: z.string(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    reason: z.string().nullable().describe('Why the job ended `insufficient`, `refused` or `failed`; null otherwise.'),
    report_id: z.string().nullable().describe('Once `complete`, for a report job: the stored report.'),
    report: ReportSchema.nullable().describe('Once `complete`, for a report job: the finished report.'),
    results: z.array(CheckResultSchema).nullable().describe('Once `complete`, for a check job: per-claim outcomes, in the order the claims stand in the text (or were sent); no score. Null otherwise.'),
    claims: z
      .array(FoundClaimSchema)
      .optional()
      .describe('Only when a report job ended `insufficient` after its research: every claim it found, each with its verdict and evidence, and no score (`reason` says how many were resolved and how many a report needs). Absent otherwise.'),
    progress: JobProgressSchema.optional().describe('Only while a report job is `running` and has begun its first stage: where it is and its counts so far. Absent otherwise (queued, ended, and check jobs).'),
  })
  .meta({ id: 'JobPoll' });

export const ClaimsPageSchema = z
  .object({
    subject_id: z.string(),
    report_id: z.string(),
    claims: z.array(ClaimSchema),
    paging: PagingSchema,
  })
  .meta({ id: 'ClaimsPage' });

export const ClaimResponsesPageSchema = z
  .object({
    claim_id: z.string(),
    subject_id: z.string().describe('The subject whose claim it is.'),
    responses: z.array(ClaimResponseSchema).describe('This page of the claim\'s replies, newest first.'),
    paging: PagingSchema,
  })
  .meta({ id: 'ClaimResponsesPage' });

export const ResponseAckSchema = z
  .object({
    response_id: z.string().describe('`rsp_…`: the stored reply.'),
    claim_id: z.string().describe('The claim it is stored against.'),
    subject_id: z.string().describe('The subject whose claim it is.'),
    status: z.literal('response received, not yet reviewed').describe('The reply\'s status, as it shows on the claim until a person has reviewed it.'),
    received_at: z.string().describe('ISO 8601 timestamp.'),
  })
  .describe('The reply is stored; it shows at once in the claim\'s `responses` (e.g. GET /v1/subjects/{subject_id}/claims) as a ClaimResponse.')
  .meta({ id: 'ResponseAck' });

export type CheckResult = z.infer<typeof CheckResultSchema>;
export type FoundClaim = z.infer<typeof FoundClaimSchema>;
export type ClaimResponse = z.infer<typeof ClaimResponseSchema>;

export const HealthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });

/** The price counted for one model's calls against the daily spending ceiling. */
export const ModelPriceSchema = z
  .object({
    model: z.string().describe('The model name as configured (MODEL_NAME or MODEL_JUDGE_NAME).'),
    input_per_mtok: z.number().min(0).describe('Price of one million input tokens, in `currency`.'),
    output_per_mtok: z.number().min(0).describe('Price of one million output tokens, in `currency`.'),
    currency: z.literal('USD').describe('Always US dollars, the currency of the spending ceiling.'),
    source: z
      .enum(['configured', 'table', 'local', 'default'])
      .describe(
        'Where the price comes from: `configured` (the operator\'s MODEL_PRICE_* or MODEL_JUDGE_PRICE_* variables), `table` (the service\'s dated table of well-known hosted models\' list prices, see `table_date`), `local` (a model server on loopback or a private address: free) or `default` (an unknown model: a conservative price above every table entry, until the operator sets the real one).',
      ),
    table_date: z.string().nullable().describe('With `source` `table`: the day (YYYY-MM-DD) the table\'s list prices were read. Otherwise null.'),
  })
  .meta({ id: 'ModelPrice' });

export const StatusSchema = z
  .object({
    method_version: z.string(),
    queue: z.object({
      depth: z.number().int().describe('Jobs waiting or running, all queues.'),
      queued: z.number().int(),
      active: z.number().int(),
      by_queue: z.record(z.string(), z.object({ queued: z.number().int(), active: z.number().int() })),
    }),
    spend: z.object({
      day: z.string().describe('The UTC day, YYYY-MM-DD.'),
      spent_usd: z.number(),
      limit_usd: z.number(),
      remaining_usd: z.number(),
      calls: z.number().int().min(0).describe('Paid calls counted in today\'s spend (each model call; an answer from the model cache is neither paid nor counted).'),
    }),
    model_price: z
      .object({
        model: ModelPriceSchema.describe('The price of MODEL_NAME, the model every model-backed stage calls.'),
        judge: ModelPriceSchema.nullable().describe('The price of MODEL_JUDGE_NAME, the second judge\'s model; null when the second judge uses MODEL_NAME.'),
      })
      .nullable()
      .describe('The prices in force for the configured model\'s calls, counted against the daily ceiling; null without a model (MODEL_PROVIDER=none: nothing is paid).'),
  })
  .meta({ id: 'Status' });

export const MethodologySchema = z
  .object({
    method_version: z.string(),
    markdown: z.string().describe('The published method, Markdown.'),
    measurement: MeasurementSchema.nullable().describe('The latest published measurement; null when none is published yet.'),
    measurement_note: z.string().describe('Says plainly when no measurement is published yet.'),
  })
  .meta({ id: 'Methodology' });


/**
 * One of the subjects a name matches, as a 409 from POST /v1/reports lists
 * them in `candidates` (core/reports/service.ts `candidateOf`): resend with its
 * `subject_id`. The MCP tool's `ambiguous` answer carries the same objects.
 */
export const SubjectCandidateSchema = SubjectSchema.pick({ subject_id: true, name: true, kind: true, description: true })
  .describe('A subject the name matches; ask again with its subject_id.')
  .meta({ id: 'SubjectCandidate' });
