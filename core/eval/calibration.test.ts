import { describe, expect, it } from 'vitest';
import { scoreClaims, type ScoringClaim } from '../method/score.ts';
import {
  DEFAULT_SEED,
  SCENARIOS as S,
  assertCell,
  claimsOf,
  drawCredits,
  formatCalibrationTable,
  runCalibration,
  simulateCell,
  type CalibrationRow,
  type Cell,
  type Scenario,
} from './calibration.ts';
import { seededRandom } from './seeded-random.ts';

// Issue #17: interval_80 should hold the true score in 75–85% of subjects in
// every cell with n >= 10. Today's model does so only in some scenarios, so
// every cell the CI grid runs is declared here with what it is expected to do:
//
// - `within`: must stay within 75–85%. A change that pushes one out fails.
// - `knownFailure`: measured outside 75–85% today. The test asserts that it is
//   still outside (so a fix shows up, and the cell must then move to `within`)
//   and still inside its band, measured with this seed ±5 points (so a change
//   that makes it worse, or merely different, shows up too).
//
// THE KNOWN-FAILURE LIST IS WHAT ISSUE #17 ITEM 2 MUST EMPTY. Move a cell from
// it to `within` only when a change to the method brings it into 75–85%.
//
// 1000 subjects per cell (Monte Carlo standard error at most 1.6 points),
// seed DEFAULT_SEED: results are deterministic, the grid runs in about 2 s.

const SUBJECTS = 1000;

type Expectation =
  | { cell: Cell; status: 'within'; note?: string }
  | { cell: Cell; status: 'known_failure'; band: readonly [number, number]; why: string };

const within = (scenario: Scenario, p: number, n: number, note?: string): Expectation => ({
  cell: { scenario, p, n },
  status: 'within',
  ...(note ? { note } : {}),
});
const knownFailure = (scenario: Scenario, p: number, n: number, band: readonly [number, number], why: string): Expectation => ({
  cell: { scenario, p, n },
  status: 'known_failure',
  band,
  why,
});

const DISCRETE = 'with 10 true/false verdicts only 11 posteriors exist; the one-sided misses jump with n';
const TOO_WIDE = 'graded credits vary less than true/false ones, but the update counts each as a full Bernoulli trial, so the range is too wide';
const CLUSTERS = 'claims in a cluster share a tendency, so they carry less information than independent ones; the range is too narrow';
const JUDGE = 'verdicts on the wrong side pull the score towards 50, and the range does not allow for judge error';

const CI_GRID: readonly Expectation[] = [
  within(S.binary, 0.2, 10),
  within(S.binary, 0.8, 10),
  ...[30, 50, 100].flatMap((n) => [0.2, 0.5, 0.8].map((p) => within(S.binary, p, n))),
  within(S.judgeError30, 0.5, 50, 'a wrong side is as likely either way at p = 0.5, so the errors cancel'),
  within(S.gradedClustered, 0.5, 10, 'only because two errors cancel: graded verdicts widen the range, clusters narrow it'),
  within(S.gradedClustered, 0.5, 50, 'only because two errors cancel: graded verdicts widen the range, clusters narrow it'),

  knownFailure(S.binary, 0.5, 10, [84, 95], DISCRETE),
  knownFailure(S.graded, 0.2, 10, [86, 97], TOO_WIDE),
  knownFailure(S.graded, 0.5, 50, [89, 99], TOO_WIDE),
  knownFailure(S.graded, 0.8, 10, [87, 97], TOO_WIDE),
  knownFailure(S.gradedNarrow, 0.2, 10, [93, 100], TOO_WIDE),
  knownFailure(S.gradedNarrow, 0.5, 50, [94, 100], TOO_WIDE),
  knownFailure(S.clustered, 0.2, 50, [65, 76], CLUSTERS),
  knownFailure(S.clustered, 0.5, 50, [68, 78], CLUSTERS),
  knownFailure(S.clusteredStrong, 0.2, 10, [46, 57], CLUSTERS),
  knownFailure(S.clusteredStrong, 0.5, 50, [55, 66], CLUSTERS),
  knownFailure(S.judgeError10, 0.2, 50, [51, 62], JUDGE),
  knownFailure(S.judgeError10, 0.8, 50, [49, 59], JUDGE),
  knownFailure(S.judgeError30, 0.2, 10, [38, 48], JUDGE),
  knownFailure(S.judgeError30, 0.8, 50, [1, 11], JUDGE),
  knownFailure(S.gradedJudgeError30, 0.2, 10, [35, 46], JUDGE),
  knownFailure(S.gradedJudgeError30, 0.5, 10, [89, 99], TOO_WIDE),
  knownFailure(S.gradedJudgeError30, 0.8, 50, [0, 7], JUDGE),
];

const label = ({ scenario, p, n }: Cell) => `${scenario.name} p=${p} n=${n}`;
const rows = runCalibration({ grid: CI_GRID.map((e) => e.cell), subjects: SUBJECTS, seed: DEFAULT_SEED });
const rowOf = new Map(CI_GRID.map((e, i) => [e, rows[i]!]));
const percent = (row: CalibrationRow) => Math.round(row.coverage * 1000) / 10;

describe('calibration of interval_80 on the CI grid (issue #17)', () => {
  it('declares only cells with n >= 10, each once', () => {
    expect(CI_GRID.every((e) => e.cell.n >= 10)).toBe(true);
    expect(new Set(CI_GRID.map((e) => label(e.cell))).size).toBe(CI_GRID.length);
  });

  const declared = CI_GRID.filter((e) => e.status === 'within');
  it.each(declared.map((e) => ({ name: label(e.cell), e })))('$name: coverage within 75–85%', ({ e }) => {
    expect(percent(rowOf.get(e)!)).toBeGreaterThanOrEqual(75);
    expect(percent(rowOf.get(e)!)).toBeLessThanOrEqual(85);
  });

  const failing = CI_GRID.filter((e) => e.status === 'known_failure');
  it.each(failing.map((e) => ({ name: label(e.cell), e })))('$name: known failure, still outside 75–85% and within its band', ({ e }) => {
    if (e.status !== 'known_failure') throw new Error('unreachable');
    const got = percent(rowOf.get(e)!);
    // Inside 75–85% now: the method was fixed for this cell; move it to `within`.
    expect(got < 75 || got > 85, `${label(e.cell)} now covers ${got}%: move it to within()`).toBe(true);
    expect(got).toBeGreaterThanOrEqual(e.band[0]);
    expect(got).toBeLessThanOrEqual(e.band[1]);
  });
});

// The exact coverage of true/false verdicts: sum over k true of C(n, k) p^k (1-p)^(n-k),
// for the k whose production interval holds 100 × p. The simulation must agree with it.
function exactBinaryCoverage(p: number, n: number): number {
  let total = 0;
  let logChoose = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
    const result = scoreClaims(claimsOf([...Array<number>(k).fill(1), ...Array<number>(n - k).fill(0)]));
    if (result.status !== 'scored') throw new Error('expected a score');
    const [lo, hi] = result.scores.overall.interval_80;
    if (lo <= 100 * p && 100 * p <= hi) total += Math.exp(logChoose + k * Math.log(p) + (n - k) * Math.log(1 - p));
  }
  return total;
}

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
  it('agrees with the exact coverage of true/false verdicts, within 4 standard errors', () => {
    for (const [p, n] of [[0.2, 10], [0.5, 10], [0.5, 30], [0.8, 100]] as const) {
      const row = rows[CI_GRID.findIndex((e) => e.cell.scenario === S.binary && e.cell.p === p && e.cell.n === n)]!;
      expect(Math.abs(row.coverage - exactBinaryCoverage(p, n))).toBeLessThan(4 * Math.sqrt(0.25 / SUBJECTS));
    }
  });

  it('draws credits with mean p and variance spread · p(1 − p)', () => {
    for (const scenario of [S.binary, S.graded, S.gradedNarrow]) {
      const credits = sampleOf({ scenario, p: 0.3, n: 10 }, 10_000).flat();
      expect(mean(credits)).toBeCloseTo(0.3, 2);
      expect(variance(credits)).toBeCloseTo(scenario.spread * 0.21, 2);
    }
  });

  it('puts verdicts on the wrong side at the judge error rate', () => {
    const credits = sampleOf({ scenario: S.judgeError30, p: 0.2, n: 10 }, 10_000).flat();
    expect(mean(credits)).toBeCloseTo(0.2 * 0.7 + 0.8 * 0.3, 2);
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
    const row = simulateCell({ scenario: S.judgeError30, p: 0.2, n: 50 }, { subjects: 100, score: widest });
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
  });

  it('prints one line per cell under a header', () => {
    const table = formatCalibrationTable(rows.slice(0, 2));
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toMatch(/^scenario\s+p\s+n\s+subjects\s+cover80/);
    expect(table.split('\n')[1]).toMatch(/^binary\s+0\.20\s+10\s+1000\s+\d+\.\d%/);
  });
});
