import { describe, expect, it } from 'vitest';
import type { Outcome } from '../method/outcomes.ts';
import { OUTCOME_LABELS } from './claim-review.ts';
import { claimGroups, isSettled, outcomeAnchor, scorecardOrder, typeAnchor, verdictMatrix } from './scorecard.ts';

const claim = (i: number, claim_type: string, outcome: Outcome) => ({ claim_id: `clm_${i}`, claim_type, outcome, outcome_label: OUTCOME_LABELS[outcome] });

describe('claimGroups', () => {
  const claims = [
    claim(0, 'promise', 'pending'), claim(1, 'factual', 'unresolvable'), claim(2, 'factual', 'false'), claim(3, 'promise', 'true'),
    claim(4, 'factual', 'true'), claim(5, 'factual', 'false'), claim(6, 'prediction', 'pending'), claim(7, 'factual', 'pending'),
  ];

  it('groups by the method\'s claim types in order, leaving out types without claims', () => {
    const groups = claimGroups(claims);
    expect(groups.map((g) => [g.type, g.label, g.count, g.settled])).toEqual([['factual', 'Factual claims', 5, 3], ['promise', 'Promises', 2, 1], ['prediction', 'Predictions', 1, 0]]);
  });

  it('puts settled claims first within a type: resolved outcomes from true to false, then unresolvable, then pending; ties in the report\'s order', () => {
    expect(scorecardOrder(claims).map((c) => c.claim_id)).toEqual(['clm_4', 'clm_2', 'clm_5', 'clm_1', 'clm_7', 'clm_3', 'clm_0', 'clm_6']);
    for (const g of claimGroups(claims)) {
      const settled = g.outcomes.map((o) => o.settled);
      expect(settled).toEqual([...settled].sort((a, b) => Number(b) - Number(a)));
    }
  });

  it('gives every type and every outcome within it a distinct anchor', () => {
    const groups = claimGroups(claims);
    const ids = groups.flatMap((g) => [g.id, ...g.outcomes.map((o) => o.id)]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(groups[0]!.outcomes.map((o) => o.id)).toEqual(['claims-factual-true', 'claims-factual-false', 'claims-factual-unresolvable', 'claims-factual-pending']);
    expect(outcomeAnchor('promise', 'mostly_true')).toBe('claims-promise-mostly-true');
    // A type from outside the method still gets a safe anchor and a group, after the method's.
    expect(typeAnchor('Odd <type>')).toBe('claims-odd-type');
    expect(claimGroups([...claims, claim(9, 'legacy_kind', 'true')]).map((g) => g.type).at(-1)).toBe('legacy_kind');
  });

  it('isSettled is true of the five resolved outcomes only', () => {
    expect((['true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'unresolvable', 'pending'] as Outcome[]).map(isSettled)).toEqual([true, true, true, true, true, false, false]);
  });
});

describe('verdictMatrix', () => {
  it('counts each claim under its type and outcome, every type and outcome present', () => {
    const m = verdictMatrix([claim(0, 'factual', 'true'), claim(1, 'factual', 'true'), claim(2, 'guidance', 'mixed'), claim(3, 'factual', 'pending')]);
    expect(m.rows.map((r) => r.type)).toEqual(['factual', 'promise', 'guidance', 'prediction']);
    const count = (type: string, outcome: Outcome) => m.rows.find((r) => r.type === type)!.counts.find((c) => c.outcome === outcome)!.count;
    expect([count('factual', 'true'), count('factual', 'pending'), count('guidance', 'mixed'), count('promise', 'true')]).toEqual([2, 1, 1, 0]);
    expect(m.rows.every((r) => r.counts.length === 7)).toBe(true);
    expect(m.totals.find((t) => t.outcome === 'true')).toEqual({ outcome: 'true', label: 'True', count: 2 });
    expect(m.totals.reduce((a, t) => a + t.count, 0)).toBe(4);
    expect(m.claims).toBe(4);
  });
});
