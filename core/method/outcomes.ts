import { z } from 'zod';

// The vocabulary of the method: one outcome scale shared by machine judges and
// human reviewers, the claim types, and the broad topics. Each list is the single
// source for its TypeScript type, its zod schema and the OpenAPI component, and
// content/methodology.md states the same lists (a test holds them together).

/** Outcomes that settle a claim and earn a credit. Ordered from best to worst. */
export const RESOLVED_OUTCOMES = ['true', 'mostly_true', 'mixed', 'mostly_false', 'false'] as const;

/**
 * The full outcome scale. `unresolvable`: the evidence does not settle the claim.
 * `pending`: the claim is not yet due (a promise, guidance or prediction whose date
 * has not come).
 */
export const OUTCOMES = [...RESOLVED_OUTCOMES, 'unresolvable', 'pending'] as const;

/**
 * Credit of each resolved outcome: the share of the claim that held, in steps of
 * 0.25. (The scorer sorts claims by id before it adds anything, so their order
 * can never change a score.)
 */
export const CREDITS: Readonly<Record<ResolvedOutcome, number>> = Object.freeze({
  true: 1,
  mostly_true: 0.75,
  mixed: 0.5,
  mostly_false: 0.25,
  false: 0,
});

export function isResolved(outcome: Outcome): outcome is ResolvedOutcome {
  return (RESOLVED_OUTCOMES as readonly string[]).includes(outcome);
}

/** Credit of a resolved outcome; `null` for `unresolvable` and `pending`, which earn none. */
export function creditOf(outcome: Outcome): number | null {
  return isResolved(outcome) ? CREDITS[outcome] : null;
}

export const CLAIM_TYPES = ['factual', 'promise', 'guidance', 'prediction'] as const;

export const CLAIM_TYPE_DESCRIPTIONS: Readonly<Record<ClaimType, string>> = Object.freeze({
  factual: 'A statement about the past or the present that can be checked now.',
  promise: 'A commitment by the subject to do something, or to have something done, often by a date.',
  guidance: 'Advice or an official recommendation to the public: what people or organisations should or should not do.',
  prediction: 'A forecast about events the subject does not control.',
});

/** Broad topics a claim is filed under; `other` catches what fits none. */
export const TOPICS = [
  'economy',
  'business',
  'health',
  'environment',
  'technology',
  'science',
  'education',
  'public_safety',
  'governance',
  'media',
  'transport',
  'housing',
  'other',
] as const;

export const TOPIC_DESCRIPTIONS: Readonly<Record<Topic, string>> = Object.freeze({
  economy: 'Growth, prices, jobs, wages, trade, taxes and public spending.',
  business: 'Companies\' own results, customers, prices, services and conduct.',
  health: 'Health care, public health, medicines and disease.',
  environment: 'Climate, energy, water, pollution and nature.',
  technology: 'Technology, the internet, data and digital services.',
  science: 'Research findings, studies and scientific evidence.',
  education: 'Schools, universities, skills and training.',
  public_safety: 'Crime, policing, emergencies, accidents and safety warnings.',
  governance: 'Elections, institutions, regulation and the conduct of government and organisations.',
  media: 'News outlets, journalism, readership, corrections and press conduct.',
  transport: 'Roads, rail, buses, ferries, air travel and their services.',
  housing: 'Homes, rents, house prices, building and planning.',
  other: 'Anything that fits none of the topics above.',
});

/** Verdicts a human reviewer may record: the outcome scale minus `pending`, plus `not_a_claim`. */
export const LABEL_VERDICTS = [...RESOLVED_OUTCOMES, 'unresolvable', 'not_a_claim'] as const;

/** Shown beside every machine verdict or score until a person has reviewed it. */
export const REVIEW_LABEL = 'machine-generated, unreviewed';

export const ResolvedOutcomeSchema = z
  .enum(RESOLVED_OUTCOMES)
  .describe('An outcome that settles a claim: true (credit 1), mostly_true (0.75), mixed (0.5), mostly_false (0.25), false (0).')
  .meta({ id: 'ResolvedOutcome' });

export const OutcomeSchema = z
  .enum(OUTCOMES)
  .describe(
    'Outcome of a claim on the scale shared by machine judges and human reviewers: true, mostly_true, mixed, mostly_false, false (resolved); unresolvable (the evidence does not settle it); pending (not yet due).',
  )
  .meta({ id: 'Outcome' });

export const ClaimTypeSchema = z
  .enum(CLAIM_TYPES)
  .describe(
    'Kind of claim: factual (checkable now), promise (a commitment to act), guidance (a forecast of results the subject controls or reports), prediction (a forecast of events the subject does not control).',
  )
  .meta({ id: 'ClaimType' });

export const TopicSchema = z
  .enum(TOPICS)
  .describe(`Broad topic a claim is filed under, one of: ${TOPICS.join(', ')}.`)
  .meta({ id: 'Topic' });

export const LabelVerdictSchema = z
  .enum(LABEL_VERDICTS)
  .describe('A reviewer\'s verdict: a resolved outcome, unresolvable, or not_a_claim (the text is not a checkable claim).')
  .meta({ id: 'LabelVerdict' });

export type ResolvedOutcome = z.infer<typeof ResolvedOutcomeSchema>;
export type Outcome = z.infer<typeof OutcomeSchema>;
export type ClaimType = z.infer<typeof ClaimTypeSchema>;
export type Topic = z.infer<typeof TopicSchema>;
export type LabelVerdict = z.infer<typeof LabelVerdictSchema>;
