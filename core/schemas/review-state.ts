import { z } from 'zod';
import { OutcomeSchema, REVIEW_LABEL } from '../method/outcomes.ts';
import { HeadlineScoreSchema } from '../method/score.ts';

/**
 * The review state carried by the resources themselves (Claim, Report,
 * ClaimResponse): what editorial review adds to them (issue #18). The routes'
 * own bodies are in reviews.ts.
 */

/** A claim or report a person has reviewed: the label is removed and this takes its place. */
export const REVIEWED = 'reviewed' as const;

export const ReviewStatusSchema = z
  .enum([REVIEW_LABEL, REVIEWED])
  .describe(
    '`machine-generated, unreviewed` until a person has reviewed it, then `reviewed`. A claim is `reviewed` once a reviewer has confirmed or replaced the machine\'s outcome on its current version (its quote, fixed test and evidence); a report once a reviewer has signed it off. Show it beside any verdict or score.',
  )
  .meta({ id: 'ReviewStatus' });
export type ReviewStatus = z.infer<typeof ReviewStatusSchema>;

export const ClaimMachineVerdictSchema = z
  .object({
    outcome: OutcomeSchema,
    rationale: z.string().describe('The machine\'s reasoning.'),
    judges_disagree: z.boolean().describe('True when the machine\'s judges differed.'),
  })
  .describe('The verdict the machine gave, kept beside the reviewed one for the record. While the claim is unreviewed it is the claim\'s own `outcome` and `rationale`.')
  .meta({ id: 'ClaimMachineVerdict' });

export const CLAIM_PARTS = ['quote', 'fixed_test', 'evidence'] as const;

export const LapsedReviewSchema = z
  .object({
    reason: z.string().describe('Why the earlier review no longer holds, in words: which of the quote, fixed test and evidence changed, and when.'),
    changed: z.array(z.enum(CLAIM_PARTS)).describe('The parts of the claim that differ from the version that was reviewed.'),
    outcome: OutcomeSchema.describe('The outcome the earlier review gave.'),
    reviewer: z.string(),
    reviewed_at: z.string().describe('ISO 8601 timestamp of the earlier review.'),
  })
  .describe('A review of an earlier version of this claim, which lapsed when the claim changed.')
  .meta({ id: 'LapsedReview' });

export const ClaimReviewStateSchema = z
  .object({
    version: z
      .string()
      .describe(
        'The claim\'s review version: send it back as `version` with POST /v1/claims/{claim_id}/review. It changes when the claim\'s quote, fixed test or evidence change (a remade report) and with every review of the claim, so a review sent for an older version is refused (409 `claim-changed` or `review-conflict`). Opaque: compare it only for equality.',
      ),
    decision: z.enum(['confirmed', 'corrected']).nullable().describe('`confirmed`: the reviewer kept the machine\'s outcome; `corrected`: the reviewer gave another. Null while unreviewed.'),
    reviewer: z.string().nullable().describe('Who reviewed the claim; null while unreviewed.'),
    reviewed_at: z.string().nullable().describe('ISO 8601 timestamp of the review; null while unreviewed.'),
    rationale: z.string().nullable().describe('The reviewer\'s reasoning (also the claim\'s `rationale` while the review holds); null while unreviewed.'),
    revision: z.number().int().min(0).describe('How many reviews this version of the claim has had (0: none). Every one is in the record.'),
    lapsed: LapsedReviewSchema.nullable().describe('When the claim is unreviewed because it changed since a person reviewed it: that review and why it lapsed. Null otherwise.'),
  })
  .describe('Where the claim stands in editorial review.')
  .meta({ id: 'ClaimReviewState' });
export type ClaimReviewState = z.infer<typeof ClaimReviewStateSchema>;

export const ReportReviewSummarySchema = z
  .object({
    claims_total: z.number().int().min(0).describe('Claims in the report.'),
    claims_reviewed: z.number().int().min(0).describe('Of them, the claims whose version in this report a person has reviewed. Shown beside the label while the report is unreviewed.'),
    signed_off_by: z.string().nullable().describe('The reviewer who signed the report off; null until then.'),
    signed_off_at: z.string().nullable().describe('ISO 8601 timestamp of the sign-off; null until then.'),
    note: z.string().nullable().describe('The reviewer\'s sign-off note, if any.'),
    machine_score: HeadlineScoreSchema.nullable().describe('Once signed off: the headline as the machine made it, kept beside the reviewed `score`. Null before.'),
  })
  .describe(
    'Editorial review of the report. Until a reviewer signs it off, `score`, `scores`, `featured_claims` and `caveats` are the machine\'s and `review_status` is the label; once signed off they are recomputed by the method with every reviewed outcome in place of the machine\'s, and `review_status` is `reviewed`.',
  )
  .meta({ id: 'ReportReviewSummary' });
export type ReportReviewSummary = z.infer<typeof ReportReviewSummarySchema>;

/** A new report's summary: nothing signed, `reviewed` claims carried over. */
export function unsignedSummary(total: number, reviewed: number): ReportReviewSummary {
  return { claims_total: total, claims_reviewed: reviewed, signed_off_by: null, signed_off_at: null, note: null, machine_score: null };
}

export const REPLY_DECISIONS = ['accepted', 'not_accepted'] as const;
export const ReplyDecisionValueSchema = z
  .enum(REPLY_DECISIONS)
  .describe('`accepted`: the reply is right (and the claim was corrected, or stands corrected by it); `not_accepted`: it is not, and the note says why.')
  .meta({ id: 'ReplyDecisionValue' });

/** A reply's status: the first until a person has reviewed it, then one of the other two. */
export const REPLY_STATUSES = ['response received, not yet reviewed', 'reviewed: accepted', 'reviewed: not accepted'] as const;
export const replyStatusOf = (d: (typeof REPLY_DECISIONS)[number]) => (d === 'accepted' ? REPLY_STATUSES[1] : REPLY_STATUSES[2]);

export const ReplyDecisionSchema = z
  .object({
    decision: ReplyDecisionValueSchema,
    note: z.string().describe('The reviewer\'s published note: what was accepted and corrected, or why the reply was not accepted.'),
    reviewer: z.string(),
    reviewed_at: z.string().describe('ISO 8601 timestamp.'),
  })
  .describe('A reviewer\'s decision on a reply, published with it.')
  .meta({ id: 'ReplyDecision' });
export type ReplyDecision = z.infer<typeof ReplyDecisionSchema>;
