import { scoreClaims, type ScoringClaim, type ScoringResult } from '../method/score.ts';
import { isResolved, type Outcome, type Topic } from '../method/outcomes.ts';

/**
 * How much each claim weighs in its report, and the report's score with the
 * reviewed outcomes: the two things editorial review needs from the method.
 * Pure; both go through the method's own entry point, scoreClaims, so they
 * follow whatever the method does (content/methodology.md, "Editorial review").
 */

/**
 * A claim moves the headline "by more than the documented amount" when
 * leaving it out moves the headline score by more than this many points.
 * Such claims, and every featured claim, must be reviewed before a report is
 * signed off. (Stated in content/methodology.md, "Editorial review".)
 */
export const REVIEW_WEIGHT_POINTS = 2;

/** The weight given to a claim without which the report would have too few resolved claims for any score. */
export const CARRIES_THE_SCORE = 100;

/** What scoring needs of a stored claim: the same fields the pipeline's score stage passes (core/research/score-stage.ts). */
export type StoredScoringFields = {
  claim_id: string;
  claim_type: ScoringClaim['claim_type'];
  topic?: Topic | null;
  outcome: Outcome;
  judges_disagree: boolean;
  on_time?: boolean | null;
  quote: string;
  said_on?: string | null;
  /** The claim's source document: claims of one source are scored as correlated (core/method/score.ts, `cluster`). */
  source?: { url?: string | null } | null;
};

export function scoringClaimOf(c: StoredScoringFields): ScoringClaim {
  return {
    claim_id: c.claim_id,
    claim_type: c.claim_type,
    topic: c.topic ?? null,
    outcome: c.outcome,
    judges_disagree: c.judges_disagree === true,
    on_time: c.on_time ?? null,
    quote: c.quote,
    said_on: c.said_on ?? '',
    // The same clustering as the pipeline's score (core/research/score-stage.ts), so a rescore after review matches it.
    ...(c.source?.url ? { cluster: c.source.url } : {}),
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * Each claim's weight on the headline: how far the headline score moves, in
 * points, when the claim is left out and the rest are scored by the method.
 * A claim the score cannot do without (leaving it out leaves too few resolved
 * claims) weighs CARRIES_THE_SCORE. Every weight is 0 when the claims make no
 * score at all, and an unresolved claim's always is. One scoring per resolved
 * claim: measured about 0.5 s for 150 claims, 1 s for 300 (2 shared cores), once per
 * stored report.
 */
export function headlineWeights(claims: readonly ScoringClaim[], topic: Topic | null): Map<string, number> {
  const out = new Map<string, number>();
  const full = scoreClaims(claims, { topic });
  for (const c of claims) {
    // An unresolved claim earns no credit (isResolved, the method's own rule): leaving it out moves nothing, and costs no scoring.
    if (full.status !== 'scored' || !isResolved(c.outcome)) {
      out.set(c.claim_id, 0);
      continue;
    }
    const without = scoreClaims(claims.filter((x) => x !== c), { topic });
    out.set(c.claim_id, without.status === 'scored' ? round2(Math.abs(full.score.score - without.score.score)) : CARRIES_THE_SCORE);
  }
  return out;
}

/**
 * The claims scored with each reviewed outcome in place of the machine's, and
 * marked `reviewed` (ScoringClaimSchema): the method's range carries no judge
 * error for a verdict a person gave.
 */
export function rescore(claims: readonly ScoringClaim[], reviewed: ReadonlyMap<string, Outcome>, topic: Topic | null): ScoringResult {
  return scoreClaims(
    claims.map((c) => {
      const outcome = reviewed.get(c.claim_id);
      return outcome === undefined ? c : { ...c, outcome, reviewed: true };
    }),
    { topic },
  );
}

/** Whether a claim must be reviewed before its report is signed off. */
export function mustBeReviewed(c: { featured: boolean; weight: number }): boolean {
  return c.featured || c.weight > REVIEW_WEIGHT_POINTS;
}
