// How much evidence one resolved claim carries: the weight it enters the
// posterior with (posterior.ts), from the spread of the subject's credits and
// the sources its claims share, and the weight it enters the score's posterior
// with, from the sources alone. content/methodology.md, "The score of a set of
// claims", states the same; change them together.

/**
 * Claims taken from one source (document or story) are assumed to be this
 * correlated (rho) until the subject's own claims say otherwise; `weight` is how
 * many sources' worth of evidence that assumption carries against the measured
 * one (see sourceEffect).
 */
export const SOURCE_CORRELATION = Object.freeze({ rho: 0.3, weight: 10 });

/**
 * How much evidence one resolved claim carries, as the subject's credits show it
 * (a dispersion-scaled effective number of claims):
 *
 * - `dispersion`: the variance of the credits as a share of the largest a credit
 *   with their mean m can have, m(1 − m); true/false verdicts only give 1.
 *   Graded outcomes vary less than true/false ones, so each says more about the
 *   mean. The prior's claim, half true and half false, is counted among the
 *   credits, so that a few alike credits cannot claim too much: this is the
 *   spread of the Dirichlet posterior over the five outcomes from that prior,
 *   and for true/false verdicts it is exactly 1. Never above 1.
 * - `designEffect`: how much claims from one source move together, as a factor
 *   on the variance of their mean: 1 + (k − 1) × rho, k the claim-weighted mean
 *   number of claims per source (sum of k² over n). The assumed rho,
 *   SOURCE_CORRELATION.rho × the mean slope² of the claims' verdicts (a machine
 *   verdict's own error does not follow its source; `slope` is 1 for a reviewed
 *   verdict), is pooled with the subject's own measurement (the sources' summed
 *   residuals squared over the claims' residuals squared, corrected for the
 *   number of sources G) as SOURCE_CORRELATION.weight sources against G − 1;
 *   never below 1. A claim with no source stands alone.
 *
 * Each claim then weighs 1 / (dispersion × designEffect) in the posterior the
 * range is read from (`weight`).
 *
 * The score is read from a posterior whose claims weigh `scoreWeight`,
 * 1 / the assumed design effect alone (never below 1): what the claims' sources
 * and verdicts (reviewed or not, of which type) say before any credit is seen.
 * The dispersion and the measured design effect are read from the spread of
 * the credits, and a better credit can narrow or widen that spread: were they
 * in the score, a claim whose verdict got better could lower it (four true
 * claims and a mostly_true one from one source scored 89.4; with the fifth
 * true too, 87.1, the dispersion back at 1 pulling it towards 50). With
 * weights that no credit moves, raising a credit multiplies the posterior by
 * a function increasing in the reliability, so the score never falls.
 */
export function sourceEffect(resolved: readonly { credit: number; cluster: string; slope: number }[]): {
  dispersion: number;
  designEffect: number;
  weight: number;
  scoreWeight: number;
} {
  const n = resolved.length;
  if (n === 0) return { dispersion: 1, designEffect: 1, weight: 1, scoreWeight: 1 };
  const sum = resolved.reduce((s, c) => s + c.credit, 0);
  const mean = sum / n;
  // The prior's claim, half true and half false, is counted among the credits.
  const withPrior = (sum + 0.5) / (n + 1);
  let squares = 0.5 * (1 - withPrior) ** 2 + 0.5 * withPrior ** 2;
  for (const c of resolved) squares += (c.credit - withPrior) ** 2;
  const dispersion = Math.min(1, squares / ((n + 1) * withPrior * (1 - withPrior)));

  const bySource = new Map<string, { k: number; residual: number }>();
  let claimSquares = 0;
  for (const c of resolved) {
    const r = c.credit - mean;
    claimSquares += r * r;
    const g = bySource.get(c.cluster) ?? { k: 0, residual: 0 };
    g.k += 1;
    g.residual += r;
    bySource.set(c.cluster, g);
  }
  const sources = [...bySource.values()];
  const G = sources.length;
  const kWeighted = sources.reduce((s, g) => s + g.k * g.k, 0) / n;
  // A machine verdict's error is its own, not its source's: it dilutes the
  // correlation of the credits by slope², the slope of the judges' confusion
  // line (1 for a reviewed verdict).
  const dilution = resolved.reduce((s, c) => s + c.slope ** 2, 0) / n;
  const assumed = 1 + (kWeighted - 1) * SOURCE_CORRELATION.rho * dilution;
  let designEffect = assumed;
  if (G >= 2 && claimSquares > 0) {
    const sourceSquares = sources.reduce((s, g) => s + g.residual * g.residual, 0);
    const measured = (G / (G - 1)) * ((n - 1) / n) * (sourceSquares / claimSquares);
    designEffect = (SOURCE_CORRELATION.weight * assumed + (G - 1) * measured) / (SOURCE_CORRELATION.weight + G - 1);
  }
  designEffect = Math.max(1, designEffect);
  return { dispersion, designEffect, weight: 1 / (dispersion * designEffect), scoreWeight: 1 / Math.max(1, assumed) };
}
