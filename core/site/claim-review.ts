import { OUTCOMES, REVIEW_LABEL, RESOLVED_OUTCOMES, type Outcome } from '../method/outcomes.ts';
import { httpUrl } from './links.ts';

/**
 * schema.org ClaimReview for each claim's verdict on the report pages, and the
 * rating scale it uses (published on /methodology/rating-scale/). The scale
 * maps the method's five resolved outcomes onto ratings 5 (true) to 1 (false);
 * `unresolvable` and `pending` settle nothing, so their ClaimReview carries a
 * rating with no number, only its name. Every rating's name carries the review
 * label, since a consumer that shows the verdict must show the label with it;
 * a verdict a person has reviewed carries `reviewed` in its place.
 */

export const OUTCOME_LABELS: Readonly<Record<Outcome, string>> = Object.freeze({
  true: 'True',
  mostly_true: 'Mostly true',
  mixed: 'Mixed',
  mostly_false: 'Mostly false',
  false: 'False',
  unresolvable: 'Unresolvable',
  pending: 'Pending (not yet due)',
});

export const BEST_RATING = 5;
export const WORST_RATING = 1;

/** Rating value of each resolved outcome; unresolvable and pending have none. */
export const RATING_VALUES: Readonly<Record<(typeof RESOLVED_OUTCOMES)[number], number>> = Object.freeze({
  true: 5,
  mostly_true: 4,
  mixed: 3,
  mostly_false: 2,
  false: 1,
});

export type RatingScaleRow = { outcome: Outcome; label: string; rating_value: number | null; alternate_name: string; meaning: string };

const MEANINGS: Readonly<Record<Outcome, string>> = Object.freeze({
  true: 'The claim held by its fixed test (credit 1).',
  mostly_true: 'The claim held with a small difference (credit 0.75).',
  mixed: 'Part of the claim held and part did not (credit 0.5).',
  mostly_false: 'The claim mostly failed its fixed test (credit 0.25).',
  false: 'The claim failed its fixed test (credit 0).',
  unresolvable: 'The evidence does not settle the claim; it is not scored. No rating value is given.',
  pending: 'The claim is not yet due; it is not scored. No rating value is given.',
});

export function ratingName(outcome: Outcome, reviewStatus: string = REVIEW_LABEL): string {
  return `${OUTCOME_LABELS[outcome]} (${reviewStatus})`;
}

/** The whole scale, in the method's order, as the rating-scale page lists it. */
export function ratingScale(): RatingScaleRow[] {
  return OUTCOMES.map((o) => ({
    outcome: o,
    label: OUTCOME_LABELS[o],
    rating_value: (RATING_VALUES as Record<string, number | undefined>)[o] ?? null,
    alternate_name: ratingName(o),
    meaning: MEANINGS[o],
  }));
}

export type ClaimReviewInput = {
  claim_id: string;
  quote: string;
  outcome: Outcome;
  rationale: string;
  said_on: string | null;
  source: { url: string; title: string | null; outlet: string | null };
  /** The label, or `reviewed`: the verdict's own status (the label when absent). */
  review_status?: string;
};

export type ClaimReviewContext = {
  /** The report page's path, `/reports/<id>/`. */
  pagePath: string;
  /** Public origin (SITE_URL) or null: links are then relative to the page, as JSON-LD allows. */
  siteUrl: string | null;
  /** The date the verdict was published: the report's generation date, YYYY-MM-DD. */
  published: string;
  subject: { name: string; kind: string };
};

const SUBJECT_TYPES: Record<string, string> = { person: 'Person', organisation: 'Organization', outlet: 'NewsMediaOrganization' };

export function claimReview(c: ClaimReviewInput, ctx: ClaimReviewContext): Record<string, unknown> {
  const base = ctx.siteUrl ?? '';
  const source = httpUrl(c.source.url);
  const rating = (RATING_VALUES as Record<string, number | undefined>)[c.outcome];
  return {
    '@context': 'https://schema.org',
    '@type': 'ClaimReview',
    url: `${base}${ctx.pagePath}#${c.claim_id}`,
    claimReviewed: c.quote,
    datePublished: ctx.published,
    author: { '@type': 'Organization', name: 'Reliability Scoring Service', url: `${base}/` },
    itemReviewed: {
      '@type': 'Claim',
      author: { '@type': SUBJECT_TYPES[ctx.subject.kind] ?? 'Thing', name: ctx.subject.name },
      ...(c.said_on ? { datePublished: c.said_on } : {}),
      ...(source
        ? { appearance: { '@type': 'CreativeWork', url: source, ...(c.source.title ? { headline: c.source.title } : {}), ...(c.source.outlet ? { publisher: { '@type': 'Organization', name: c.source.outlet } } : {}) } }
        : {}),
    },
    reviewRating: {
      '@type': 'Rating',
      ...(rating === undefined ? {} : { ratingValue: rating, bestRating: BEST_RATING, worstRating: WORST_RATING }),
      alternateName: ratingName(c.outcome, c.review_status),
      ratingExplanation: c.rationale,
    },
  };
}

/**
 * JSON for a `<script type="application/ld+json">` block: valid JSON whose
 * text can never close the element or open a comment. `<`, `>` and `&` only
 * occur inside JSON strings, where `\u003c` and friends mean the same
 * characters; U+2028 and U+2029 are escaped for old JavaScript parsers.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
