import type { Outcome } from './outcomes.ts';
import type { ScoredResult, ScoringClaim, ScoringResult } from './score.ts';

// Claims and helpers shared by the score's case tests and property tests.

export const claim = (id: string, outcome: Outcome, extra: Partial<ScoringClaim> = {}): ScoringClaim => ({
  claim_id: id,
  claim_type: 'factual',
  outcome,
  judges_disagree: false,
  on_time: null,
  quote: `quote ${id}`,
  said_on: '2024-01-01',
  ...extra,
});

export function scored(result: ScoringResult): ScoredResult {
  if (result.status !== 'scored') throw new Error(`expected a score, got: ${result.reason}`);
  return result;
}

export const repeat = <T>(xs: readonly T[], k: number): T[] => Array.from({ length: k }, () => xs).flat();
export const withIds = (cs: Omit<ScoringClaim, 'claim_id'>[]): ScoringClaim[] =>
  cs.map((c, i) => ({ ...c, claim_id: `c${String(i).padStart(4, '0')}` }));

// The worked example of content/methodology.md, claim for claim.
export const worked: ScoringClaim[] = [
  claim('c1', 'true', { cluster: 'A', said_on: '2024-01-01' }),
  claim('c2', 'mostly_true', { cluster: 'A', judges_disagree: true, said_on: '2024-01-02' }),
  claim('c3', 'mixed', { cluster: 'B', said_on: '2024-01-03' }),
  claim('c4', 'false', { cluster: 'C', said_on: '2024-01-04' }),
  claim('c5', 'true', { cluster: 'C', reviewed: true, said_on: '2024-01-05' }),
  claim('c6', 'mostly_false', { cluster: 'D', said_on: '2024-01-06' }),
  claim('c7', 'true', { claim_type: 'promise', on_time: false, cluster: 'E', said_on: '2024-01-07' }),
  claim('c8', 'false', { claim_type: 'promise', cluster: 'E', said_on: '2024-01-08' }),
  claim('c9', 'pending', { claim_type: 'guidance', cluster: 'F' }),
];

export const ids = (n: number, extra: (i: number) => Partial<ScoringClaim> & { outcome: Outcome }) =>
  Array.from({ length: n }, (_, i) => {
    const { outcome, ...rest } = extra(i);
    return claim(`c${String(i).padStart(3, '0')}`, outcome, rest);
  });
export const width = (e: { interval_80: [number, number] }) => Math.round((e.interval_80[1] - e.interval_80[0]) * 10) / 10;
