import { betaCdf } from './beta.ts';
import type { ConfusionNode } from './judge-error.ts';

// The posterior behind every score (content/methodology.md, "The model"), computed
// on grids so that nothing is left to a sampler: the same claims give the same
// numbers on every machine.
//
// The model. A subject has an underlying reliability mu, from SUBJECT_PRIOR. Each
// claim type t it makes claims of has its own reliability p_t, drawn around mu:
// p_t ~ Beta(TYPE_SPREAD × mu, TYPE_SPREAD × (1 − mu)). A claim of type t earns
// a credit whose mean is p_t when a person reviewed its verdict, and
// a + b × p_t when it is a machine verdict, the straight line through the
// judges' measured confusion (judge-error.ts). The credits enter as a
// quasi-binomial likelihood: a claim of weight w and credit c contributes
// w·c·log(m) + w·(1 − c)·log(1 − m), m its mean, its weight carrying the spread
// of graded outcomes and the correlation of claims from one source
// (claim-weight.ts). score.ts asks for two posteriors: the range's, with those
// weights, and the score's, with weights no credit moves (the assumed
// correlation alone) and the line's nodes as its end rows leave them, whose
// mean is then non-decreasing in every credit: raising one multiplies the
// likelihood by a function increasing in its type's reliability, and given mu
// the types are independent with Beta(TYPE_SPREAD × mu, …) rising in mu.
// The line is uncertain too: the posterior is averaged over its nodes, each
// with its own weight (a subject's credits say next to nothing about how its
// judges erred, so they do not reweigh the nodes).
//
// `overall` is the claim-weighted mean of the type reliabilities, sum of
// (n_t / n) × p_t, so its posterior mean lies between the type scores'.
//
// The grid has GRID_POINTS cells; a posterior narrower than a few cells (some
// thousands of claims) is summarised to within a cell, 0.25 points.

/**
 * The prior of a subject's underlying reliability: Beta(½, ½), worth one claim
 * split between true and false, centred on 50. Of the priors that shrink towards
 * 50 it is the one whose ranges hold the true value about as often as they say
 * whatever that value is (Jeffreys' prior; for true/false verdicts see Brown,
 * Cai & DasGupta, "Interval estimation for a binomial proportion", 2001); the
 * uniform Beta(1, 1) of method 1.1 held it too often near 20 and 80 once the
 * judges' error thinned the evidence.
 */
export const SUBJECT_PRIOR = Object.freeze({ alpha: 0.5, beta: 0.5 });
/** How closely a subject's types follow its overall reliability: a type borrows this many claims' worth from the others. */
export const TYPE_SPREAD = 8;
/** Points of the grid over a reliability, the midpoints of equal cells of [0, 1]. */
export const GRID_POINTS = 400;
/** Points of the grid over the subject's underlying reliability mu. */
const MU_POINTS = 40;

/** The evidence of one claim type: weighted sums of credit, w·c (`a`) and w·(1 − c) (`b`). */
export type TypeEvidence = {
  readonly reviewed: { readonly a: number; readonly b: number };
  readonly machine: { readonly a: number; readonly b: number };
  /** The judges' confusion for machine verdicts of this type, as nodes; node j of every type is taken together, with type 0's weight. */
  readonly errorNodes: readonly ConfusionNode[];
  /** Resolved claims of the type: its weight in `overall` is n / (all types' n). */
  readonly n: number;
};

export type Moments = { readonly mean: number; readonly variance: number };
/** A reliability's posterior: its mean, its variance, and its 10th and 90th percentiles when the grid gives them exactly. */
export type Summary = Moments & { readonly interval: readonly [number, number] | null };
export type Posterior = { readonly types: readonly Summary[]; readonly overall: Summary };

const P = GRID_POINTS;
const grid = Float64Array.from({ length: P }, (_, k) => (k + 0.5) / P);
const logP = grid.map(Math.log);
const logQ = grid.map((p) => Math.log1p(-p));

// Row j: the mass Beta(TYPE_SPREAD × mu_j, TYPE_SPREAD × (1 − mu_j)) puts on each
// cell, from its CDF (a midpoint density would misjudge the steep ends).
const typePrior: Float64Array[] = Array.from({ length: MU_POINTS }, (_, j) => {
  const mu = (j + 0.5) / MU_POINTS;
  const dist = { alpha: TYPE_SPREAD * mu, beta: TYPE_SPREAD * (1 - mu) };
  const row = new Float64Array(P);
  let below = 0;
  for (let k = 0; k < P; k++) {
    const upTo = k === P - 1 ? 1 : betaCdf(dist, (k + 1) / P);
    row[k] = upTo - below;
    below = upTo;
  }
  return row;
});
/** The prior of the subject's underlying reliability mu: the mass SUBJECT_PRIOR puts on each cell of the mu grid. */
const muPrior = Float64Array.from({ length: MU_POINTS }, (_, j) =>
  j === MU_POINTS - 1 ? 1 - betaCdf(SUBJECT_PRIOR, j / MU_POINTS) : betaCdf(SUBJECT_PRIOR, (j + 1) / MU_POINTS) - betaCdf(SUBJECT_PRIOR, j / MU_POINTS),
);
/** The prior of a single type's reliability: the rows weighted by muPrior. */
const marginalPrior = Float64Array.from({ length: P }, (_, k) => typePrior.reduce((s, row, j) => s + muPrior[j]! * row[k]!, 0));

const logMeanCache = new Map<string, { lm: Float64Array; l1m: Float64Array }>();
/** log(a + b·p) and log(1 − that) over the grid, for a machine verdict's line. */
function logMachineMean(node: ConfusionNode) {
  const key = `${node.intercept}|${node.slope}`;
  let hit = logMeanCache.get(key);
  if (!hit) {
    const m = grid.map((p) => node.intercept + node.slope * p);
    hit = { lm: m.map(Math.log), l1m: m.map((x) => Math.log1p(-x)) };
    if (logMeanCache.size > 256) logMeanCache.clear();
    logMeanCache.set(key, hit);
  }
  return hit;
}

/** The likelihood of a type's credits over the grid, scaled so that its largest value is 1. */
function likelihood(t: TypeEvidence, node: ConfusionNode): { values: Float64Array } {
  const { a: ar, b: br } = t.reviewed;
  const { a: am, b: bm } = t.machine;
  const values = new Float64Array(P);
  const machine = am > 0 || bm > 0 ? logMachineMean(node) : null;
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < P; k++) {
    let v = ar * logP[k]! + br * logQ[k]!;
    if (machine) v += am * machine.lm[k]! + bm * machine.l1m[k]!;
    values[k] = v;
    if (v > max) max = v;
  }
  for (let k = 0; k < P; k++) values[k] = Math.exp(values[k]! - max);
  return { values };
}

type NodeResult = { typeMean: number[]; typeM2: number[]; overallMean: number; overallM2: number; typeMass: Float64Array[] };

/** The p below which a share `q` of the mass lies, reading each cell's mass as spread evenly over it. */
function gridQuantile(mass: Float64Array, q: number): number {
  let total = 0;
  for (const m of mass) total += m;
  const target = q * total;
  let below = 0;
  for (let k = 0; k < P; k++) {
    const m = mass[k]!;
    if (below + m >= target && m > 0) return (k + (target - below) / m) / P;
    below += m;
  }
  return 1;
}

function singleType(t: TypeEvidence, node: ConfusionNode): NodeResult {
  const { values: L } = likelihood(t, node);
  let z = 0;
  let s1 = 0;
  let s2 = 0;
  const mass = new Float64Array(P);
  for (let k = 0; k < P; k++) {
    const w = marginalPrior[k]! * L[k]!;
    mass[k] = w;
    z += w;
    s1 += w * grid[k]!;
    s2 += w * grid[k]! * grid[k]!;
  }
  for (let k = 0; k < P; k++) mass[k]! /= z;
  const mean = s1 / z;
  const m2 = s2 / z;
  return { typeMean: [mean], typeM2: [m2], overallMean: mean, overallM2: m2, typeMass: [mass] };
}

function severalTypes(types: readonly TypeEvidence[], node: number, weights: readonly number[]): NodeResult {
  const T = types.length;
  const lik = types.map((t) => likelihood(t, t.errorNodes[node]!));
  // Per mu: each type's evidence Z_t(mu) and its conditional first two moments.
  const logPost = new Float64Array(MU_POINTS);
  const condZ = types.map(() => new Float64Array(MU_POINTS));
  const condMean = types.map(() => new Float64Array(MU_POINTS));
  const condM2 = types.map(() => new Float64Array(MU_POINTS));
  for (let j = 0; j < MU_POINTS; j++) {
    const row = typePrior[j]!;
    let lp = 0;
    for (let t = 0; t < T; t++) {
      const L = lik[t]!.values;
      let z = 0;
      let s1 = 0;
      let s2 = 0;
      for (let k = 0; k < P; k++) {
        const w = row[k]! * L[k]!;
        z += w;
        s1 += w * grid[k]!;
        s2 += w * grid[k]! * grid[k]!;
      }
      lp += Math.log(z);
      condZ[t]![j] = z;
      condMean[t]![j] = s1 / z;
      condM2[t]![j] = s2 / z;
    }
    logPost[j] = lp + Math.log(muPrior[j]!);
  }
  let max = Number.NEGATIVE_INFINITY;
  for (const v of logPost) if (v > max) max = v;
  let total = 0;
  const post = logPost.map((v) => {
    const w = Math.exp(v - max);
    total += w;
    return w;
  });
  const typeMean = new Array<number>(T).fill(0);
  const typeM2 = new Array<number>(T).fill(0);
  const typeMass = types.map(() => new Float64Array(P));
  let overallMean = 0;
  let overallM2 = 0;
  for (let j = 0; j < MU_POINTS; j++) {
    const pi = post[j]! / total;
    const row = typePrior[j]!;
    for (let t = 0; t < T; t++) {
      const L = lik[t]!.values;
      const scale = pi / condZ[t]![j]!;
      const mass = typeMass[t]!;
      for (let k = 0; k < P; k++) mass[k]! += scale * row[k]! * L[k]!;
    }
    let mean = 0;
    let variance = 0;
    for (let t = 0; t < T; t++) {
      const m = condMean[t]![j]!;
      const m2 = condM2[t]![j]!;
      typeMean[t]! += pi * m;
      typeM2[t]! += pi * m2;
      // Given mu, the types' reliabilities are independent.
      mean += weights[t]! * m;
      variance += weights[t]! * weights[t]! * Math.max(0, m2 - m * m);
    }
    overallMean += pi * mean;
    overallM2 += pi * (variance + mean * mean);
  }
  return { typeMean, typeM2, overallMean, overallM2, typeMass };
}

/**
 * Posterior mean, variance and (where the grid gives them) 10th and 90th
 * percentiles of each type's reliability and of `overall`, for the types given
 * (each with at least one resolved claim), averaged over the judges' nodes.
 */
export function posterior(types: readonly TypeEvidence[]): Posterior {
  if (types.length === 0) throw new RangeError('posterior needs at least one type with resolved claims');
  const nodes = types[0]!.errorNodes.length;
  for (const t of types) {
    if (t.errorNodes.length !== nodes || nodes === 0) throw new RangeError('every type needs the same number of judge error nodes, at least one');
    if (t.errorNodes.some((x) => !(x.intercept >= 0 && x.slope > 0 && x.intercept + x.slope <= 1 && x.weight > 0))) {
      throw new RangeError('a machine verdict\'s mean credit a + b·p must lie in [0, 1] with b > 0, and node weights above 0');
    }
    for (const x of [t.reviewed.a, t.reviewed.b, t.machine.a, t.machine.b]) {
      if (!(Number.isFinite(x) && x >= 0)) throw new RangeError(`evidence sums must be finite and >= 0, got ${x}`);
    }
    if (!(Number.isInteger(t.n) && t.n > 0)) throw new RangeError(`a type needs a whole number of resolved claims above 0, got ${t.n}`);
  }
  const n = types.reduce((s, t) => s + t.n, 0);
  const weights = types.map((t) => t.n / n);
  // With no machine verdict the nodes all give the same posterior: one will do.
  const machine = types.some((t) => t.machine.a > 0 || t.machine.b > 0);
  const used = machine ? nodes : 1;
  const results = Array.from({ length: used }, (_, j) =>
    types.length === 1 ? singleType(types[0]!, types[0]!.errorNodes[j]!) : severalTypes(types, j, weights),
  );
  // Each node keeps its own weight: a subject's credits say next to nothing about
  // how its judges erred, and reweighing the nodes by them would let the prior's
  // shape near 0 and 1 pick the line.
  const weightOf = machine ? types[0]!.errorNodes.map((x) => x.weight) : [1];
  const weightTotal = weightOf.reduce((a, b) => a + b, 0);
  const mix = (pick: (r: NodeResult) => number) => results.reduce((s, r, j) => s + (weightOf[j]! / weightTotal) * pick(r), 0);
  const moments = (mean: number, m2: number): Moments => ({ mean, variance: Math.max(0, m2 - mean * mean) });
  const typeSummaries = types.map((_, t): Summary => {
    const mass = new Float64Array(P);
    results.forEach((r, j) => {
      for (let k = 0; k < P; k++) mass[k]! += weightOf[j]! * r.typeMass[t]![k]!;
    });
    return {
      ...moments(mix((r) => r.typeMean[t]!), mix((r) => r.typeM2[t]!)),
      interval: [gridQuantile(mass, 0.1), gridQuantile(mass, 0.9)],
    };
  });
  return {
    types: typeSummaries,
    // One type: overall is that type's reliability. Several: a weighted sum of
    // them, whose distribution is not on the grid; only its moments are.
    overall: types.length === 1 ? typeSummaries[0]! : { ...moments(mix((r) => r.overallMean), mix((r) => r.overallM2)), interval: null },
  };
}
