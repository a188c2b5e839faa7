import { FIGURE_BANDS } from './criteria.ts';
import type { Reading } from './quantities.ts';
import type { ResolvedOutcome } from '../method/outcomes.ts';

// The bands the figures judge reads an outcome from (methodology, "Figures"): how far a claimed figure is from
// the reported one, the outcome that distance earns, and the share of a promised figure delivered.

/** Relative distance of a claimed value from a reported one (or range), measured against the report. */
export function distance(claimed: number, e: Pick<Reading, 'low' | 'high'>): number {
  if (claimed >= e.low && claimed <= e.high) return 0;
  const off = (ref: number) => (ref === 0 ? (claimed === 0 ? 0 : Infinity) : Math.abs(claimed - ref) / Math.abs(ref));
  return Math.min(off(e.low), off(e.high));
}

export function band(d: number): ResolvedOutcome {
  for (const b of FIGURE_BANDS) if (d <= b.within) return b.outcome;
  return 'false';
}

/**
 * A promised figure against a delivered one: in full (allowing the 2% rounding
 * band) is true, 90% mostly_true, half mixed, anything less mostly_false, nothing
 * or the opposite of what was promised false.
 */
export function delivered(promised: number, got: number): ResolvedOutcome {
  const share = promised === 0 ? 0 : got / promised;
  if (share >= 1 - FIGURE_BANDS[0].within) return 'true';
  if (share >= 1 - FIGURE_BANDS[1].within) return 'mostly_true';
  if (share >= 0.5) return 'mixed';
  return share > 0 ? 'mostly_false' : 'false';
}
