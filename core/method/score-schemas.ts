import { z } from 'zod';
import { ClaimTypeSchema, OutcomeSchema, ResolvedOutcomeSchema, TopicSchema } from './outcomes.ts';

// The scoring method's constants and the shapes of what it reads and gives
// (zod schemas, from which the REST, MCP and OpenAPI descriptions are built).
// The method itself is core/method/score.ts, which re-exports all of this.

/** Credit lost by a resolved promise with on_time false (one step of the scale). */
export const LATE_PROMISE_PENALTY = 0.25;
/** Below this many resolved claims in scope there is no report. */
export const MIN_RESOLVED = 5;
/** Below this many resolved claims of a type there is no score for the type (its claims still count in overall). */
export const MIN_TYPE_RESOLVED = 5;
/**
 * Widths are in score points: the upper end of interval_80 minus the lower. The
 * width decides; the claim minimum keeps a range that is narrow only because it
 * is pressed against 0 or 100 (five true claims) from counting as more.
 */
export const CONFIDENCE_RULES = Object.freeze({
  high: Object.freeze({ minResolved: 30, maxWidth: 25 }),
  medium: Object.freeze({ minResolved: 10, maxWidth: 40 }),
});
/** At most this many low-credit and this many high-credit claims are featured. */
export const FEATURED_PER_SIDE = 3;

export const ScoringClaimSchema = z
  .object({
    claim_id: z.string().min(1).describe('Identifier of the claim; unique within one call.'),
    claim_type: ClaimTypeSchema,
    topic: TopicSchema.nullable().optional().describe('Broad topic; a missing topic counts as other.'),
    outcome: OutcomeSchema,
    judges_disagree: z.boolean().describe('True when the independent judges gave different outcomes.'),
    on_time: z.boolean().nullable().describe('For promises: whether it was met by its deadline; null when no deadline or unknown.'),
    quote: z.string().describe('The claim in the subject\'s words.'),
    said_on: z.string().describe('When the claim was made: YYYY-MM-DD or an ISO 8601 timestamp.'),
    cluster: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .describe('The source the claim was taken from (its document URL, or a story): claims that share one count as correlated. Missing: the claim stands alone.'),
    reviewed: z.boolean().optional().describe('True when a person reviewed the outcome: a reviewed outcome carries no judge error. Missing: a machine verdict.'),
  })
  .describe('What the scoring method needs to know about one claim.');
export type ScoringClaim = z.infer<typeof ScoringClaimSchema>;

const Points = z.number().min(0).max(100);

export const ConfidenceLevelSchema = z
  .enum(['low', 'medium', 'high'])
  .describe('How far the score can be relied on, from the width of the 80% range.')
  .meta({ id: 'ConfidenceLevel' });
export type ConfidenceLevel = z.infer<typeof ConfidenceLevelSchema>;

export const ConfidenceSchema = z
  .object({
    level: ConfidenceLevelSchema,
    reasons: z.string().describe('Why this level, in words: the range width against the thresholds, and the claims it rests on.'),
  })
  .describe('Confidence in a score, with its reasons.')
  .meta({ id: 'Confidence' });
export type Confidence = z.infer<typeof ConfidenceSchema>;

export const Interval80Schema = z
  .tuple([Points, Points])
  .describe('The 80% range: 100 × the 10th and 90th percentiles of the posterior (for overall with several claim types, of the Beta distribution with its mean and variance), lower end rounded down and upper end rounded up to 0.1.')
  .meta({ id: 'Interval80' });

export const ScoreEntrySchema = z
  .object({
    score: Points.describe('100 × the posterior mean, rounded to 0.1.'),
    interval_80: Interval80Schema,
    n_resolved: z.int().min(0).describe('Number of resolved claims the score rests on.'),
    confidence: ConfidenceSchema,
  })
  .describe('Score for one claim type, or for all types pooled (overall).')
  .meta({ id: 'ScoreEntry' });
export type ScoreEntry = z.infer<typeof ScoreEntrySchema>;

export const HeadlineScoreSchema = z
  .object({
    score: Points.describe('The overall score: 100 × the posterior mean, rounded to 0.1.'),
    interval_80: Interval80Schema,
    confidence: ConfidenceLevelSchema,
    n_resolved: z.int().min(0).describe('Number of resolved claims the score rests on.'),
  })
  .describe('The headline score; it equals scores.overall, with the confidence level alone.')
  .meta({ id: 'HeadlineScore' });
export type HeadlineScore = z.infer<typeof HeadlineScoreSchema>;

const entryFor = (type: string) =>
  ScoreEntrySchema.optional().describe(`Score of ${type} claims; absent when fewer than ${MIN_TYPE_RESOLVED} are resolved.`);
export const ScoresSchema = z
  .object({
    overall: ScoreEntrySchema.describe('All resolved claims: the claim-weighted mean of the types\' reliabilities.'),
    factual: entryFor('factual'),
    promise: entryFor('promise'),
    guidance: entryFor('guidance'),
    prediction: entryFor('prediction'),
  })
  .describe('Scores by claim type, and overall.')
  .meta({ id: 'Scores' });
export type Scores = z.infer<typeof ScoresSchema>;

export const FeaturedClaimSchema = z
  .object({
    claim_id: z.string().describe('Identifier of the claim.'),
    claim_type: ClaimTypeSchema,
    quote: z.string().describe('The claim in the subject\'s words.'),
    said_on: z.string().describe('When the claim was made.'),
    outcome: ResolvedOutcomeSchema,
    credit: z.number().min(0).max(1).describe('Credit the claim counted for, after any late-promise deduction.'),
    why_featured: z
      .enum(['low_credit', 'high_credit'])
      .describe('low_credit: among the lowest-credit claims (credit 0.25 or less); high_credit: among the highest (0.75 or more).'),
  })
  .describe('A resolved claim shown with the report, chosen by a fixed rule.')
  .meta({ id: 'FeaturedClaim' });
export type FeaturedClaim = z.infer<typeof FeaturedClaimSchema>;

export const CAVEAT_CODES = [
  'machine_generated',
  'topic_filter',
  'low_confidence',
  'judges_disagree',
  'late_promises',
  'type_not_resolved',
  'type_too_few',
  'pending_claims',
  'unresolvable_claims',
] as const;
export const CaveatSchema = z
  .object({
    code: z.enum(CAVEAT_CODES).describe('Stable code for the caveat.'),
    message: z.string().describe('The caveat in words, for readers.'),
  })
  .describe('Something a reader should know before relying on the report.')
  .meta({ id: 'Caveat' });
export type Caveat = z.infer<typeof CaveatSchema>;

export const ScoredResultSchema = z
  .object({
    status: z.literal('scored'),
    score: HeadlineScoreSchema,
    scores: ScoresSchema,
    featured_claims: z.array(FeaturedClaimSchema).describe('At most 3 low-credit then 3 high-credit claims.'),
    caveats: z.array(CaveatSchema).describe('Caveats in their fixed order.'),
  })
  .describe('The parts of a report the scoring method makes.');
export type ScoredResult = z.infer<typeof ScoredResultSchema>;

export const InsufficientResultSchema = z
  .object({
    status: z.literal('insufficient'),
    reason: z.string().describe('Why there is no report, in words.'),
    n_resolved: z.int().min(0).describe('Resolved claims found.'),
    min_resolved: z.int().min(0).describe('Resolved claims a report needs.'),
    n_claims: z.int().min(0).describe('Claims found, resolved or not.'),
    n_pending: z.int().min(0).describe('Claims not yet due.'),
    n_unresolvable: z.int().min(0).describe('Claims the evidence does not settle.'),
  })
  .describe('Too few resolved claims for a report: the job ends as insufficient with this reason.');
export type InsufficientResult = z.infer<typeof InsufficientResultSchema>;
export type ScoringResult = ScoredResult | InsufficientResult;
