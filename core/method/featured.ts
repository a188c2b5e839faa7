import { FEATURED_PER_SIDE, type FeaturedClaim, type ScoringClaim } from './score-schemas.ts';
import type { ResolvedOutcome } from './outcomes.ts';

// Which claims a report features (content/methodology.md, "Featured claims"): the resolved claims of lowest and
// highest credit, at most FEATURED_PER_SIDE a side, newest first among equals. score.ts calls it.

type Counted = { claim: ScoringClaim; credit: number };

export const byId = (a: ScoringClaim, b: ScoringClaim) => (a.claim_id < b.claim_id ? -1 : a.claim_id > b.claim_id ? 1 : 0);
// Only ISO 8601 dates and timestamps are read, a time without a zone as UTC, so the
// order never depends on the machine's time zone or on Date.parse's looser guesses.
// Anything else sorts as oldest, so it is featured last rather than first.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const timeOf = (c: ScoringClaim) => {
  const m = ISO_DATE.exec(c.said_on);
  if (!m) return Number.NEGATIVE_INFINITY;
  const t = Date.parse(m[1] && !m[4] ? `${c.said_on}Z` : c.said_on);
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
};
const newestFirst = (a: Counted, b: Counted) => {
  const ta = timeOf(a.claim);
  const tb = timeOf(b.claim);
  return ta === tb ? byId(a.claim, b.claim) : tb > ta ? 1 : -1;
};

export function featured(resolved: readonly Counted[]): FeaturedClaim[] {
  // Claims whose judges disagree are never featured: a featured claim should be one
  // whose outcome the method is surest of.
  const agreed = resolved.filter((c) => !c.claim.judges_disagree);
  const low = agreed.filter((c) => c.credit <= 0.25).sort((a, b) => a.credit - b.credit || newestFirst(a, b));
  const high = agreed.filter((c) => c.credit >= 0.75).sort((a, b) => b.credit - a.credit || newestFirst(a, b));
  const shape = (c: Counted, why: FeaturedClaim['why_featured']): FeaturedClaim => ({
    claim_id: c.claim.claim_id,
    claim_type: c.claim.claim_type,
    quote: c.claim.quote,
    said_on: c.claim.said_on,
    outcome: c.claim.outcome as ResolvedOutcome,
    credit: c.credit,
    why_featured: why,
  });
  return [
    ...low.slice(0, FEATURED_PER_SIDE).map((c) => shape(c, 'low_credit')),
    ...high.slice(0, FEATURED_PER_SIDE).map((c) => shape(c, 'high_credit')),
  ];
}
