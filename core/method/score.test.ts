import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { betaInterval } from './beta.ts';
import { CLAIM_TYPES, CREDITS, OUTCOMES, RESOLVED_OUTCOMES, REVIEW_LABEL, TOPICS, creditOf, type Outcome } from './outcomes.ts';
import {
  CONFIDENCE_RULES,
  DISAGREE_WEIGHT,
  LATE_PROMISE_PENALTY,
  MIN_RESOLVED,
  PRIOR,
  ScoredResultSchema,
  countedCredit,
  posteriorOf,
  scoreClaims,
  type ScoredResult,
  type ScoringClaim,
  type ScoringResult,
} from './score.ts';

const claim = (id: string, outcome: Outcome, extra: Partial<ScoringClaim> = {}): ScoringClaim => ({
  claim_id: id,
  claim_type: 'factual',
  outcome,
  judges_disagree: false,
  on_time: null,
  quote: `quote ${id}`,
  said_on: '2024-01-01',
  ...extra,
});

function scored(result: ScoringResult): ScoredResult {
  if (result.status !== 'scored') throw new Error(`expected a score, got: ${result.reason}`);
  return result;
}

const repeat = <T>(xs: readonly T[], k: number): T[] => Array.from({ length: k }, () => xs).flat();
const withIds = (cs: Omit<ScoringClaim, 'claim_id'>[]): ScoringClaim[] =>
  cs.map((c, i) => ({ ...c, claim_id: `c${String(i).padStart(4, '0')}` }));

// The worked example of content/methodology.md, claim for claim.
const worked: ScoringClaim[] = [
  claim('c1', 'true', { said_on: '2024-01-01' }),
  claim('c2', 'mostly_true', { judges_disagree: true, said_on: '2024-01-02' }),
  claim('c3', 'mixed', { said_on: '2024-01-03' }),
  claim('c4', 'false', { said_on: '2024-01-04' }),
  claim('c5', 'true', { claim_type: 'promise', on_time: false, said_on: '2024-01-05' }),
  claim('c6', 'pending', { claim_type: 'guidance' }),
  claim('c7', 'unresolvable'),
];

describe('scoreClaims: hand-computed cases', () => {
  it('five true claims: Beta(6, 1), mean 6/7, range 100 × (0.1^(1/6), 0.9^(1/6))', () => {
    const r = scored(scoreClaims([1, 2, 3, 4, 5].map((i) => claim(`c${i}`, 'true', { said_on: `2024-01-0${i}` }))));
    const reasons =
      'Low: 5 resolved claims and an 80% range 30.2 points wide fall short of medium, which needs at least 10 resolved claims.';
    expect(r.score).toEqual({ score: 85.7, interval_80: [68.1, 98.3], confidence: 'low', n_resolved: 5 });
    expect(r.scores).toEqual({
      overall: { score: 85.7, interval_80: [68.1, 98.3], n_resolved: 5, confidence: { level: 'low', reasons } },
      factual: { score: 85.7, interval_80: [68.1, 98.3], n_resolved: 5, confidence: { level: 'low', reasons } },
    });
    // All credit 1, so the newest three are featured, newest first.
    expect(r.featured_claims.map((f) => f.claim_id)).toEqual(['c5', 'c4', 'c3']);
    expect(r.featured_claims.every((f) => f.why_featured === 'high_credit' && f.credit === 1)).toBe(true);
    expect(r.caveats.map((c) => c.code)).toEqual(['machine_generated', 'low_confidence']);
    expect(r.caveats[0]?.message).toContain(REVIEW_LABEL);
  });

  it('the worked example: alpha 3.625, beta 2.875, score 55.8', () => {
    expect(posteriorOf(worked)).toEqual({ alpha: 3.625, beta: 2.875 });
    const r = scored(scoreClaims(worked));
    expect(r.score).toEqual({ score: 55.8, interval_80: [31.0, 79.6], confidence: 'low', n_resolved: 5 });
    expect(Object.keys(r.scores)).toEqual(['overall', 'factual', 'promise']);
    expect(r.scores.factual?.score).toBe(52.3); // 2.875 / 5.5
    expect(r.scores.factual?.n_resolved).toBe(4);
    expect(r.scores.promise?.score).toBe(58.3); // 1.75 / 3
    expect(r.scores.overall.confidence.reasons).toBe(
      'Low: 5 resolved claims and an 80% range 48.6 points wide fall short of medium, which needs at least 10 resolved claims and a range of at most 40 points. 1 of these claims had judges who disagreed and count half.',
    );
    expect(r.featured_claims.map((f) => [f.claim_id, f.why_featured, f.credit])).toEqual([
      ['c4', 'low_credit', 0],
      ['c1', 'high_credit', 1],
      ['c5', 'high_credit', 0.75],
    ]);
    expect(r.caveats.map((c) => c.code)).toEqual([
      'machine_generated',
      'low_confidence',
      'judges_disagree',
      'late_promises',
      'type_not_resolved',
      'pending_claims',
      'unresolvable_claims',
    ]);
    expect(r.caveats.find((c) => c.code === 'type_not_resolved')?.message).toContain('guidance');
  });

  it('the published range is the posterior 10th/90th percentiles, rounded outward', () => {
    const [lo, hi] = betaInterval(posteriorOf(worked));
    expect(Math.floor(lo * 1000) / 10).toBe(31.0);
    expect(Math.ceil(hi * 1000) / 10).toBe(79.6);
  });

  it('a late promise loses one step of credit, never below 0; on_time is ignored for other types', () => {
    const promise = (outcome: Outcome, on_time: boolean | null) => claim('p', outcome, { claim_type: 'promise', on_time });
    expect(countedCredit(promise('true', false))).toBe(0.75);
    expect(countedCredit(promise('mixed', false))).toBe(0.25);
    expect(countedCredit(promise('false', false))).toBe(0);
    expect(countedCredit(promise('true', null))).toBe(1);
    expect(countedCredit(promise('true', true))).toBe(1);
    expect(countedCredit(claim('f', 'true', { claim_type: 'prediction', on_time: false }))).toBe(1);
    expect(countedCredit(promise('pending', false))).toBeNull();
  });

  it('confidence: 15 true + 15 false is high, 29 claims is medium, 10 disagreed claims are low', () => {
    const mix = (n: number, extra: Partial<ScoringClaim> = {}) =>
      Array.from({ length: n }, (_, i) => claim(`c${String(i).padStart(3, '0')}`, i % 2 ? 'false' : 'true', extra));
    const high = scored(scoreClaims(mix(30))).scores.overall;
    expect(high.confidence.level).toBe('high');
    expect(high.interval_80[1] - high.interval_80[0]).toBeLessThanOrEqual(CONFIDENCE_RULES.high.maxWidth);
    const medium = scored(scoreClaims(mix(29))).scores.overall;
    expect(medium.confidence.level).toBe('medium');
    expect(medium.confidence.reasons).toMatch(/^Medium: 29 resolved claims .* not for high, which needs at least 30 resolved claims\.$/);
    const tenAgreed = scored(scoreClaims(mix(10))).scores.overall;
    expect(tenAgreed.confidence.level).toBe('medium');
    // Same ten claims, all disputed: half the evidence, so the range is too wide for medium.
    const tenDisputed = scored(scoreClaims(mix(10, { judges_disagree: true }))).scores.overall;
    expect(tenDisputed.score).toBe(tenAgreed.score);
    expect(tenDisputed.confidence.level).toBe('low');
    expect(tenDisputed.confidence.reasons).toMatch(/needs a range of at most 40 points\. 10 of these claims had judges who disagreed/);
  });

  it('omits a type with no claims, and a type with only unresolved claims with a caveat', () => {
    const cs = [1, 2, 3, 4, 5].map((i) => claim(`c${i}`, 'mixed'));
    const plain = scored(scoreClaims(cs));
    expect(plain.scores.prediction).toBeUndefined();
    expect(plain.caveats.some((c) => c.code === 'type_not_resolved')).toBe(false);
    const withPending = scored(scoreClaims([...cs, claim('p1', 'pending', { claim_type: 'prediction' }), claim('p2', 'unresolvable', { claim_type: 'prediction' })]));
    expect(withPending.scores.prediction).toBeUndefined();
    expect(withPending.caveats.find((c) => c.code === 'type_not_resolved')?.message).toBe(
      'There are 2 prediction claims but none is resolved yet, so there is no prediction score.',
    );
  });

  it(`is insufficient below ${MIN_RESOLVED} resolved claims, however many others there are`, () => {
    const cs = [
      ...[1, 2, 3, 4].map((i) => claim(`r${i}`, 'true')),
      ...[1, 2, 3].map((i) => claim(`p${i}`, 'pending')),
      claim('u1', 'unresolvable'),
    ];
    expect(scoreClaims(cs)).toEqual({
      status: 'insufficient',
      reason: 'Only 4 of the 8 claims found are resolved (3 pending, 1 unresolvable); a report needs at least 5 resolved claims.',
      n_resolved: 4,
      min_resolved: 5,
      n_claims: 8,
      n_pending: 3,
      n_unresolvable: 1,
    });
    expect(scoreClaims([...cs, claim('r5', 'false')]).status).toBe('scored');
  });

  it('with a topic, scores only that topic (no topic counts as other) and says so', () => {
    const cs = [
      ...[1, 2, 3, 4, 5].map((i) => claim(`h${i}`, 'true', { topic: 'health' })),
      ...[1, 2, 3].map((i) => claim(`o${i}`, 'false', { topic: null })),
      ...[1, 2].map((i) => claim(`x${i}`, 'false')),
    ];
    const health = scored(scoreClaims(cs, { topic: 'health' }));
    expect(health.score.score).toBe(85.7);
    expect(health.caveats.map((c) => c.code)).toContain('topic_filter');
    const other = scoreClaims(cs, { topic: 'other' });
    expect(other).toMatchObject({ status: 'scored', score: { n_resolved: 5, score: 14.3 } });
    expect(scoreClaims(cs, { topic: 'economy' })).toMatchObject({ status: 'insufficient', n_claims: 0 });
  });

  it('features by credit, then newest said_on (ISO 8601, UTC when no zone), then claim_id; other dates sort as oldest', () => {
    const cs = [
      claim('b', 'false', { said_on: '2024-05-01' }),
      claim('a', 'false', { said_on: '2024-05-01' }),
      claim('c', 'false', { said_on: 'May 2, 2024' }),
      claim('d', 'false', { said_on: '2024-06-01T12:00:00+02:00' }),
      claim('d2', 'false', { said_on: '2024-06-01T10:30:00' }),
      claim('e', 'mostly_false', { said_on: '2025-01-01' }),
      claim('f', 'true', { judges_disagree: true }),
      claim('g', 'mixed'),
    ];
    const r = scored(scoreClaims(cs));
    // d2 (10:30 UTC) is newer than d (10:00 UTC); the non-ISO date of c sorts as oldest.
    expect(r.featured_claims.map((f) => f.claim_id)).toEqual(['d2', 'd', 'a']);
    const fewer = scored(scoreClaims(cs.filter((c) => c.claim_id.startsWith('d') === false)));
    expect(fewer.featured_claims.map((f) => f.claim_id)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a repeated claim_id', () => {
    expect(() => scoreClaims([claim('x', 'true'), claim('x', 'false')])).toThrow(RangeError);
  });
});

// ---- properties over random claim sets ----

const arbResolved = fc.constantFrom(...RESOLVED_OUTCOMES);
const arbUnresolved = fc.constantFrom<Outcome>('pending', 'unresolvable');
const arbBody = (outcome: fc.Arbitrary<Outcome>) =>
  fc.record({
    claim_type: fc.constantFrom(...CLAIM_TYPES),
    topic: fc.constantFrom(...TOPICS, null),
    outcome,
    judges_disagree: fc.boolean(),
    on_time: fc.constantFrom(true, false, null),
    quote: fc.string({ maxLength: 20 }),
    said_on: fc.oneof(
      fc.date({ min: new Date('2000-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      fc.constant('not a date'),
    ),
  });
const arbOutcome = fc.oneof({ arbitrary: arbResolved, weight: 4 }, { arbitrary: arbUnresolved, weight: 1 });
const arbClaims = fc.array(arbBody(arbOutcome), { maxLength: 60 }).map(withIds);
const nResolved = (cs: readonly ScoringClaim[]) => cs.filter((c) => creditOf(c.outcome) !== null).length;

describe('scoreClaims: properties', () => {
  it('every score lies inside its range, within 0..100, and the output matches its schema', () => {
    fc.assert(
      fc.property(arbClaims, (cs) => {
        const r = scoreClaims(cs);
        if (r.status !== 'scored') return;
        ScoredResultSchema.parse(r);
        for (const e of Object.values(r.scores)) {
          const [lo, hi] = e.interval_80;
          expect(0 <= lo && lo <= e.score && e.score <= hi && hi <= 100).toBe(true);
        }
        const { overall } = r.scores;
        expect(r.score).toEqual({ score: overall.score, interval_80: overall.interval_80, confidence: overall.confidence.level, n_resolved: overall.n_resolved });
        const byType = CLAIM_TYPES.reduce((n, t) => n + (r.scores[t]?.n_resolved ?? 0), 0);
        expect(byType).toBe(overall.n_resolved);
      }),
    );
  });

  it(`is insufficient exactly when fewer than ${MIN_RESOLVED} claims are resolved`, () => {
    fc.assert(
      fc.property(arbClaims, (cs) => {
        const r = scoreClaims(cs);
        expect(r.status).toBe(nResolved(cs) < MIN_RESOLVED ? 'insufficient' : 'scored');
        const n = r.status === 'scored' ? r.score.n_resolved : r.n_resolved;
        expect(n).toBe(nResolved(cs));
      }),
    );
  });

  it('permuting the claims changes nothing', () => {
    fc.assert(
      fc.property(
        arbClaims.chain((cs) => fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length, maxLength: cs.length }))),
        ([cs, shuffled]) => {
          expect(scoreClaims(shuffled)).toEqual(scoreClaims(cs));
        },
      ),
    );
  });

  it('pending and unresolvable claims change no score and no featured claim', () => {
    fc.assert(
      fc.property(arbClaims, fc.array(arbBody(arbUnresolved), { maxLength: 10 }), (cs, extra) => {
        const more = [...cs, ...extra.map((c, i) => ({ ...c, claim_id: `u${i}` }))];
        const a = scoreClaims(cs);
        const b = scoreClaims(more);
        expect(b.status).toBe(a.status);
        if (a.status === 'scored' && b.status === 'scored') {
          expect(b.score).toEqual(a.score);
          expect(b.scores).toEqual(a.scores);
          expect(b.featured_claims).toEqual(a.featured_claims);
        } else if (a.status === 'insufficient' && b.status === 'insufficient') {
          expect(b.n_resolved).toBe(a.n_resolved);
        }
      }),
    );
  });

  it('ranges do not widen as claims with the same outcome mix grow', () => {
    const arbMix = fc.array(arbBody(arbResolved), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(arbMix, fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 30 }), (mix, k, extra) => {
        const small = withIds(repeat(mix, k));
        const large = withIds(repeat(mix, k + extra));
        const width = (cs: ScoringClaim[]) => {
          const [lo, hi] = betaInterval(posteriorOf(cs));
          return hi - lo;
        };
        expect(width(large)).toBeLessThanOrEqual(width(small) + 1e-12);
        const a = scoreClaims(small);
        const b = scoreClaims(large);
        if (a.status === 'scored' && b.status === 'scored') {
          // Each published end may move by up to 0.1 when rounded outward.
          const w = (r: ScoredResult) => r.score.interval_80[1] - r.score.interval_80[0];
          expect(w(b)).toBeLessThanOrEqual(w(a) + 0.2 + 1e-9);
        }
      }),
    );
  });

  it('a better outcome for one claim never lowers the overall score', () => {
    fc.assert(
      fc.property(arbClaims, fc.nat(), (cs, pick) => {
        const i = pick % Math.max(cs.length, 1);
        const target = cs[i];
        if (target === undefined || creditOf(target.outcome) === null) return;
        const better = cs.map((c, j) => (j === i ? { ...c, outcome: 'true' as const } : c));
        const a = scoreClaims(cs);
        const b = scoreClaims(better);
        if (a.status === 'scored' && b.status === 'scored') expect(b.score.score).toBeGreaterThanOrEqual(a.score.score);
      }),
    );
  });

  it('featured claims are resolved, undisputed, at most 3 per side, and on the right side', () => {
    fc.assert(
      fc.property(arbClaims, (cs) => {
        const r = scoreClaims(cs);
        if (r.status !== 'scored') return;
        const byId = new Map(cs.map((c) => [c.claim_id, c]));
        const low = r.featured_claims.filter((f) => f.why_featured === 'low_credit');
        const high = r.featured_claims.filter((f) => f.why_featured === 'high_credit');
        expect(low.length).toBeLessThanOrEqual(3);
        expect(high.length).toBeLessThanOrEqual(3);
        expect(r.featured_claims).toEqual([...low, ...high]);
        for (const f of r.featured_claims) {
          const c = byId.get(f.claim_id);
          expect(c?.judges_disagree).toBe(false);
          expect(f.credit).toBe(c && countedCredit(c));
          expect(f.why_featured === 'low_credit' ? f.credit <= 0.25 : f.credit >= 0.75).toBe(true);
        }
      }),
    );
  });
});

describe('content/methodology.md states what the code does', () => {
  const text = readFileSync(new URL('../../content/methodology.md', import.meta.url), 'utf8');

  it('names every outcome with its credit, every claim type and every topic', () => {
    for (const o of RESOLVED_OUTCOMES) expect(text).toMatch(new RegExp(`\\| \`${o}\` \\| [^|]+ \\| ${CREDITS[o]} \\|`));
    for (const o of OUTCOMES) expect(text).toContain(`| \`${o}\` |`);
    for (const t of CLAIM_TYPES) expect(text).toContain(`| \`${t}\` |`);
    for (const t of TOPICS) expect(text).toContain(`| \`${t}\` |`);
  });

  it('states the prior, weights, penalty, minimum and confidence thresholds used by the code', () => {
    expect(text).toContain(`Beta(${PRIOR.alpha}, ${PRIOR.beta})`);
    expect(text).toContain(`or ${DISAGREE_WEIGHT} when the claim's judges disagree`);
    expect(text).toContain(`loses ${LATE_PROMISE_PENALTY} of credit`);
    expect(text).toContain(`at least **${MIN_RESOLVED}** resolved claims`);
    const { high, medium } = CONFIDENCE_RULES;
    expect(text).toContain(`| \`high\` | ${high.minResolved} or more | ${high.maxWidth} points or less |`);
    expect(text).toContain(`| \`medium\` | ${medium.minResolved} or more | ${medium.maxWidth} points or less |`);
    expect(text).toContain(REVIEW_LABEL);
  });

  it('gives the worked example the numbers the code computes', () => {
    const r = scored(scoreClaims(worked));
    const [lo, hi] = r.score.interval_80;
    expect(text).toContain(`= ${r.score.score}; the 80% range is [${lo.toFixed(1)}, ${hi.toFixed(1)}], ${(hi - lo).toFixed(1)} points wide`);
    expect(text).toContain(`scores ${r.scores.factual?.score} and the promise entry`);
    expect(text).toContain(`alpha = 1.75, beta = 1.25) ${r.scores.promise?.score}`);
  });
});
