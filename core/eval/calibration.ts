import { judgeError } from '../method/judge-error.ts';
import { CREDITS, RESOLVED_OUTCOMES, type ResolvedOutcome } from '../method/outcomes.ts';
import { MIN_RESOLVED, scoreClaims, type ScoringClaim, type ScoringResult } from '../method/score.ts';
import { bernoulli, betaDraw, gamma, seededRandom, type Random } from './seeded-random.ts';

/**
 * Calibration of the published score (issue #17, item 1): simulated subjects
 * whose true reliability is known, scored by the production scoreClaims, to see
 * how often interval_80 holds the truth and how far the score lands from it.
 *
 * The true score. A subject's true reliability p is the expected credit of one
 * of its resolved claims as a correct judge would grade it: the mean of the
 * distribution its claims' true outcomes are drawn from (averaged over clusters
 * when claims cluster), before any judge error. The true score is 100 × p,
 * the number the published score estimates. Judge error is therefore counted
 * as the method's error, not as a change in the subject.
 *
 * Verdicts. A scenario without judge error simulates verdicts a person has
 * reviewed (`reviewed: true`, which the method counts with no judge error); a
 * scenario with judge error simulates machine verdicts, which the method counts
 * with the judges' confusion it measured on the benchmark (judge-error.ts).
 * The calibration grid's judge error scenarios draw each verdict from that
 * measured confusion: the row of the claim's true outcome gives the chances of
 * each recorded outcome (a third of them on the wrong side for factual claims). Each subject's rows are
 * drawn from Dirichlet(counts), centred on the measured rows with the
 * measurement's own uncertainty, which the method carries too. The sensitivity grid (SENSITIVITY) shows what the
 * range does when the judges err more or less than the benchmark measured,
 * which no range can know from a subject's credits alone.
 *
 * Sources. Claims of one cluster share a source (`cluster`), as claims from one
 * document do in a report, so the method can count them as correlated.
 *
 * Coverage is read from scores.overall.interval_80 (the headline range; every
 * simulated claim is factual, so the factual entry is the same). The ends are
 * the published ones, rounded outward to 0.1, and the score is the published
 * score, rounded to 0.1: what a reader sees is what is measured.
 *
 * This module lives outside core/method/ on purpose: every file there is hashed
 * into method_version, so a harness that only measures the method would change
 * the version of every report and make the nightly measurement judge every demo
 * claim again.
 */

/** The seed of `npm run calibrate` and of the CI test unless told otherwise; 17 for issue #17. */
export const DEFAULT_SEED = '17';
export const DEFAULT_SUBJECTS = 4000;

export type Scenario = {
  /** Name printed in the table. */
  readonly name: string;
  /**
   * Variance of one claim's credit as a share of m(1 − m), the largest a credit
   * with mean m can have: 1 is true/false only; 0.25 is Binomial(4, m)/4 over the
   * five outcomes; values between mix the two. Must lie in [0.25, 1].
   */
  readonly spread: number;
  /** Claims come in consecutive groups of this size sharing one tendency; 1 = independent. */
  readonly clusterSize: number;
  /**
   * Correlation of two claims' credits within a group: each group's mean is
   * drawn from Beta(p·κ, (1 − p)·κ) with κ = 1/icc − 1, so its mean is p. 0 with
   * clusterSize 1.
   */
  readonly icc: number;
  /**
   * 0: verdicts a person reviewed, given to the method as `reviewed`.
   * 'measured': machine verdicts drawn from the judges' measured confusion.
   * A number above 0: machine verdicts put on the wrong side at that rate, credit
   * c recorded as 1 − c (mixed stays mixed).
   */
  readonly judgeError: number | 'measured';
};

export type Cell = { readonly scenario: Scenario; readonly p: number; readonly n: number };

export type CalibrationRow = {
  scenario: string;
  p: number;
  n: number;
  subjects: number;
  /** Share of subjects whose interval_80 holds 100 × p. */
  coverage: number;
  /** Monte Carlo standard error of `coverage`. */
  coverage_se: number;
  /** Share whose whole interval lies below the truth (score too low), and above it. */
  miss_low: number;
  miss_high: number;
  /** Mean of upper minus lower end, in points. */
  mean_width: number;
  /** Mean and root mean square of score − 100 × p, in points. */
  bias: number;
  rmse: number;
};

export type Scorer = (claims: readonly ScoringClaim[]) => ScoringResult;

const scenario = (name: string, over: Partial<Omit<Scenario, 'name'>> = {}): Scenario =>
  Object.freeze({ name, spread: 1, clusterSize: 1, icc: 0, judgeError: 0, ...over });

/** The judges' confusion on factual claims (every simulated claim is factual), as the method measured and uses it. */
const MEASURED = judgeError('factual').measured;

/**
 * The calibration grid's scenarios, named as the table prints them. Each
 * departure from true/false verdicts is tried alone on reviewed true/false
 * verdicts; graded verdicts are tried with clusters (the issue's audit ran
 * graded+clustered), and machine verdicts with the judge error the method
 * measured, on true/false, graded, and graded clustered verdicts (the last is
 * what a real report looks like).
 */
export const SCENARIOS = Object.freeze({
  binary: scenario('binary'),
  graded: scenario('graded', { spread: 0.5 }),
  gradedNarrow: scenario('graded-narrow', { spread: 0.25 }),
  clustered: scenario('clustered-5/0.1', { clusterSize: 5, icc: 0.1 }),
  clusteredStrong: scenario('clustered-5/0.3', { clusterSize: 5, icc: 0.3 }),
  gradedClustered: scenario('graded+clustered-5/0.1', { spread: 0.5, clusterSize: 5, icc: 0.1 }),
  judgeError: scenario('judge-error-measured', { judgeError: 'measured' }),
  gradedJudgeError: scenario('graded+error-measured', { spread: 0.5, judgeError: 'measured' }),
  gradedClusteredJudgeError: scenario('graded+clustered+error-measured', {
    spread: 0.5,
    clusterSize: 5,
    icc: 0.1,
    judgeError: 'measured',
  }),
});

/**
 * Machine verdicts whose judges err otherwise than the benchmark measured: a
 * wrong side at 10% or 30% of verdicts, each a full mirror (true read as false
 * and the reverse), where the measured factual confusion has 34% on the wrong
 * side (an `unsettled` verdict counted wrong), many of them one step to or
 * from `mixed`. 30% is about what the packs held out for method 1.1.0 showed. Not part of the calibration grid: the method
 * cannot tell from a subject's credits how its judges erred on them, so these
 * show how far the range goes wrong when the benchmark's confusion does not
 * hold. The 30% ones are the issue's audit (38/94/38% under method 1.1.0).
 */
export const SENSITIVITY = Object.freeze({
  judgeError10: scenario('judge-error-10%', { judgeError: 0.1 }),
  judgeError30: scenario('judge-error-30%', { judgeError: 0.3 }),
  gradedJudgeError30: scenario('graded+error-30%', { spread: 0.5, judgeError: 0.3 }),
});

export const DEFAULT_PS = [0.2, 0.5, 0.8] as const;
export const DEFAULT_NS = [5, 10, 20, 50, 100] as const;

/** Every scenario × p × n, in that order. */
export function gridOf(scenarios: readonly Scenario[], ps: readonly number[], ns: readonly number[]): Cell[] {
  return scenarios.flatMap((scenario) => ps.flatMap((p) => ns.map((n) => ({ scenario, p, n }))));
}

export const DEFAULT_GRID: readonly Cell[] = Object.freeze(gridOf(Object.values(SCENARIOS), DEFAULT_PS, DEFAULT_NS));
export const SENSITIVITY_GRID: readonly Cell[] = Object.freeze(gridOf(Object.values(SENSITIVITY), DEFAULT_PS, DEFAULT_NS));

export function assertCell({ scenario: s, p, n }: Cell): void {
  const bad = (what: string) => {
    throw new RangeError(`calibration cell ${s.name} p=${p} n=${n}: ${what}`);
  };
  if (!(p > 0 && p < 1)) bad('p must lie strictly between 0 and 1');
  if (!Number.isInteger(n) || n < MIN_RESOLVED) bad(`n must be a whole number of at least ${MIN_RESOLVED}, or there is no score`);
  if (!(s.spread >= 0.25 && s.spread <= 1)) bad('spread must lie in [0.25, 1]');
  if (!Number.isInteger(s.clusterSize) || s.clusterSize < 1) bad('clusterSize must be a whole number of at least 1');
  if (!(s.icc >= 0 && s.icc < 1)) bad('icc must lie in [0, 1)');
  if (s.icc > 0 && s.clusterSize < 2) bad('icc needs clusterSize of at least 2');
  if (s.judgeError !== 'measured' && !(s.judgeError >= 0 && s.judgeError <= 0.5)) bad("judgeError must lie in [0, 0.5] or be 'measured'");
}

/** A credit with mean m and variance spread · m(1 − m): see Scenario.spread. */
function drawCredit(rng: Random, m: number, spread: number): number {
  if (bernoulli(rng, (spread - 0.25) / 0.75)) return bernoulli(rng, m) ? 1 : 0;
  let k = 0;
  for (let i = 0; i < 4; i++) if (bernoulli(rng, m)) k++;
  return k / 4;
}

const CREDIT_OF_INDEX = RESOLVED_OUTCOMES.map((o) => CREDITS[o]);
const INDEX_OF_CREDIT: ReadonlyMap<number, number> = new Map(CREDIT_OF_INDEX.map((c, i) => [c, i]));

/**
 * One subject's judges: for each true outcome, the chances of each recorded
 * one, drawn from Dirichlet(counts), whose mean is the measured row (an outcome
 * the judges were never seen to give keeps chance 0).
 */
function drawConfusion(rng: Random): number[][] {
  return MEASURED.counts.map((row) => {
    const g = row.map((c) => (c > 0 ? gamma(rng, c) : 0));
    const sum = g.reduce((a, b) => a + b, 0);
    return g.map((x) => x / sum);
  });
}

function drawRecorded(rng: Random, chances: readonly number[]): number {
  let u = rng();
  for (let i = 0; i < chances.length; i++) {
    u -= chances[i]!;
    if (u < 0) return CREDIT_OF_INDEX[i]!;
  }
  return CREDIT_OF_INDEX[chances.length - 1]!;
}

/** The recorded credits of one simulated subject's n resolved claims. */
export function drawCredits(rng: Random, { scenario: s, p, n }: Cell): number[] {
  const kappa = s.icc > 0 ? 1 / s.icc - 1 : 0;
  const confusion = s.judgeError === 'measured' ? drawConfusion(rng) : null;
  const credits: number[] = [];
  let mean = p;
  for (let i = 0; i < n; i++) {
    if (kappa > 0 && i % s.clusterSize === 0) mean = betaDraw(rng, p * kappa, (1 - p) * kappa);
    const credit = drawCredit(rng, mean, s.spread);
    if (confusion) credits.push(drawRecorded(rng, confusion[INDEX_OF_CREDIT.get(credit)!]!));
    else credits.push(bernoulli(rng, s.judgeError as number) ? 1 - credit : credit);
  }
  return credits;
}

const OUTCOME_OF_CREDIT: ReadonlyMap<number, ResolvedOutcome> = new Map(RESOLVED_OUTCOMES.map((o) => [CREDITS[o], o]));

/**
 * Claims as scoreClaims takes them: factual, judges agreeing, no deadline, so
 * the credit is the outcome's; consecutive runs of `clusterSize` share a source;
 * `reviewed` says whether a person reviewed the verdicts (no judge error).
 */
export function claimsOf(credits: readonly number[], opts: { clusterSize?: number; reviewed?: boolean } = {}): ScoringClaim[] {
  const clusterSize = opts.clusterSize ?? 1;
  return credits.map((credit, i) => {
    const outcome = OUTCOME_OF_CREDIT.get(credit);
    if (outcome === undefined) throw new RangeError(`no outcome has credit ${credit}`);
    return {
      claim_id: `c${String(i).padStart(4, '0')}`,
      claim_type: 'factual',
      outcome,
      judges_disagree: false,
      on_time: null,
      quote: `simulated claim ${i}`,
      said_on: '2024-01-01',
      cluster: clusterSize > 1 ? `https://source.example/${Math.floor(i / clusterSize)}` : null,
      reviewed: opts.reviewed ?? false,
    };
  });
}

/** The claims of one simulated subject of a cell, as the method is given them. */
export function drawClaims(rng: Random, cell: Cell): ScoringClaim[] {
  return claimsOf(drawCredits(rng, cell), { clusterSize: cell.scenario.clusterSize, reviewed: cell.scenario.judgeError === 0 });
}

/** Which subjects a cell draws depends only on the seed and the cell, not on the grid around it. */
export const cellKey = ({ scenario: s, p, n }: Cell) =>
  `${s.name}|spread=${s.spread}|cluster=${s.clusterSize}|icc=${s.icc}|error=${s.judgeError}|p=${p}|n=${n}`;

// 100 × p computed as 20.000000000000004 would miss an interval ending at 20.0.
const pointsOf = (p: number) => Math.round(p * 100 * 1e9) / 1e9;

export function simulateCell(cell: Cell, opts: { seed?: string; subjects?: number; score?: Scorer } = {}): CalibrationRow {
  assertCell(cell);
  const subjects = opts.subjects ?? DEFAULT_SUBJECTS;
  if (!Number.isInteger(subjects) || subjects < 1) throw new RangeError(`subjects must be a whole number of at least 1, got ${subjects}`);
  const score = opts.score ?? scoreClaims;
  const rng = seededRandom(`${opts.seed ?? DEFAULT_SEED}|${cellKey(cell)}`);
  const truth = pointsOf(cell.p);
  let covered = 0;
  let low = 0;
  let high = 0;
  let width = 0;
  let err = 0;
  let errSq = 0;
  for (let i = 0; i < subjects; i++) {
    const result = score(drawClaims(rng, cell));
    if (result.status !== 'scored') throw new Error(`a simulated subject with ${cell.n} claims got no score: ${result.reason}`);
    const { score: points, interval_80: [lo, hi] } = result.scores.overall;
    if (hi < truth) low++;
    else if (lo > truth) high++;
    else covered++;
    width += hi - lo;
    err += points - truth;
    errSq += (points - truth) ** 2;
  }
  const coverage = covered / subjects;
  return {
    scenario: cell.scenario.name,
    p: cell.p,
    n: cell.n,
    subjects,
    coverage,
    coverage_se: Math.sqrt((coverage * (1 - coverage)) / subjects),
    miss_low: low / subjects,
    miss_high: high / subjects,
    mean_width: width / subjects,
    bias: err / subjects,
    rmse: Math.sqrt(errSq / subjects),
  };
}

export type CalibrationOptions = {
  grid?: readonly Cell[];
  seed?: string;
  subjects?: number;
  /** The scoring function under test; the production scoreClaims unless a before/after comparison passes another. */
  score?: Scorer;
};

export function runCalibration(opts: CalibrationOptions = {}): CalibrationRow[] {
  return (opts.grid ?? DEFAULT_GRID).map((cell) => simulateCell(cell, opts));
}

const HEADER = ['scenario', 'p', 'n', 'subjects', 'cover80', '±se', 'low', 'high', 'width', 'bias', 'RMSE'];

/** The rows as a fixed-width text table; coverage and misses in %, the rest in score points. */
export function formatCalibrationTable(rows: readonly CalibrationRow[]): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const lines = rows.map((r) => [
    r.scenario,
    r.p.toFixed(2),
    String(r.n),
    String(r.subjects),
    pct(r.coverage),
    (r.coverage_se * 100).toFixed(1),
    pct(r.miss_low),
    pct(r.miss_high),
    r.mean_width.toFixed(1),
    (r.bias >= 0 ? '+' : '') + r.bias.toFixed(2),
    r.rmse.toFixed(2),
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [fmt(HEADER), ...lines.map(fmt)].join('\n');
}

/** The table for a grid, ready to print; run it before and after a change to the method to compare. */
export function calibrationTable(opts: CalibrationOptions = {}): string {
  return formatCalibrationTable(runCalibration(opts));
}

/**
 * The coverage alone as a Markdown table, one row per scenario and one column
 * per n, each cell the coverage at each p, lowest first ("78 / 81 / 79"): the
 * form content/methodology.md prints ("How honest the range is").
 */
export function formatCoverageSummary(rows: readonly CalibrationRow[]): string {
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
  const ps = [...new Set(rows.map((r) => r.p))].sort((a, b) => a - b);
  const cell = (scenario: string, n: number) =>
    ps
      .map((p) => rows.find((r) => r.scenario === scenario && r.n === n && r.p === p))
      .map((r) => (r ? (r.coverage * 100).toFixed(0) : '–'))
      .join(' / ');
  const header = `| scenario | ${ns.map((n) => `n = ${n}`).join(' | ')} |`;
  const rule = `| --- | ${ns.map(() => '---').join(' | ')} |`;
  return [header, rule, ...scenarios.map((s) => `| ${s} | ${ns.map((n) => cell(s, n)).join(' | ')} |`)].join('\n');
}
