import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { betaInterval, betaMean, betaQuantile, updateBeta } from './beta.ts';

// An independent Beta CDF for checking the stdlib quantile: Simpson's rule over
// the unnormalised density, divided by the same rule over [0, 1]. Used only for
// shapes >= 2, where the density is smooth enough at both ends for Simpson's rule
// to be accurate to about 1e-6; shapes between 1 and 2 have steep ends and are
// checked against closed forms instead.
function betaCdf(x: number, a: number, b: number): number {
  const f = (t: number) => t ** (a - 1) * (1 - t) ** (b - 1);
  const simpson = (hi: number) => {
    const n = 20_000;
    const h = hi / n;
    let s = f(0) + f(hi);
    for (let i = 1; i < n; i++) s += (i % 2 === 1 ? 4 : 2) * f(i * h);
    return (s * h) / 3;
  };
  return simpson(x) / simpson(1);
}

describe('updateBeta', () => {
  it('adds weight × credit to alpha and weight × (1 − credit) to beta', () => {
    const post = updateBeta({ alpha: 1, beta: 1 }, [
      { credit: 1, weight: 1 },
      { credit: 0.75, weight: 0.5 },
      { credit: 0.5, weight: 1 },
      { credit: 0, weight: 1 },
    ]);
    // alpha = 1 + 1 + 0.375 + 0.5 + 0; beta = 1 + 0 + 0.125 + 0.5 + 1
    expect(post).toEqual({ alpha: 2.875, beta: 2.625 });
  });

  it('leaves the prior unchanged with no evidence', () => {
    expect(updateBeta({ alpha: 2, beta: 3 }, [])).toEqual({ alpha: 2, beta: 3 });
  });

  it('refuses credits outside [0, 1], negative weights and bad priors', () => {
    expect(() => updateBeta({ alpha: 1, beta: 1 }, [{ credit: 1.25, weight: 1 }])).toThrow(RangeError);
    expect(() => updateBeta({ alpha: 1, beta: 1 }, [{ credit: Number.NaN, weight: 1 }])).toThrow(RangeError);
    expect(() => updateBeta({ alpha: 1, beta: 1 }, [{ credit: 0.5, weight: -1 }])).toThrow(RangeError);
    expect(() => updateBeta({ alpha: 0, beta: 1 }, [])).toThrow(RangeError);
  });
});

describe('betaMean', () => {
  it('is alpha / (alpha + beta)', () => {
    expect(betaMean({ alpha: 3, beta: 1 })).toBe(0.75);
    expect(betaMean({ alpha: 6, beta: 1 })).toBe(6 / 7);
    expect(betaMean({ alpha: 3.625, beta: 2.875 })).toBe(3.625 / 6.5);
  });
});

describe('betaQuantile', () => {
  it('matches closed forms: Beta(1,1) is uniform, Beta(n,1) has quantile p^(1/n), Beta(1,n) has 1 − (1−p)^(1/n)', () => {
    for (const p of [0.1, 0.25, 0.5, 0.9]) {
      expect(betaQuantile({ alpha: 1, beta: 1 }, p)).toBeCloseTo(p, 12);
      expect(betaQuantile({ alpha: 2, beta: 1 }, p)).toBeCloseTo(Math.sqrt(p), 12);
      expect(betaQuantile({ alpha: 6, beta: 1 }, p)).toBeCloseTo(p ** (1 / 6), 12);
      expect(betaQuantile({ alpha: 1, beta: 3 }, p)).toBeCloseTo(1 - (1 - p) ** (1 / 3), 12);
    }
  });

  it('matches Beta(2,2), whose CDF is 3x² − 2x³', () => {
    const q = betaQuantile({ alpha: 2, beta: 2 }, 0.9);
    expect(3 * q ** 2 - 2 * q ** 3).toBeCloseTo(0.9, 10);
    expect(betaQuantile({ alpha: 2, beta: 2 }, 0.5)).toBeCloseTo(0.5, 12);
  });

  it('throws instead of answering NaN', () => {
    expect(() => betaQuantile({ alpha: 1, beta: 1 }, 1.5)).toThrow(RangeError);
    expect(() => betaQuantile({ alpha: 1, beta: 1 }, Number.NaN)).toThrow(RangeError);
    expect(() => betaQuantile({ alpha: -1, beta: 1 }, 0.5)).toThrow(RangeError);
    expect(() => betaQuantile({ alpha: 1, beta: Number.POSITIVE_INFINITY }, 0.5)).toThrow(RangeError);
  });

  it('matches the closed forms for any real shape, such as the halves that disputed claims give', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 500, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (s, p) => {
        expect(betaQuantile({ alpha: s, beta: 1 }, p)).toBeCloseTo(p ** (1 / s), 9);
        expect(betaQuantile({ alpha: 1, beta: s }, p)).toBeCloseTo(1 - (1 - p) ** (1 / s), 9);
      }),
    );
  });

  it('inverts an independently computed CDF', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 2, max: 60, noNaN: true }),
        fc.double({ min: 2, max: 60, noNaN: true }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        (a, b, p) => {
          const q = betaQuantile({ alpha: a, beta: b }, p);
          expect(betaCdf(q, a, b)).toBeCloseTo(p, 3);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('betaInterval', () => {
  it('is the 10th and 90th percentiles by default', () => {
    const [lo, hi] = betaInterval({ alpha: 6, beta: 1 });
    expect(lo).toBeCloseTo(0.1 ** (1 / 6), 12);
    expect(hi).toBeCloseTo(0.9 ** (1 / 6), 12);
    expect(betaInterval({ alpha: 1, beta: 1 })).toEqual([expect.closeTo(0.1, 12), expect.closeTo(0.9, 12)]);
  });

  it('refuses a lower probability not below the upper one', () => {
    expect(() => betaInterval({ alpha: 1, beta: 1 }, 0.9, 0.1)).toThrow(RangeError);
  });

  // The method relies on this: with both shapes >= 1 the density is log-concave, so
  // the mean sits between the 1/e and 1 − 1/e quantiles, well inside the 80% range.
  it('holds the mean strictly inside whenever both shapes are at least 1', () => {
    fc.assert(
      fc.property(fc.double({ min: 1, max: 1e5, noNaN: true }), fc.double({ min: 1, max: 1e5, noNaN: true }), (a, b) => {
        const dist = { alpha: a, beta: b };
        const [lo, hi] = betaInterval(dist);
        const mean = betaMean(dist);
        expect(lo).toBeLessThan(mean);
        expect(mean).toBeLessThan(hi);
      }),
    );
  });
});
