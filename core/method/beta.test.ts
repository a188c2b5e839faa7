import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { betaCdf, betaFromMoments, betaInterval, betaMean, betaQuantile, betaVariance } from './beta.ts';

// An independent Beta CDF for checking the stdlib quantile and betaCdf: Simpson's rule over
// the unnormalised density, divided by the same rule over [0, 1]. Used only for
// shapes >= 2, where the density is smooth enough at both ends for Simpson's rule
// to be accurate to about 1e-6; shapes between 1 and 2 have steep ends and are
// checked against closed forms instead.
function simpsonCdf(x: number, a: number, b: number): number {
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

  it('matches the closed forms for any real shape, such as the fractional counts that weighted claims give', () => {
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
          expect(simpsonCdf(q, a, b)).toBeCloseTo(p, 3);
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

describe('betaVariance and betaFromMoments', () => {
  it('gives alpha·beta / ((alpha + beta)² (alpha + beta + 1)), and the shapes back from mean and variance', () => {
    expect(betaVariance({ alpha: 1, beta: 1 })).toBeCloseTo(1 / 12, 15);
    expect(betaVariance({ alpha: 2, beta: 3 })).toBeCloseTo(6 / (25 * 6), 15);
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 500, noNaN: true }), fc.double({ min: 0.05, max: 500, noNaN: true }), (a, b) => {
        const back = betaFromMoments(betaMean({ alpha: a, beta: b }), betaVariance({ alpha: a, beta: b }));
        expect(back.alpha / a).toBeCloseTo(1, 6);
        expect(back.beta / b).toBeCloseTo(1, 6);
      }),
    );
  });

  it('refuses a mean outside (0, 1) and a variance no distribution on [0, 1] can have', () => {
    expect(() => betaFromMoments(0, 0.01)).toThrow(RangeError);
    expect(() => betaFromMoments(1, 0.01)).toThrow(RangeError);
    expect(() => betaFromMoments(0.5, 0.25)).toThrow(RangeError);
    expect(() => betaFromMoments(0.5, 0)).toThrow(RangeError);
    expect(() => betaFromMoments(0.5, Number.NaN)).toThrow(RangeError);
  });
});

describe('betaCdf', () => {
  it('matches closed forms: uniform, x^a for Beta(a, 1), 1 − (1 − x)^b for Beta(1, b), 3x² − 2x³ for Beta(2, 2)', () => {
    for (const x of [0.001, 0.1, 0.37, 0.5, 0.9, 0.999]) {
      expect(betaCdf({ alpha: 1, beta: 1 }, x)).toBeCloseTo(x, 12);
      expect(betaCdf({ alpha: 0.3, beta: 1 }, x)).toBeCloseTo(x ** 0.3, 12);
      expect(betaCdf({ alpha: 1, beta: 7.5 }, x)).toBeCloseTo(1 - (1 - x) ** 7.5, 12);
      expect(betaCdf({ alpha: 2, beta: 2 }, x)).toBeCloseTo(3 * x * x - 2 * x ** 3, 12);
      // Beta(½, ½) is the arcsine distribution.
      expect(betaCdf({ alpha: 0.5, beta: 0.5 }, x)).toBeCloseTo((2 / Math.PI) * Math.asin(Math.sqrt(x)), 12);
    }
  });

  it('is 0 at or below 0 and 1 at or above 1, and refuses NaN and bad shapes', () => {
    expect(betaCdf({ alpha: 2, beta: 3 }, 0)).toBe(0);
    expect(betaCdf({ alpha: 2, beta: 3 }, -1)).toBe(0);
    expect(betaCdf({ alpha: 2, beta: 3 }, 1)).toBe(1);
    expect(() => betaCdf({ alpha: 2, beta: 3 }, Number.NaN)).toThrow(RangeError);
    expect(() => betaCdf({ alpha: 0, beta: 3 }, 0.5)).toThrow(RangeError);
  });

  it('inverts the stdlib quantile for any shapes, small and large', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 2000, noNaN: true }),
        fc.double({ min: 0.05, max: 2000, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (a, b, p) => {
          const q = betaQuantile({ alpha: a, beta: b }, p);
          // Within 1e-6 of 0 or 1 a double no longer tells neighbouring quantiles apart.
          if (q < 1e-6 || q > 1 - 1e-6) return;
          expect(betaCdf({ alpha: a, beta: b }, q)).toBeCloseTo(p, 6);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("agrees with Simpson's rule on smooth shapes", () => {
    for (const [a, b, x] of [[2.5, 4, 0.3], [10, 3, 0.8], [6, 6, 0.41]] as const) {
      expect(betaCdf({ alpha: a, beta: b }, x)).toBeCloseTo(simpsonCdf(x, a, b), 6);
    }
  });
});
