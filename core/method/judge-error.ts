import { RESOLVED_OUTCOMES, CREDITS, type ClaimType } from './outcomes.ts';

// How the machine judges' verdicts relate to the true outcomes, as the benchmark
// measures it: the one table the method reads its judge error from.
// content/methodology.md ("Judge error") prints the same figures; change them
// together, then bump METHOD_SEMVER.
//
// WHERE THE FIGURES COME FROM. `npm run --silent eval -- --part all --verbose`
// on 2026-11-24 (method 1.1.0+14aa4caa79a2; 14 packs: the ten development
// packs and the four held out for method 1.1.0). Every gold claim the engine
// found and resolved is counted once, by the type the engine gave it, in the
// row of its gold outcome and the column of the engine's (--verbose prints
// both for each claim); a resolved verdict on a claim the gold calls
// `unresolvable` or `pending` has no row and is counted in `unsettled`.
// A verdict is on the wrong side when its side (`true`/`mostly_true`;
// `mixed`; `mostly_false`/`false`) is not the gold outcome's, an `unsettled`
// one included: that is the `wrong/res` column of `npm run eval` (its
// `wrong_of_resolved` in --json and bench/published.json). On that day 36 of
// 168 (21%); by part, the ten development packs 20 of 127 (16%) and the four
// packs held out for 1.1.0 16 of 41 (39%; 38% as published for 1.1.0).
// The method pools the parts, every verdict counting once. To update: run
// the command above, count the pairs, and put them here.

/** Rows: the gold outcome; columns: the machine's; both in RESOLVED_OUTCOMES order (true … false). */
export type ConfusionCounts = readonly (readonly number[])[];
export type MeasuredConfusion = { readonly counts: ConfusionCounts; readonly unsettled: number };

export const JUDGE_CONFUSION_MEASURED = Object.freeze({
  command: 'npm run --silent eval -- --part all --verbose',
  measured_on: '2026-11-24',
  method_version: '1.1.0+14aa4caa79a2',
  packs: 14,
  overall: {
    counts: [
      [57, 3, 4, 1, 4],
      [2, 14, 1, 0, 3],
      [7, 0, 10, 2, 1],
      [0, 0, 0, 11, 2],
      [5, 0, 5, 1, 32],
    ],
    unsettled: 3,
  },
  by_type: {
    factual: {
      counts: [
        [25, 2, 2, 1, 2],
        [0, 7, 0, 0, 3],
        [5, 0, 7, 1, 1],
        [0, 0, 0, 10, 2],
        [3, 0, 2, 1, 17],
      ],
      unsettled: 2,
    },
    promise: {
      counts: [
        [15, 0, 1, 0, 1],
        [1, 3, 0, 0, 0],
        [2, 0, 3, 0, 0],
        [0, 0, 0, 0, 0],
        [1, 0, 2, 0, 1],
      ],
      unsettled: 1,
    },
    guidance: {
      counts: [
        [12, 0, 0, 0, 1],
        [1, 3, 1, 0, 0],
        [0, 0, 0, 1, 0],
        [0, 0, 0, 1, 0],
        [1, 0, 0, 0, 7],
      ],
      unsettled: 0,
    },
    prediction: {
      counts: [
        [5, 1, 1, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 7],
      ],
      unsettled: 0,
    },
  } satisfies Record<ClaimType, MeasuredConfusion>,
} as const);

/**
 * A type uses its own counts once the benchmark holds this many of its
 * resolved verdicts; below that they are too few to tell its confusion from
 * the pooled one, and the pooled counts are used. (On 2026-11-24 no type had
 * as many: factual came closest with 93. The four types' wrong-side rates,
 * 24%, 26%, 14% and 13%, differed by no more than chance: chi-square 2.2 on
 * 3 degrees of freedom.)
 */
export const MIN_VERDICTS_FOR_TYPE_CONFUSION = 100;

/**
 * One point of the method's uncertainty about the judges: a machine verdict on
 * a claim whose true reliability is p earns credit intercept + slope × p on
 * average. `weight`: the point's share; the points of one JudgeError sum to 1.
 */
export type ConfusionNode = { readonly intercept: number; readonly slope: number; readonly weight: number };

export type JudgeError = {
  /** Whose counts it rests on. */
  readonly basis: 'type' | 'overall';
  readonly measured: MeasuredConfusion;
  /** Verdicts on the wrong side of the gold outcome, of all resolved verdicts (`wrong/res` of npm run eval). */
  readonly wrongSide: { readonly wrong: number; readonly resolved: number; readonly rate: number };
  /**
   * The straight line through the confusion: the mean credit of a machine
   * verdict given the gold credit, fitted by least squares to every pair, with
   * the (heteroscedasticity-robust) standard errors and covariance of its two
   * coefficients.
   */
  readonly line: { readonly intercept: number; readonly slope: number; readonly se: readonly [number, number]; readonly covariance: number };
  /** Nine points for the line's uncertainty: Gauss–Hermite, three a coefficient, along the fit's covariance. */
  readonly nodes: readonly ConfusionNode[];
};

const sideOf = (i: number) => (i < 2 ? 0 : i === 2 ? 1 : 2);
const credit = RESOLVED_OUTCOMES.map((o) => CREDITS[o]);

function judgeErrorOf(basis: JudgeError['basis'], measured: MeasuredConfusion): JudgeError {
  const { counts, unsettled } = measured;
  const k = RESOLVED_OUTCOMES.length;
  if (counts.length !== k || counts.some((row) => row.length !== k || row.some((c) => !(Number.isInteger(c) && c >= 0)))) {
    throw new RangeError(`a confusion needs ${k} rows of ${k} whole counts`);
  }
  let n = 0;
  let wrong = unsettled;
  let sx = 0;
  let sy = 0;
  for (let g = 0; g < k; g++) {
    for (let e = 0; e < k; e++) {
      const c = counts[g]![e]!;
      n += c;
      if (sideOf(g) !== sideOf(e)) wrong += c;
      sx += c * credit[g]!;
      sy += c * credit[e]!;
    }
  }
  const mx = sx / n;
  const my = sy / n;
  let sxx = 0;
  let sxy = 0;
  for (let g = 0; g < k; g++) {
    for (let e = 0; e < k; e++) {
      const c = counts[g]![e]!;
      sxx += c * (credit[g]! - mx) ** 2;
      sxy += c * (credit[g]! - mx) * (credit[e]! - my);
    }
  }
  if (!(n > 2 && sxx > 0)) throw new RangeError('a confusion needs more than two verdicts over more than one gold outcome');
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  // The coefficients' covariance by the sandwich (HC1): the spread of the
  // machine's credit differs from one gold outcome to the next (a false claim's
  // verdicts scatter more than a true one's), which the usual formula ignores.
  // (X'X)⁻¹ X' diag(residual²) X (X'X)⁻¹ × n / (n − 2), X = [1, gold credit].
  let m00 = 0;
  let m01 = 0;
  let m11 = 0;
  for (let g = 0; g < k; g++) {
    for (let e = 0; e < k; e++) {
      const c = counts[g]![e]!;
      const r2 = (credit[e]! - intercept - slope * credit[g]!) ** 2;
      m00 += c * r2;
      m01 += c * r2 * credit[g]!;
      m11 += c * r2 * credit[g]! ** 2;
    }
  }
  // (X'X)⁻¹ for X = [1, x] with n rows: [[sxx/n + mx², −mx], [−mx, 1]] / sxx.
  const i00 = (sxx / n + mx * mx) / sxx;
  const i01 = -mx / sxx;
  const i11 = 1 / sxx;
  const hc1 = n / (n - 2);
  const varIntercept = hc1 * (i00 * i00 * m00 + 2 * i00 * i01 * m01 + i01 * i01 * m11);
  const covariance = hc1 * (i00 * i01 * m00 + (i00 * i11 + i01 * i01) * m01 + i01 * i11 * m11);
  const varSlope = hc1 * (i01 * i01 * m00 + 2 * i01 * i11 * m01 + i11 * i11 * m11);
  // Gauss–Hermite with three points a dimension (offsets 0, ±√3; weights 2/3,
  // 1/6), mapped through the Cholesky factor of the coefficients' covariance.
  const l11 = Math.sqrt(varIntercept);
  const l21 = l11 > 0 ? covariance / l11 : 0;
  const l22 = Math.sqrt(Math.max(0, varSlope - l21 * l21));
  const points = [
    { z: -Math.sqrt(3), w: 1 / 6 },
    { z: 0, w: 2 / 3 },
    { z: Math.sqrt(3), w: 1 / 6 },
  ];
  const nodes = points.flatMap((u) =>
    points.map((v) => ({ intercept: intercept + l11 * u.z, slope: slope + l21 * u.z + l22 * v.z, weight: u.w * v.w })),
  );
  for (const node of nodes) {
    if (!(node.intercept >= 0 && node.slope > 0 && node.intercept + node.slope <= 1)) {
      throw new RangeError(`judge confusion too uncertain for the method: a point with intercept ${node.intercept} and slope ${node.slope} leaves [0, 1]`);
    }
  }
  return Object.freeze({
    basis,
    measured,
    wrongSide: { wrong, resolved: n + unsettled, rate: wrong / (n + unsettled) },
    line: { intercept, slope, se: [Math.sqrt(varIntercept), Math.sqrt(varSlope)] as const, covariance },
    nodes: Object.freeze(nodes.map((x) => Object.freeze(x))),
  });
}

const total = (m: MeasuredConfusion) => m.counts.flat().reduce((s, c) => s + c, 0) + m.unsettled;

const OVERALL = judgeErrorOf('overall', JUDGE_CONFUSION_MEASURED.overall);
const BY_TYPE = new Map<ClaimType, JudgeError>(
  (Object.entries(JUDGE_CONFUSION_MEASURED.by_type) as [ClaimType, MeasuredConfusion][]).map(([type, m]) => [
    type,
    total(m) >= MIN_VERDICTS_FOR_TYPE_CONFUSION ? judgeErrorOf('type', m) : OVERALL,
  ]),
);

/** The judge error the method assumes for a machine verdict on a claim of this type. */
export function judgeError(type: ClaimType): JudgeError {
  return BY_TYPE.get(type) ?? OVERALL;
}

/** The pooled judge error over every type. */
export const OVERALL_JUDGE_ERROR: JudgeError = OVERALL;

/** Exposed for tests: the same derivation for any counts. */
export const judgeErrorFromCounts = (measured: MeasuredConfusion): JudgeError => judgeErrorOf('overall', measured);
