import { z } from 'zod';
import { OutcomeSchema } from '../method/outcomes.ts';
import { HeadlineScoreSchema } from '../method/score.ts';
import { PagingSchema, SubjectIdSchema, pageQuery } from './common.ts';
import { ClaimResponseSchema, ClaimSchema } from './resources.ts';
import { ReplyDecisionValueSchema, ReviewStatusSchema } from './review-state.ts';

/** The bodies of the editorial review routes (api/routes/reviews.ts; issue #18). */

/**
 * Texts are trimmed before their length is checked, so one of only spaces is
 * empty: the pattern says so in the JSON Schema (after the trim it changes
 * nothing, and a blank text gets the one `string_too_short` it always got).
 */
const NOT_BLANK = /\S/;

const reviewer = z.string().trim().min(1, { abort: true }).max(200).regex(NOT_BLANK).describe('The reviewer\'s name as it is published with the review, 1 to 200 characters.');

export const ClaimReviewRequestSchema = z
  .object({
    version: z.string().min(1).max(100).describe('The claim\'s `review.version` as you read it. A review of an older version is refused: 409 `claim-changed` when the claim\'s quote, fixed test or evidence changed since, 409 `review-conflict` when someone reviewed it since.'),
    outcome: OutcomeSchema.describe('The outcome that stands: the machine\'s (to confirm it) or any other outcome of the scale (to correct it).'),
    rationale: z.string().trim().min(1, { abort: true }).max(4000).regex(NOT_BLANK).describe('Why, in words a reader can check against the evidence; published as the claim\'s rationale. 1 to 4,000 characters.'),
    reviewer,
  })
  .describe('A person\'s review of one claim: confirm the machine\'s outcome, or replace it.')
  .meta({ id: 'ClaimReviewRequest' });
export type ClaimReviewRequest = z.infer<typeof ClaimReviewRequestSchema>;

export const SignOffRequestSchema = z
  .object({
    reviewer,
    note: z.string().trim().min(1, { abort: true }).max(2000).regex(NOT_BLANK).nullish().describe('A note published with the sign-off, at most 2,000 characters.'),
  })
  .describe('A reviewer\'s sign-off of a report.')
  .meta({ id: 'SignOffRequest' });
export type SignOffRequest = z.infer<typeof SignOffRequestSchema>;

export const ReplyReviewRequestSchema = z
  .object({
    decision: ReplyDecisionValueSchema,
    note: z.string().trim().min(1, { abort: true }).max(500).regex(NOT_BLANK).describe('The published note, 1 to 500 characters: what was accepted (and how the claim was corrected), or why the reply was not accepted.'),
    reviewer,
  })
  .describe('A reviewer\'s decision on a subject\'s reply.')
  .meta({ id: 'ReplyReviewRequest' });
export type ReplyReviewRequest = z.infer<typeof ReplyReviewRequestSchema>;

export const REVIEW_ACTIONS = ['claim_review', 'review_lapsed', 'report_signoff', 'signoff_withdrawn', 'reply_decision'] as const;

export const ReviewRecordSchema = z
  .object({
    record_id: z.number().int().describe('The record entry\'s number; entries are numbered in the order they were made.'),
    action: z
      .enum(REVIEW_ACTIONS)
      .describe(
        '`claim_review`: a reviewer confirmed or corrected a claim. `review_lapsed`: a remade report changed a reviewed claim, so its review no longer holds (done by the service: `reviewer` null). `report_signoff`: a reviewer signed a report off. `signoff_withdrawn`: a later review changed an outcome a signed report\'s score was made with, so the report went back to unreviewed. `reply_decision`: a reviewer accepted a reply or did not.',
      ),
    subject_id: z.string(),
    report_id: z.string().nullable().describe('The report acted on, or whose version of the claim was reviewed.'),
    claim_id: z.string().nullable(),
    response_id: z.string().nullable().describe('For `reply_decision`: the reply.'),
    reviewer: z.string().nullable().describe('Who acted; null for what the service did itself.'),
    at: z.string().describe('ISO 8601 timestamp.'),
    before: z.record(z.string(), z.unknown()).nullable().describe('What stood before: `review_status`, and the outcome and rationale (a claim), the headline `score` (a report) or the `status` (a reply).'),
    after: z.record(z.string(), z.unknown()).nullable().describe('What stands after, in the same fields.'),
    note: z.string().nullable().describe('The reviewer\'s rationale or note, or the reason the service gives for a lapse or withdrawal.'),
  })
  .describe('One entry of the review record: every review, sign-off and reply decision, who, when, before and after. Nothing in it is ever changed or removed, and remaking a report loses none of it; it is in the export.')
  .meta({ id: 'ReviewRecord' });
export type ReviewRecord = z.infer<typeof ReviewRecordSchema>;

export const ClaimReviewAckSchema = z
  .object({
    claim_id: z.string(),
    subject_id: z.string(),
    report_id: z.string().describe('The report whose version of the claim was reviewed: the newest that carries it.'),
    claim: ClaimSchema.describe('The claim as it now stands.'),
    record: ReviewRecordSchema,
    signoffs_withdrawn: z.array(z.string()).describe('Signed-off reports that went back to unreviewed because this review changed an outcome their score was made with.'),
  })
  .meta({ id: 'ClaimReviewAck' });

export const RequiredClaimSchema = z
  .object({
    claim_id: z.string(),
    quote: z.string(),
    featured: z.boolean().describe('Featured by the report as the machine made it, or as it would be with the reviews so far.'),
    weight: z.number().describe('How far the machine\'s headline moves, in score points, when the claim is left out (100: the score cannot do without it).'),
    reviewed: z.boolean(),
  })
  .meta({ id: 'RequiredClaim' });

export const ReportReviewStateSchema = z
  .object({
    report_id: z.string(),
    subject_id: z.string(),
    review_status: ReviewStatusSchema,
    claims_total: z.number().int(),
    claims_reviewed: z.number().int(),
    weight_threshold: z.number().describe('Claims that move the headline by more than this many points must be reviewed before sign-off (as must every featured claim).'),
    required: z.array(RequiredClaimSchema).describe('The claims that must be reviewed before the report can be signed off, most weighty first.'),
    missing: z.array(z.string()).describe('Those of them not reviewed yet.'),
    can_sign_off: z.boolean(),
    blocked_by: z.string().nullable().describe('Why the report cannot be signed off now, in words; null when it can (or is signed off).'),
    signed_off_by: z.string().nullable(),
    signed_off_at: z.string().nullable(),
    note: z.string().nullable(),
    machine_score: HeadlineScoreSchema.describe('The headline as the machine made it.'),
    reviewed_score: HeadlineScoreSchema.nullable().describe('The headline with every reviewed outcome so far in place of the machine\'s: what a sign-off now would publish (the published one, once signed off). Null when those outcomes leave too few resolved claims for a score.'),
  })
  .describe('Where a report stands in editorial review, and what its sign-off needs.')
  .meta({ id: 'ReportReviewState' });

export const SignOffAckSchema = ReportReviewStateSchema.extend({ record: ReviewRecordSchema }).meta({ id: 'SignOffAck' });

export const ReplyReviewAckSchema = z
  .object({
    response: ClaimResponseSchema,
    claim_id: z.string(),
    subject_id: z.string(),
    record: ReviewRecordSchema,
  })
  .meta({ id: 'ReplyReviewAck' });

export const ReviewQueueItemSchema = z
  .object({
    subject_id: z.string(),
    subject_name: z.string(),
    report_id: z.string().describe('The subject\'s latest report on its whole record, whose claim this is.'),
    featured: z.boolean().describe('Featured in that report as the machine made it.'),
    weight: z.number().describe('How far the report\'s headline moves, in score points, when the claim is left out.'),
    required: z.boolean().describe('Whether the report\'s sign-off needs this claim reviewed (featured, or weight over the threshold).'),
    replies_waiting: z.number().int().min(0).describe('Replies to the claim no reviewer has decided on yet.'),
    waiting_for: z.array(z.enum(['review', 'replies'])).describe('`review`: the claim\'s current version is unreviewed; `replies`: replies wait for a decision.'),
    claim: ClaimSchema,
  })
  .meta({ id: 'ReviewQueueItem' });

export const ReviewQueueSchema = z
  .object({
    items: z.array(ReviewQueueItemSchema).describe('One page of the claims waiting, most consequential first: featured claims, then by weight on the headline, then by replies waiting.'),
    weight_threshold: z.number(),
    paging: PagingSchema,
  })
  .meta({ id: 'ReviewQueue' });

export const ReviewQueueQuerySchema = z.object({
  subject_id: SubjectIdSchema.optional().describe('Only this subject\'s claims.'),
  ...pageQuery('Claims'),
});

export const ResponsePathSchema = z.object({
  response_id: z.string().min(1).max(100).describe('A reply id (`rsp_…`).'),
});
