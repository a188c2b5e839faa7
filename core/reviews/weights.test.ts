import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scoreClaims, type ScoringClaim } from '../method/score.ts';
import { CARRIES_THE_SCORE, REVIEW_WEIGHT_POINTS, headlineWeights, mustBeReviewed, rescore, scoringClaimOf } from './weights.ts';

const claim = (i: number, outcome: ScoringClaim['outcome'], over: Partial<ScoringClaim> = {}): ScoringClaim => ({
  claim_id: `c${String(i).padStart(2, '0')}`, claim_type: 'factual', topic: 'economy', outcome, judges_disagree: false, on_time: null,
  quote: `Claim ${i}.`, said_on: `2025-01-${String((i % 27) + 1).padStart(2, '0')}`, ...over,
});

const headline = (claims: readonly ScoringClaim[]) => {
  const r = scoreClaims(claims);
  if (r.status !== 'scored') throw new Error('expected a score');
  return r.score.score;
};

describe('headlineWeights', () => {
  const claims = [
    ...Array.from({ length: 8 }, (_, i) => claim(i, 'true')),
    claim(8, 'false'), claim(9, 'mixed'), claim(10, 'unresolvable'), claim(11, 'pending'),
  ];

  it('is how far the headline moves when the claim is left out, in score points', () => {
    const w = headlineWeights(claims, null);
    const full = headline(claims);
    for (const c of claims) {
      const moved = Math.round(Math.abs(full - headline(claims.filter((x) => x !== c))) * 100) / 100;
      expect(w.get(c.claim_id), c.claim_id).toBe(moved);
    }
    // A false claim among true ones weighs more than a true one.
    expect(w.get('c08')!).toBeGreaterThan(w.get('c00')!);
  });

  it('a claim the score cannot do without carries it; claims that make no score weigh nothing', () => {
    const five = Array.from({ length: 5 }, (_, i) => claim(i, i === 0 ? 'false' : 'true'));
    for (const v of headlineWeights(five, null).values()) expect(v).toBe(CARRIES_THE_SCORE);
    const none = [claim(0, 'true'), claim(1, 'unresolvable')];
    expect([...headlineWeights(none, null).values()]).toEqual([0, 0]);
  });

  it('follows the report\'s topic: a claim under another topic does not move a topic report', () => {
    const mixed = [...claims, claim(20, 'false', { topic: 'health' })];
    const w = headlineWeights(mixed, 'economy');
    expect(w.get('c20')).toBe(0);
  });
});

describe('rescore', () => {
  it('scores with each reviewed outcome in place of the machine\'s, marked reviewed', () => {
    const claims = Array.from({ length: 10 }, (_, i) => claim(i, i < 3 ? 'false' : 'true'));
    const reviewed = new Map([['c00', 'true' as const], ['c05', 'true' as const]]);
    const expected = scoreClaims(claims.map((c) => (reviewed.has(c.claim_id) ? { ...c, outcome: reviewed.get(c.claim_id)!, reviewed: true } : c)));
    expect(rescore(claims, reviewed, null)).toEqual(expected);
    // Correcting a false claim to true raises the score.
    const r = rescore(claims, reviewed, null);
    if (r.status !== 'scored') throw new Error('expected a score');
    expect(r.score.score).toBeGreaterThan(headline(claims));
  });
});

describe('mustBeReviewed', () => {
  it('every featured claim, and a claim that moves the headline by more than the threshold, not one that moves it by exactly that', () => {
    expect(REVIEW_WEIGHT_POINTS).toBe(2);
    expect(mustBeReviewed({ featured: true, weight: 0 })).toBe(true);
    expect(mustBeReviewed({ featured: false, weight: REVIEW_WEIGHT_POINTS })).toBe(false);
    expect(mustBeReviewed({ featured: false, weight: REVIEW_WEIGHT_POINTS + 0.01 })).toBe(true);
  });

  it('the threshold and the weight of a claim the score cannot do without are the ones the methodology states', () => {
    const text = readFileSync(new URL('../../content/methodology.md', import.meta.url), 'utf8');
    const section = text.slice(text.indexOf('## Editorial review'), text.indexOf('## A worked example'));
    expect(section).toContain(`whose weight on the headline is more than ${REVIEW_WEIGHT_POINTS} points`);
    expect(section).toContain(`weighs ${CARRIES_THE_SCORE})`);
  });
});

describe('scoringClaimOf', () => {
  it('takes what scoring needs from a stored claim, as the pipeline\'s score stage does', () => {
    expect(scoringClaimOf({ claim_id: 'c1', claim_type: 'promise', topic: 'housing', outcome: 'true', judges_disagree: true, on_time: false, quote: 'Q', said_on: null }))
      .toEqual({ claim_id: 'c1', claim_type: 'promise', topic: 'housing', outcome: 'true', judges_disagree: true, on_time: false, quote: 'Q', said_on: '' });
  });
});
