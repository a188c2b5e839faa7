import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SOURCE_CORRELATION, sourceEffect } from './claim-weight.ts';

const claims = (credits: readonly number[], source: (i: number) => string = (i) => `s${i}`, slope = 1) =>
  credits.map((credit, i) => ({ credit, cluster: source(i), slope }));

describe('sourceEffect: dispersion', () => {
  it('is exactly 1 for true/false verdicts, whatever their mix', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 80 }), (credits) => {
        expect(sourceEffect(claims(credits)).dispersion).toBeCloseTo(1, 12);
      }),
    );
  });

  it('is the spread of the credits with the prior\'s half-true, half-false claim among them', () => {
    // Ten `mixed`: mean with the prior (5 + 0.5) / 11 = 0.5; squares 0.5 × 0.25 + 0.5 × 0.25 = 0.25.
    expect(sourceEffect(claims(Array<number>(10).fill(0.5))).dispersion).toBeCloseTo(0.25 / (11 * 0.25), 12);
    // Graded credits vary less than true/false ones with the same mean, and weigh more.
    const graded = sourceEffect(claims([0.75, 0.25, 0.75, 0.25, 0.75, 0.25, 0.75, 0.25]));
    expect(graded.dispersion).toBeLessThan(0.5);
    expect(graded.weight).toBeGreaterThan(2);
  });
});

describe('sourceEffect: design effect', () => {
  it('is 1 when every claim has its own source', () => {
    expect(sourceEffect(claims([1, 0, 1, 1, 0.5, 0, 1])).designEffect).toBe(1);
  });

  it('is the assumed 1 + (k − 1) × rho when one source holds every claim, whose spread cannot be measured', () => {
    const n = 12;
    const e = sourceEffect(claims(Array.from({ length: n }, (_, i) => (i % 3 ? 1 : 0)), () => 'one'));
    expect(e.designEffect).toBeCloseTo(1 + (n - 1) * SOURCE_CORRELATION.rho, 12);
  });

  it('assumes less correlation for machine verdicts, by the judges\' slope squared', () => {
    const n = 12;
    const e = sourceEffect(claims(Array.from({ length: n }, (_, i) => (i % 3 ? 1 : 0)), () => 'one', 0.7));
    expect(e.designEffect).toBeCloseTo(1 + (n - 1) * SOURCE_CORRELATION.rho * 0.49, 12);
  });

  it('grows when sources disagree among themselves, and never falls below 1', () => {
    // Twenty sources of three: in `split` each source is all true or all false; in `mixed` each has both.
    const split = sourceEffect(claims(Array.from({ length: 60 }, (_, i) => (Math.floor(i / 3) % 2 ? 1 : 0)), (i) => `s${Math.floor(i / 3)}`));
    const mixed = sourceEffect(claims(Array.from({ length: 60 }, (_, i) => (i % 3 === 0 ? 0 : 1)), (i) => `s${Math.floor(i / 3)}`));
    expect(split.designEffect).toBeGreaterThan(1 + 2 * SOURCE_CORRELATION.rho);
    expect(mixed.designEffect).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.record({ credit: fc.constantFrom(0, 0.25, 0.5, 0.75, 1), source: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 40 }), (xs) => {
        const e = sourceEffect(xs.map((x) => ({ credit: x.credit, cluster: `s${x.source}`, slope: 1 })));
        expect(e.designEffect).toBeGreaterThanOrEqual(1);
        expect(e.weight).toBeCloseTo(1 / (e.dispersion * e.designEffect), 12);
      }),
    );
  });
});
