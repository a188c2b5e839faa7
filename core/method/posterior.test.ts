import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { betaInterval, betaMean } from './beta.ts';
import { OVERALL_JUDGE_ERROR, type ConfusionNode } from './judge-error.ts';
import { posterior, type TypeEvidence } from './posterior.ts';

const NODES = OVERALL_JUDGE_ERROR.nodes;
/** Judges that are never wrong: a machine verdict then says what a reviewed one says. */
const EXACT: readonly ConfusionNode[] = NODES.map((x) => ({ intercept: 0, slope: 1, weight: x.weight }));

const reviewed = (a: number, b: number, n = Math.round(a + b)): TypeEvidence => ({ reviewed: { a, b }, machine: { a: 0, b: 0 }, errorNodes: NODES, n });
const machine = (a: number, b: number, nodes = NODES, n = Math.round(a + b)): TypeEvidence => ({ reviewed: { a: 0, b: 0 }, machine: { a, b }, errorNodes: nodes, n });

describe('posterior: one type', () => {
  it('with many reviewed claims, approaches the Beta posterior of the credits, its mean and its 80% range', () => {
    for (const [a, b] of [[300, 100], [60, 340], [1000, 1000]] as const) {
      const { overall, types } = posterior([reviewed(a, b)]);
      expect(types[0]).toBe(overall);
      const beta = { alpha: a + 0.5, beta: b + 0.5 };
      expect(overall.mean).toBeCloseTo(betaMean(beta), 3);
      const [lo, hi] = betaInterval(beta);
      expect(overall.interval![0]).toBeCloseTo(lo, 3);
      expect(overall.interval![1]).toBeCloseTo(hi, 3);
    }
  });

  it('counts a machine verdict from judges that never err as a reviewed one', () => {
    const a = posterior([reviewed(7.5, 2.5)]).overall;
    const b = posterior([machine(7.5, 2.5, EXACT)]).overall;
    expect(b.mean).toBeCloseTo(a.mean, 12);
    expect(b.variance).toBeCloseTo(a.variance, 12);
    expect(b.interval![0]).toBeCloseTo(a.interval![0], 12);
  });

  it('undoes the judges\' line: many machine verdicts with mean credit m give about (m − a) / b', () => {
    const { intercept, slope } = OVERALL_JUDGE_ERROR.line;
    for (const m of [0.35, 0.5, 0.7]) {
      const n = 4000;
      const { mean } = posterior([machine(m * n, (1 - m) * n)]).overall;
      // (About: the nine points along the line's uncertainty are averaged, which moves the mean a little.)
      expect(Math.abs(mean - (m - intercept) / slope)).toBeLessThan(0.01);
    }
  });

  it('gives machine verdicts a wider range than as many reviewed ones, and fewer claims a wider range than more', () => {
    const width = (s: { interval: readonly [number, number] | null }) => s.interval![1] - s.interval![0];
    const rev = posterior([reviewed(14, 6)]).overall;
    const mac = posterior([machine(14, 6)]).overall;
    expect(width(mac)).toBeGreaterThan(width(rev) * 1.2);
    expect(width(posterior([machine(28, 12)]).overall)).toBeLessThan(width(mac));
  });

  it('keeps the judges\' uncertainty: a range never narrows below what the line\'s own uncertainty leaves', () => {
    // With ten thousand machine verdicts the credits' noise is gone; what is left
    // is the uncertainty of the line, about se(intercept) / slope wide at p = 0.
    const { overall } = posterior([machine(3000, 7000)]);
    expect(Math.sqrt(overall.variance)).toBeGreaterThan(0.5 * (OVERALL_JUDGE_ERROR.line.se[0] / OVERALL_JUDGE_ERROR.line.slope));
  });

  it('holds its mean inside its range, within (0, 1)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true }), fc.boolean(), (a, b, isMachine) => {
        const { overall } = posterior([isMachine ? machine(a, b, NODES, 1) : reviewed(a, b, 1)]);
        const [lo, hi] = overall.interval!;
        expect(0 < lo && lo <= overall.mean && overall.mean <= hi && hi < 1).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('posterior: several types', () => {
  it('gives types with the same evidence the same score, which is also overall', () => {
    const { types, overall } = posterior([reviewed(5, 0), reviewed(5, 0)]);
    expect(types[0]!.mean).toBeCloseTo(types[1]!.mean, 12);
    expect(overall.mean).toBeCloseTo(types[0]!.mean, 12);
    expect(overall.interval).toBeNull();
  });

  it('pulls a type with few claims towards the subject\'s others, more than one with many', () => {
    const shift = (a: number, b: number) => posterior([reviewed(a, b), reviewed(40, 0)]).types[0]!.mean - posterior([reviewed(a, b)]).types[0]!.mean;
    const few = shift(1, 4);
    const many = shift(10, 40);
    expect(few).toBeGreaterThan(0.15);
    expect(many).toBeGreaterThan(0);
    expect(many).toBeLessThan(few / 2);
  });

  it('puts overall between the lowest and the highest type, weighted by claims', () => {
    const arbType = fc.record({ a: fc.double({ min: 0, max: 30, noNaN: true }), b: fc.double({ min: 0, max: 30, noNaN: true }), n: fc.integer({ min: 1, max: 40 }), isMachine: fc.boolean() });
    fc.assert(
      fc.property(fc.array(arbType, { minLength: 2, maxLength: 4 }), (ts) => {
        const { types, overall } = posterior(ts.map((t) => (t.isMachine ? machine(t.a, t.b, NODES, t.n) : reviewed(t.a, t.b, t.n))));
        const means = types.map((t) => t.mean);
        expect(overall.mean).toBeGreaterThanOrEqual(Math.min(...means) - 1e-12);
        expect(overall.mean).toBeLessThanOrEqual(Math.max(...means) + 1e-12);
        const n = ts.reduce((s, t) => s + t.n, 0);
        expect(overall.mean).toBeCloseTo(ts.reduce((s, t, i) => s + (t.n / n) * means[i]!, 0), 12);
        expect(overall.variance).toBeGreaterThan(0);
        expect(overall.variance).toBeLessThan(overall.mean * (1 - overall.mean));
      }),
      { numRuns: 40 },
    );
  });

  it('refuses no types, bad sums, counts and nodes', () => {
    expect(() => posterior([])).toThrow(RangeError);
    expect(() => posterior([reviewed(-1, 2, 1)])).toThrow(RangeError);
    expect(() => posterior([reviewed(1, 2, 0)])).toThrow(RangeError);
    expect(() => posterior([machine(1, 2, [{ intercept: 0.5, slope: 0.6, weight: 1 }])])).toThrow(RangeError);
    expect(() => posterior([machine(1, 2, []), reviewed(1, 1)])).toThrow(RangeError);
  });
});
