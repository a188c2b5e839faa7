import quantile from '@stdlib/stats-base-dists-beta-quantile';

// Beta distribution helpers for the method. The stdlib quantile answers NaN for bad
// input; here bad input throws instead, because a NaN that reached a published
// report would be a silent lie, while a throw fails the job where it can be seen.

/** A Beta(alpha, beta) distribution; both shapes must be finite and positive. */
export type BetaDist = { readonly alpha: number; readonly beta: number };

function assertShape(dist: BetaDist): void {
  const ok = (x: number) => Number.isFinite(x) && x > 0;
  if (!ok(dist.alpha) || !ok(dist.beta)) {
    throw new RangeError(`Beta shapes must be finite and positive, got (${dist.alpha}, ${dist.beta})`);
  }
}

export function betaMean(dist: BetaDist): number {
  assertShape(dist);
  return dist.alpha / (dist.alpha + dist.beta);
}

export function betaVariance(dist: BetaDist): number {
  assertShape(dist);
  const s = dist.alpha + dist.beta;
  return (dist.alpha * dist.beta) / (s * s * (s + 1));
}

/**
 * The Beta distribution with a given mean and variance (matching the first two
 * moments). A distribution on [0, 1] with mean m has a variance below m(1 − m);
 * anything else has no Beta and throws.
 */
export function betaFromMoments(mean: number, variance: number): BetaDist {
  if (!(mean > 0 && mean < 1)) throw new RangeError(`mean must lie strictly between 0 and 1, got ${mean}`);
  if (!(variance > 0 && variance < mean * (1 - mean))) {
    throw new RangeError(`variance must lie strictly between 0 and mean × (1 − mean) = ${mean * (1 - mean)}, got ${variance}`);
  }
  const size = (mean * (1 - mean)) / variance - 1;
  return { alpha: mean * size, beta: (1 - mean) * size };
}

/** The value below which a share p of the distribution lies. */
export function betaQuantile(dist: BetaDist, p: number): number {
  assertShape(dist);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must lie in [0, 1], got ${p}`);
  const q = quantile(p, dist.alpha, dist.beta);
  if (Number.isNaN(q)) throw new RangeError(`Beta quantile is NaN for p=${p}, (${dist.alpha}, ${dist.beta})`);
  return q;
}

/**
 * Interval between the `lower` and `upper` quantiles; by default the central 80%.
 * The two probabilities are passed as they are, not derived from a mass, because
 * 0.5 - 0.8 / 2 is 0.09999999999999998 in floating point, not 0.1.
 */
export function betaInterval(dist: BetaDist, lower = 0.1, upper = 0.9): [number, number] {
  if (!(lower < upper)) throw new RangeError(`lower must be below upper, got ${lower} and ${upper}`);
  return [betaQuantile(dist, lower), betaQuantile(dist, upper)];
}

// ln Γ(x) for x > 0: Lanczos (g = 7, n = 9), accurate to about 1e-15 relative.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

// The continued fraction of the incomplete beta function (modified Lentz), which
// converges fast for x < (a + 1) / (a + b + 2); the other side uses the symmetry.
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) return h;
  }
  throw new RangeError(`incomplete beta did not converge for x=${x}, (${a}, ${b})`);
}

/** The share of Beta(alpha, beta) below x: the regularised incomplete beta function I_x(alpha, beta). */
export function betaCdf(dist: BetaDist, x: number): number {
  assertShape(dist);
  if (Number.isNaN(x)) throw new RangeError('x must be a number');
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const { alpha: a, beta: b } = dist;
  const logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b;
}
