import { CLAIM_TYPES, RESOLVED_OUTCOMES, isResolved, type ClaimType, type ResolvedOutcome } from '../method/outcomes.ts';
import type { MeasuredConfusion } from '../method/judge-error.ts';
import type { ClaimResult } from './measure.ts';

/**
 * The machine judges' confusion, counted from an eval run the way
 * core/method/judge-error.ts records it: every gold claim the engine found and
 * resolved counts once, by the type the engine gave it, in the row of its gold
 * outcome and the column of the engine's (both in RESOLVED_OUTCOMES order); a
 * resolved verdict on a claim the gold leaves `unresolvable` or `pending` has
 * no row and counts in `unsettled`. Counts only, no claim's text, so a held-out
 * part can be counted without being read (`npm run eval -- --confusion`).
 */
export type Confusion = { overall: MeasuredConfusion; by_type: Record<ClaimType, MeasuredConfusion> };

const empty = (): { counts: number[][]; unsettled: number } => ({ counts: RESOLVED_OUTCOMES.map(() => RESOLVED_OUTCOMES.map(() => 0)), unsettled: 0 });

export function confusionOf(claims: readonly ClaimResult[]): Confusion {
  const overall = empty();
  const byType = Object.fromEntries(CLAIM_TYPES.map((t) => [t, empty()])) as Record<ClaimType, ReturnType<typeof empty>>;
  for (const c of claims) {
    if (!c.engine || !isResolved(c.engine.outcome)) continue;
    const col = RESOLVED_OUTCOMES.indexOf(c.engine.outcome as ResolvedOutcome);
    for (const m of [overall, byType[c.engine.claim_type]]) {
      if (isResolved(c.gold.outcome)) m.counts[RESOLVED_OUTCOMES.indexOf(c.gold.outcome as ResolvedOutcome)]![col]!++;
      else m.unsettled++;
    }
  }
  return { overall, by_type: byType };
}
