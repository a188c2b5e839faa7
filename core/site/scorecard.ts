import { CLAIM_TYPES, OUTCOMES, RESOLVED_OUTCOMES, type Outcome } from '../method/outcomes.ts';
import { OUTCOME_LABELS } from './claim-review.ts';

/**
 * The report page as a scorecard (issue #15): its claims grouped by type of
 * claim and, within a type, by outcome, settled ones (the five resolved
 * outcomes) before those that settle nothing (unresolvable, then pending);
 * the anchors a reader jumps to; and the counts the verdict chart draws.
 * Pure functions of the page's data, so a page built statically and one
 * rendered on demand group the same claims the same way.
 */

export const TYPE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  overall: 'Overall', factual: 'Factual claims', promise: 'Promises', guidance: 'Guidance', prediction: 'Predictions',
});

export type ScoredClaim = { claim_id: string; claim_type: string; outcome: Outcome; outcome_label: string };

/** Stored claim types are the method's four; any other (an older report's) gets a label and an anchor all the same. */
const typeLabel = (type: string) => TYPE_LABELS[type] ?? type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'other';

/** Anchor of a claim type's group on the report page. */
export const typeAnchor = (type: string) => `claims-${slug(type)}`;
/** Anchor of the claims of one outcome within one claim type. */
export const outcomeAnchor = (type: string, outcome: string) => `${typeAnchor(type)}-${slug(outcome)}`;

export const isSettled = (outcome: Outcome): boolean => (RESOLVED_OUTCOMES as readonly string[]).includes(outcome);

/** The method's types in their order, then any other type present, by name. */
function typeOrder(claims: readonly ScoredClaim[]): string[] {
  const extra = [...new Set(claims.map((c) => c.claim_type))].filter((t) => !(CLAIM_TYPES as readonly string[]).includes(t)).sort();
  return [...CLAIM_TYPES, ...extra];
}

/** Outcome rank: resolved outcomes from true to false, then unresolvable, then pending (OUTCOMES' order); an unknown one last. */
const outcomeRank = (o: string) => {
  const i = (OUTCOMES as readonly string[]).indexOf(o);
  return i === -1 ? OUTCOMES.length : i;
};

export type OutcomeGroup<C extends ScoredClaim> = { outcome: Outcome; label: string; id: string; settled: boolean; claims: C[] };
export type TypeGroup<C extends ScoredClaim> = { type: string; label: string; id: string; count: number; settled: number; outcomes: OutcomeGroup<C>[] };

/**
 * The claims as the page lists them: by type (only types that have claims),
 * then by outcome, settled first; claims of one outcome keep the report's order.
 */
export function claimGroups<C extends ScoredClaim>(claims: readonly C[]): TypeGroup<C>[] {
  return typeOrder(claims).flatMap((type) => {
    const ofType = claims.filter((c) => c.claim_type === type);
    if (ofType.length === 0) return [];
    const outcomes = [...new Set(ofType.map((c) => c.outcome))].sort((a, b) => outcomeRank(a) - outcomeRank(b));
    return [{
      type, label: typeLabel(type), id: typeAnchor(type), count: ofType.length, settled: ofType.filter((c) => isSettled(c.outcome)).length,
      outcomes: outcomes.map((outcome) => {
        const of = ofType.filter((c) => c.outcome === outcome);
        return { outcome, label: of[0]!.outcome_label, id: outcomeAnchor(type, outcome), settled: isSettled(outcome), claims: of };
      }),
    }];
  });
}

/** The claims in the order the page shows them. */
export function scorecardOrder<C extends ScoredClaim>(claims: readonly C[]): C[] {
  return claimGroups(claims).flatMap((g) => g.outcomes.flatMap((o) => o.claims));
}

export type VerdictRow = { type: string; label: string; total: number; counts: { outcome: Outcome; count: number }[] };
export type VerdictMatrix = { rows: VerdictRow[]; totals: { outcome: Outcome; label: string; count: number }[]; claims: number };

/**
 * Verdict counts by claim type and outcome: a row for each of the method's
 * four types (none is left out, so reports read alike), then any other type
 * present; every outcome in each row, in OUTCOMES' order, zeros included.
 */
export function verdictMatrix(claims: readonly ScoredClaim[]): VerdictMatrix {
  const rows = typeOrder(claims).map((type) => {
    const ofType = claims.filter((c) => c.claim_type === type);
    return { type, label: typeLabel(type), total: ofType.length, counts: OUTCOMES.map((outcome) => ({ outcome, count: ofType.filter((c) => c.outcome === outcome).length })) };
  });
  const totals = OUTCOMES.map((outcome) => ({ outcome, label: OUTCOME_LABELS[outcome], count: claims.filter((c) => c.outcome === outcome).length }));
  return { rows, totals, claims: claims.length };
}
