import { RESOLVED_OUTCOMES, CREDITS, type ClaimType } from './outcomes.ts';
import { MIN_VERDICTS_FOR_TYPE_CONFUSION, JUDGE_CONFUSION_MEASURED, type MeasuredConfusion } from './judge-confusion.ts';

// The judge error the method assumes, derived from the judges' measured
// confusion (judge-confusion.ts, where the counts and their provenance are).
// content/methodology.md ("Judge error") prints the same figures; change them
// together, then bump METHOD_SEMVER.

export { JUDGE_CONFUSION_MEASURED, MIN_VERDICTS_FOR_TYPE_CONFUSION, type ConfusionCounts, type MeasuredConfusion } from './judge-confusion.ts';

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
   * standard errors and covariance of its two (the larger, at mid-scale, of the
   * robust least-squares ones and those of its end rows; see judgeErrorOf)
   * coefficients.
   */
  readonly line: { readonly intercept: number; readonly slope: number; readonly se: readonly [number, number]; readonly covariance: number };
  /**
   * Nine points for the line's uncertainty: Gauss–Hermite, three a coefficient,
   * along the covariance above; a subject's own come from nodesForVerdicts.
   */
  readonly nodes: readonly ConfusionNode[];
  /**
   * Each gold row (true … false): the chances of each machine outcome, and the
   * variance of the row's mean credit (its spread over its count plus one, a
   * Dirichlet posterior over its outcomes); `share`, the row's share of the
   * verdicts.
   */
  readonly rows: readonly { readonly chances: readonly number[]; readonly variance: number; readonly share: number }[];
};

const sideOf = (i: number) => (i < 2 ? 0 : i === 2 ? 1 : 2);
const credit = RESOLVED_OUTCOMES.map((o) => CREDITS[o]);

/**
 * Verdicts on the wrong side (`true`/`mostly_true`; `mixed`; `mostly_false`/`false`)
 * of all resolved ones, an `unsettled` one counted wrong: the `wrong/res` of
 * `npm run eval`, and of its --confusion counts (core/eval/confusion.ts).
 */
export function wrongSideOf({ counts, unsettled }: MeasuredConfusion): JudgeError['wrongSide'] {
  let wrong = unsettled;
  let resolved = unsettled;
  counts.forEach((row, g) => row.forEach((c, e) => {
    resolved += c;
    if (sideOf(g) !== sideOf(e)) wrong += c;
  }));
  return { wrong, resolved, rate: resolved > 0 ? wrong / resolved : 0 };
}

function judgeErrorOf(basis: JudgeError['basis'], measured: MeasuredConfusion): JudgeError {
  const { counts, unsettled } = measured;
  const k = RESOLVED_OUTCOMES.length;
  if (counts.length !== k || counts.some((row) => row.length !== k || row.some((c) => !(Number.isInteger(c) && c >= 0)))) {
    throw new RangeError(`a confusion needs ${k} rows of ${k} whole counts`);
  }
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let g = 0; g < k; g++) {
    for (let e = 0; e < k; e++) {
      const c = counts[g]![e]!;
      n += c;
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
  const sandwich = {
    a: hc1 * (i00 * i00 * m00 + 2 * i00 * i01 * m01 + i01 * i01 * m11),
    ab: hc1 * (i00 * i01 * m00 + (i00 * i11 + i01 * i01) * m01 + i01 * i11 * m11),
    b: hc1 * (i01 * i01 * m00 + 2 * i01 * i11 * m01 + i11 * i11 * m11),
  };
  // The rows at the line's ends: how judges read claims that failed fixes
  // where it starts, and claims that held where it ends, and each row is
  // known only as well as its own verdicts tell (a Dirichlet posterior over
  // its outcomes: the variance of its mean credit is the row's spread over
  // its count plus one). A line through five rows is surer than any one row,
  // but a subject's judges may read its false claims as any row of so few
  // verdicts allows; the range must carry that, so the larger uncertainty of
  // the two, at the middle of the scale, is taken.
  const rows = counts.map((row) => {
    const total = row.reduce((s, c) => s + c, 0);
    if (total === 0) return { chances: row.map(() => 0), variance: 0, share: 0 };
    const m = row.reduce((s, c, e) => s + c * credit[e]!, 0) / total;
    const m2 = row.reduce((s, c, e) => s + c * credit[e]! ** 2, 0) / total;
    return { chances: row.map((c) => c / total), variance: (m2 - m * m) / (total + 1), share: total / n };
  });
  const [top, bottom] = [rows[0]!.variance, rows[k - 1]!.variance];
  const ends = { a: bottom, ab: -bottom, b: top + bottom };
  const atMiddle = (c: { a: number; ab: number; b: number }) => c.a + c.ab + 0.25 * c.b;
  const chosen = atMiddle(ends) > atMiddle(sandwich) ? ends : sandwich;
  const varIntercept = chosen.a;
  const covariance = chosen.ab;
  const varSlope = chosen.b;
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
    wrongSide: wrongSideOf(measured),
    line: { intercept, slope, se: [Math.sqrt(varIntercept), Math.sqrt(varSlope)] as const, covariance },
    nodes: Object.freeze(nodes.map((x) => Object.freeze(x))),
    rows: Object.freeze(rows.map((r) => Object.freeze(r))),
  });
}

/**
 * The gold outcomes a subject's machine verdicts most likely came from: the
 * shares q of the five gold rows that make the verdicts most probable under
 * the measured confusion (a mixture of its rows, fitted by EM from the
 * benchmark's own shares).
 */
export function goldSharesOf(je: JudgeError, verdicts: readonly number[]): number[] {
  const k = je.rows.length;
  const n = verdicts.reduce((s, c) => s + c, 0);
  let q = je.rows.map((r) => r.share);
  if (n === 0) return q;
  const chances = je.rows.map((r) => r.chances);
  // EM: each verdict shared among the rows by how likely each was to give it;
  // stopped once no share moves by 1e-7, far below what the variances feel.
  for (let it = 0; it < 1000; it++) {
    const next = new Array<number>(k).fill(0);
    for (let e = 0; e < k; e++) {
      const v = verdicts[e]!;
      if (v === 0) continue;
      let z = 0;
      for (let g = 0; g < k; g++) z += q[g]! * chances[g]![e]!;
      if (z > 0) for (let g = 0; g < k; g++) next[g]! += (v * q[g]! * chances[g]![e]!) / (z * n);
    }
    let change = 0;
    for (let g = 0; g < k; g++) change = Math.max(change, Math.abs(next[g]! - q[g]!));
    q = next;
    if (change < 1e-7) break;
  }
  return q;
}

/**
 * The nodes for one subject's machine verdicts of a type (`verdicts`: how many
 * it has of each outcome, true … false). The line is the type's; how sure it
 * is depends on the rows the verdicts come from. At the subject's mean gold
 * credit (from its gold shares q, goldSharesOf) the machine's mean credit is
 * the q-weighted mean of the rows', each row's as uncertain as its own
 * verdicts tell: its variance is the sum of q² × each row's variance. The
 * type's nodes are drawn in towards the line until theirs is that there,
 * never pushed out: true/false verdicts, which meet only the end rows, keep
 * the type's nodes (whose uncertainty is the end rows'), and graded ones,
 * spread over five rows, get a surer line. These nodes are the range's; the
 * score's posterior keeps the type's own (score.ts), as no credit may move it.
 */
export function nodesForVerdicts(je: JudgeError, verdicts: readonly number[]): readonly ConfusionNode[] {
  if (!verdicts.some((v) => v > 0)) return je.nodes;
  const q = goldSharesOf(je, verdicts);
  const at = q.reduce((s, qg, g) => s + qg * credit[g]!, 0);
  const rows = q.reduce((s, qg, g) => s + qg * qg * je.rows[g]!.variance, 0);
  const { intercept, slope, se, covariance } = je.line;
  const line = se[0] ** 2 + 2 * at * covariance + at * at * se[1] ** 2;
  if (!(line > 0) || rows >= line) return je.nodes;
  const shrink = Math.sqrt(rows / line);
  return Object.freeze(
    je.nodes.map((x) =>
      Object.freeze({ intercept: intercept + shrink * (x.intercept - intercept), slope: slope + shrink * (x.slope - slope), weight: x.weight }),
    ),
  );
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
