import quantile from '@stdlib/stats-base-dists-beta-quantile';

// Beta distribution helpers for the method. The stdlib quantile answers NaN for bad
// input; here bad input throws instead, because a NaN that reached a published
// report would be a silent lie, while a throw fails the job where it can be seen.

/** A Beta(alpha, beta) distribution; both shapes must be finite and positive. */
export type BetaDist = { readonly alpha: number; readonly beta: number };

/** One piece of evidence: a credit in [0, 1] counted with a weight >= 0. */
export type WeightedCredit = { readonly credit: number; readonly weight: number };

function assertShape(dist: BetaDist): void {
  const ok = (x: number) => Number.isFinite(x) && x > 0;
  if (!ok(dist.alpha) || !ok(dist.beta)) {
    throw new RangeError(`Beta shapes must be finite and positive, got (${dist.alpha}, ${dist.beta})`);
  }
}

/**
 * Posterior after weighted, fractional successes: each credit c with weight w adds
 * w·c to alpha and w·(1 − c) to beta. A fractional credit is the usual
 * generalisation of a Bernoulli update to graded outcomes.
 */
export function updateBeta(prior: BetaDist, evidence: Iterable<WeightedCredit>): BetaDist {
  assertShape(prior);
  let alpha = prior.alpha;
  let beta = prior.beta;
  for (const { credit, weight } of evidence) {
    if (!(credit >= 0 && credit <= 1)) throw new RangeError(`credit must lie in [0, 1], got ${credit}`);
    if (!(weight >= 0 && Number.isFinite(weight))) throw new RangeError(`weight must be finite and >= 0, got ${weight}`);
    alpha += weight * credit;
    beta += weight * (1 - credit);
  }
  return { alpha, beta };
}

export function betaMean(dist: BetaDist): number {
  assertShape(dist);
  return dist.alpha / (dist.alpha + dist.beta);
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
