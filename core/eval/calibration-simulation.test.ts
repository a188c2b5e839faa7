import { describe, expect, it } from 'vitest';
import { scoreClaims, type ScoringClaim } from '../method/score.ts';
import { judgeError } from '../method/judge-error.ts';
import {
  SCENARIOS as S,
  SENSITIVITY,
  assertCell,
  claimsOf,
  drawClaims,
  drawCredits,
  formatCalibrationTable,
  formatCoverageSummary,
  runCalibration,
  simulateCell,
  type Cell,
} from './calibration.ts';
import { seededRandom } from './seeded-random.ts';

// The calibration harness itself (core/eval/calibration.ts): what it draws,
// what it gives the method, and how it prints. What the method's ranges do on
// its grid is calibration.test.ts.

// A few cells, with few subjects: enough to print and summarise.
const rows = runCalibration({
  grid: [
    ...[0.2, 0.8].map((p) => ({ scenario: S.binary, p, n: 10 })),
    ...[0.2, 0.5, 0.8].map((p) => ({ scenario: S.binary, p, n: 50 })),
    ...[0.2, 0.5, 0.8].flatMap((p) => [10, 50].map((n) => ({ scenario: S.graded, p, n }))),
  ],
  subjects: 200,
});

const sampleOf = (cell: Cell, subjects: number) => {
  const rng = seededRandom('test');
  return Array.from({ length: subjects }, () => drawCredits(rng, cell));
};
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const variance = (xs: readonly number[]) => {
  const m = mean(xs);
  return mean(xs.map((x) => (x - m) ** 2));
};
const correlation = (xs: readonly number[], ys: readonly number[]) => {
  const mx = mean(xs);
  const my = mean(ys);
  return mean(xs.map((x, i) => (x - mx) * (ys[i]! - my))) / Math.sqrt(variance(xs) * variance(ys));
};

describe('the simulation', () => {
  it('draws credits with mean p and variance spread · p(1 − p)', () => {
    for (const scenario of [S.binary, S.graded, S.gradedNarrow]) {
      const credits = sampleOf({ scenario, p: 0.3, n: 10 }, 10_000).flat();
      expect(mean(credits)).toBeCloseTo(0.3, 2);
      expect(variance(credits)).toBeCloseTo(scenario.spread * 0.21, 2);
    }
  });

  it('puts verdicts on the wrong side at a sensitivity scenario\'s rate', () => {
    const credits = sampleOf({ scenario: SENSITIVITY.judgeError30, p: 0.2, n: 10 }, 10_000).flat();
    expect(mean(credits)).toBeCloseTo(0.2 * 0.7 + 0.8 * 0.3, 2);
  });

  it('draws machine verdicts from the measured confusion, each subject\'s rows from Dirichlet(counts)', () => {
    // True/false credits at p = 0.6 meet only the rows of `true` and `false` of
    // the measured confusion, on average as measured:
    const row = (g: number): readonly number[] => judgeError('factual').measured.counts[g]!;
    const total = (g: number) => row(g).reduce((a: number, c) => a + c, 0);
    const creditOf = (g: number) => row(g).reduce((a: number, c, j) => a + c * (1 - j / 4), 0) / total(g);
    const credits = sampleOf({ scenario: S.judgeError, p: 0.6, n: 10 }, 10_000).flat();
    expect(mean(credits)).toBeCloseTo(0.6 * creditOf(0) + 0.4 * creditOf(4), 2);
    expect(credits.filter((c) => c === 0.5).length / credits.length).toBeCloseTo(0.6 * (row(0)[2]! / total(0)) + 0.4 * (row(4)[2]! / total(4)), 2);
  });

  it('gives reviewed claims to the method without judge error, and machine ones with it; sources to clustered claims', () => {
    const rng = seededRandom('claims');
    const reviewed = drawClaims(rng, { scenario: S.clustered, p: 0.5, n: 10 });
    expect(reviewed.every((c) => c.reviewed === true)).toBe(true);
    expect(new Set(reviewed.map((c) => c.cluster)).size).toBe(2);
    const machine = drawClaims(rng, { scenario: S.judgeError, p: 0.5, n: 10 });
    expect(machine.every((c) => c.reviewed === false && c.cluster === null)).toBe(true);
  });

  it('correlates claims within a cluster by icc and not across clusters', () => {
    const subjects = sampleOf({ scenario: S.clusteredStrong, p: 0.5, n: 10 }, 20_000);
    expect(mean(subjects.flat())).toBeCloseTo(0.5, 2);
    expect(correlation(subjects.map((c) => c[0]!), subjects.map((c) => c[1]!))).toBeCloseTo(0.3, 1);
    expect(Math.abs(correlation(subjects.map((c) => c[4]!), subjects.map((c) => c[5]!)))).toBeLessThan(0.03);
  });

  it('is reproducible: a cell depends on the seed and the cell only', () => {
    const cell = { scenario: S.graded, p: 0.2, n: 10 };
    const alone = simulateCell(cell, { subjects: 200 });
    expect(runCalibration({ grid: [{ scenario: S.binary, p: 0.5, n: 20 }, cell], subjects: 200 })[1]).toEqual(alone);
    expect(simulateCell(cell, { subjects: 200, seed: 'other' })).not.toEqual(alone);
  });

  it('reads coverage from scores.overall.interval_80 of the scorer it is given', () => {
    const widest = (claims: readonly ScoringClaim[]) => {
      const result = scoreClaims(claims);
      if (result.status === 'scored') result.scores.overall.interval_80 = [0, 100];
      return result;
    };
    const row = simulateCell({ scenario: SENSITIVITY.judgeError30, p: 0.2, n: 50 }, { subjects: 100, score: widest });
    expect(row.coverage).toBe(1);
    expect(row.mean_width).toBe(100);
  });

  it('builds claims scoreClaims accepts, one outcome per credit', () => {
    const claims = claimsOf([1, 0.75, 0.5, 0.25, 0]);
    expect(claims.map((c) => c.outcome)).toEqual(['true', 'mostly_true', 'mixed', 'mostly_false', 'false']);
    expect(scoreClaims(claims).status).toBe('scored');
    expect(() => claimsOf([0.3])).toThrow(RangeError);
  });

  it('refuses cells that cannot be scored or simulated', () => {
    expect(() => assertCell({ scenario: S.binary, p: 0.5, n: 4 })).toThrow(/at least 5/);
    expect(() => assertCell({ scenario: S.binary, p: 1, n: 10 })).toThrow(RangeError);
    expect(() => assertCell({ scenario: { ...S.binary, spread: 0.1 }, p: 0.5, n: 10 })).toThrow(/spread/);
    expect(() => assertCell({ scenario: { ...S.binary, icc: 0.2 }, p: 0.5, n: 10 })).toThrow(/clusterSize/);
    expect(() => assertCell({ scenario: { ...S.binary, judgeError: 0.6 }, p: 0.5, n: 10 })).toThrow(/judgeError/);
  });

  it('prints one line per cell under a header', () => {
    const table = formatCalibrationTable(rows.slice(0, 2));
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toMatch(/^scenario\s+p\s+n\s+subjects\s+cover80/);
    expect(table.split('\n')[1]).toMatch(/^binary\s+0\.20\s+10\s+200\s+\d+\.\d%/);
  });

  it('summarises coverage as a Markdown table, one row per scenario and the p values in a cell', () => {
    const summary = formatCoverageSummary(rows.filter((r) => r.scenario === 'binary' || r.scenario === 'graded'));
    const lines = summary.split('\n');
    expect(lines[0]).toBe('| scenario | n = 10 | n = 50 |');
    expect(lines).toHaveLength(4);
    const b50 = [0.2, 0.5, 0.8].map((p) => rows.find((r) => r.scenario === 'binary' && r.n === 50 && r.p === p)!);
    expect(lines[2]).toContain(`| ${b50.map((r) => (r.coverage * 100).toFixed(0)).join(' / ')} |`);
    // p = 0.5 at n = 10 is not in the CI grid: a dash.
    expect(lines[2]).toMatch(/^\| binary \| \d+ \/ – \/ \d+ \|/);
  });
});
