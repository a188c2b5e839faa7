import { RESOLVED_OUTCOMES, type Outcome, type ResolvedOutcome } from '../method/outcomes.ts';

// How each publisher's ratings land on the service's outcome scale. The same
// tables are stated in content/methodology.md ("Measurement"); a test holds the
// two together. A rating with no place on the scale maps to null ("unrated"):
// such a claim is listed, but left out of agreement and coverage.

/** LIAR (PolitiFact's six ratings). "pants-fire" is PolitiFact's "Pants on Fire!", a false claim. */
export const LIAR_RATINGS: Readonly<Record<string, ResolvedOutcome>> = Object.freeze({
  'true': 'true',
  'mostly-true': 'mostly_true',
  'half-true': 'mixed',
  'barely-true': 'mostly_false',
  'false': 'false',
  'pants-fire': 'false',
});

/**
 * Promise-tracker statuses. A promise in progress or not started is not yet
 * settled: `pending`, which like `unresolvable` resolves nothing.
 */
export const PROMISE_STATUSES: Readonly<Record<string, Outcome>> = Object.freeze({
  'achieved': 'true',
  'compromised': 'mixed',
  'broken': 'false',
  'in progress': 'pending',
  'not started': 'pending',
});

/**
 * Textual ClaimReview ratings (reviewRating.alternateName), lower-cased with
 * hyphens, underscores and punctuation read as spaces. Ratings that say how a
 * claim misleads rather than how far it held ("Misleading", "Unproven",
 * "Satire", "Missing context") have no place here: the numeric rating decides
 * for them when there is one.
 */
export const CLAIMREVIEW_TEXT: Readonly<Record<string, ResolvedOutcome>> = Object.freeze({
  'true': 'true',
  'correct': 'true',
  'accurate': 'true',
  'mostly true': 'mostly_true',
  'mostly correct': 'mostly_true',
  'mostly accurate': 'mostly_true',
  'largely true': 'mostly_true',
  'largely accurate': 'mostly_true',
  'half true': 'mixed',
  'mixed': 'mixed',
  'mixture': 'mixed',
  'partly true': 'mixed',
  'partly false': 'mixed',
  'partially true': 'mixed',
  'partially false': 'mixed',
  'mostly false': 'mostly_false',
  'largely false': 'mostly_false',
  'barely true': 'mostly_false',
  'false': 'false',
  'incorrect': 'false',
  'inaccurate': 'false',
  'wrong': 'false',
  'fake': 'false',
  'pants on fire': 'false',
  'pants fire': 'false',
});

export const normaliseRating = (s: string): string =>
  s.normalize('NFKC').toLowerCase().replace(/[-_]+/g, ' ').replace(/[^\p{L}\p{N} ]+/gu, '').replace(/\s+/g, ' ').trim();

export function liarOutcome(label: string): ResolvedOutcome | null {
  return LIAR_RATINGS[label.trim().toLowerCase()] ?? null;
}

export function promiseOutcome(status: string): Outcome | null {
  return PROMISE_STATUSES[status.trim().toLowerCase().replace(/\s+/g, ' ')] ?? null;
}

/**
 * A numeric rating on a publisher's own scale: its position between
 * worstRating (0) and bestRating (1), rounded to the nearest of the five
 * credits 0, 0.25, 0.5, 0.75, 1 (false … true). A position exactly half-way
 * between two credits goes to the one nearer to `mixed`, the cautious reading
 * (as the judges' combination rule does). Null when the numbers do not make a
 * scale (missing, not finite, best = worst, or the value outside the scale).
 */
export function numericOutcome(value: unknown, best: unknown, worst: unknown): ResolvedOutcome | null {
  const [v, b, w] = [value, best, worst].map((x) => (typeof x === 'number' ? x : typeof x === 'string' && x.trim() !== '' ? Number(x) : NaN));
  if (![v, b, w].every((x) => Number.isFinite(x)) || b === w) return null;
  const position = (v! - w!) / (b! - w!);
  if (position < 0 || position > 1) return null;
  const steps = position * 4; // 0 = false … 4 = true
  const lower = Math.floor(steps);
  const frac = steps - lower;
  let step: number;
  if (Math.abs(frac - 0.5) < 1e-9) step = Math.abs(lower - 2) < Math.abs(lower + 1 - 2) ? lower : lower + 1;
  else step = Math.round(steps);
  return RESOLVED_OUTCOMES[4 - step] ?? null;
}

/** A ClaimReview rating: the textual rating when it is one of ours, else the numeric one, else null. */
export function claimReviewOutcome(rating: { alternateName?: unknown; ratingValue?: unknown; bestRating?: unknown; worstRating?: unknown }): ResolvedOutcome | null {
  if (typeof rating.alternateName === 'string') {
    const text = CLAIMREVIEW_TEXT[normaliseRating(rating.alternateName)];
    if (text) return text;
  }
  return numericOutcome(rating.ratingValue, rating.bestRating ?? 5, rating.worstRating ?? 1);
}

/** A forecast's published result: the candidate won (true) or lost (false). */
export function forecastOutcome(won: string): ResolvedOutcome | null {
  const v = won.trim();
  return v === '1' ? 'true' : v === '0' ? 'false' : null;
}
