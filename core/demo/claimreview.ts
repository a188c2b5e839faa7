import { createHash } from 'node:crypto';
import type { SubjectKind } from '../providers/types.ts';
import { claimReviewOutcome } from './ratings.ts';
import { isHttpUrl, isoDay, type DemoRow, type ParseOptions, type ParseProblem, type ParseResult } from './rows.ts';

/**
 * schema.org ClaimReview (https://schema.org/ClaimReview), as fact-checkers
 * publish it in their pages' JSON-LD: one object, an array of them, an object
 * with an `@graph` array, or JSON Lines (one object or array per line).
 *
 * - the claim: `claimReviewed`;
 * - the subject: `itemReviewed.author.name` (the first author if several); an
 *   author typed Organization (or a subtype: NewsMediaOrganization,
 *   GovernmentOrganization, …) is an organisation, anyone else a person;
 * - when: `itemReviewed.datePublished`, else the first appearance's date (the
 *   day it was said); failing both, the review's `datePublished`, the latest
 *   day it can have been said;
 * - where: `itemReviewed.appearance` / `firstAppearance` URL (the judge may be
 *   told where a claim was made; never the review's own `url`);
 * - the rating: `reviewRating.alternateName` when it is one of the textual
 *   ratings of ratings.ts, else `ratingValue` placed between `worstRating`
 *   (schema.org default 1) and `bestRating` (default 5).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : v);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

function typesOf(o: Obj): string[] {
  const t = o['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
}

function kindOf(author: Obj): SubjectKind {
  return typesOf(author).some((t) => /Organi[sz]ation$|^Corporation$|^NGO$|^GovernmentOrganization$/.test(t)) ? 'organisation' : 'person';
}

function appearanceOf(item: Obj): Obj | null {
  for (const key of ['appearance', 'firstAppearance']) {
    const a = first(item[key]);
    if (isObj(a)) return a;
    if (isHttpUrl(a)) return { url: a };
  }
  return null;
}

/** Items of the file: objects, with the line each came from (JSON Lines) or null. */
function itemsOf(text: string, problems: ParseProblem[]): Array<{ line: number | null; value: unknown }> {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '') return [];
  const spread = (v: unknown, line: number | null) => {
    const list = Array.isArray(v) ? v : isObj(v) && Array.isArray(v['@graph']) ? v['@graph'] : [v];
    return list.map((value) => ({ line, value }));
  };
  try {
    return spread(JSON.parse(body), null);
  } catch {
    // Not one JSON document: JSON Lines.
  }
  const out: Array<{ line: number | null; value: unknown }> = [];
  body.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    try {
      out.push(...spread(JSON.parse(raw), i + 1));
    } catch (err) {
      problems.push({ line: i + 1, message: `not valid JSON (${(err as Error).message.slice(0, 120)})` });
    }
  });
  return out;
}

export function parseClaimReview(text: string, opts: ParseOptions = {}): ParseResult {
  const dataset = opts.dataset ?? 'claimreview';
  const result: ParseResult = { rows: [], problems: [], read: 0, title: 'published ClaimReview fact checks' };
  const items = itemsOf(text, result.problems);
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    if (opts.limit !== undefined && result.rows.length >= opts.limit) break;
    const { line: jsonLine, value } = items[i]!;
    result.read++;
    const line = jsonLine ?? i + 1; // without JSON Lines, the item's position in the file
    const skip = (message: string) => result.problems.push({ line, message });
    if (!isObj(value)) {
      skip('not an object');
      continue;
    }
    const types = typesOf(value);
    if (types.length > 0 && !types.includes('ClaimReview')) {
      skip(`@type ${types.join(', ')}, not ClaimReview`);
      continue;
    }
    const quote = str(value.claimReviewed);
    const item = isObj(first(value.itemReviewed)) ? (first(value.itemReviewed) as Obj) : {};
    const authorRaw = first(item.author);
    const author: Obj | null = isObj(authorRaw) ? authorRaw : typeof authorRaw === 'string' ? { name: authorRaw } : null;
    const name = author ? str(author.name) : null;
    const rating = isObj(first(value.reviewRating)) ? (first(value.reviewRating) as Obj) : null;
    const publisherRating = rating ? str(rating.alternateName) ?? (rating.ratingValue !== undefined && rating.ratingValue !== null ? String(rating.ratingValue).trim() : null) : null;
    if (!quote) {
      skip('no claimReviewed');
      continue;
    }
    if (!name) {
      skip('no itemReviewed.author.name: the subject is unknown');
      continue;
    }
    if (!rating || !publisherRating) {
      skip('no reviewRating with an alternateName or a ratingValue');
      continue;
    }
    const appearance = appearanceOf(item);
    const stated = isoDay(item.datePublished) ?? isoDay(appearance?.datePublished);
    const reviewed = isoDay(value.datePublished);
    const date = stated ?? reviewed ?? opts.saidOn ?? null;
    if (!date) {
      skip('no date: neither the claim nor the review is dated (give --said-on)');
      continue;
    }
    const reviewUrl = isHttpUrl(value.url) ? value.url.trim() : null;
    const reviewerRaw = first(value.author);
    const reviewer = isObj(reviewerRaw) ? str(reviewerRaw.name) : str(reviewerRaw);
    const sourceId = reviewUrl ?? createHash('sha256').update(JSON.stringify([name, quote, reviewed, reviewer])).digest('hex').slice(0, 32);
    // Where the claim was made; a review that names itself as the appearance is not that.
    const appearanceUrl = isHttpUrl(appearance?.url) && appearance.url.trim() !== reviewUrl ? appearance.url.trim() : null;
    if (seen.has(sourceId)) {
      skip('the same review is given twice; the first is kept');
      continue;
    }
    seen.add(sourceId);
    result.rows.push({
      dataset,
      source_id: sourceId,
      subject: { name: name.slice(0, 300), kind: opts.kind ?? kindOf(author!) },
      quote: quote.slice(0, 5000),
      date,
      date_basis: stated ? 'stated' : 'latest_possible',
      source_url: appearanceUrl,
      reference_url: reviewUrl,
      publisher_rating: publisherRating.slice(0, 200),
      published_outcome: claimReviewOutcome(rating),
      forecast_probability: null,
    });
  }
  return result;
}
