import { z } from 'zod';
import type { ProviderConfig } from '../../config.ts';
import { getJson, type HttpTuning } from '../http.ts';
import type { FactCheckProvider, PublishedFactCheck } from '../types.ts';
import { hostOf, isoDay } from './hits.ts';

/**
 * Google Fact Check Tools, claim search:
 * GET {base}/v1alpha1/claims:search?query=&key=&pageSize=&languageCode=en.
 * Google takes the API key in the query string, so the URL is never put in a
 * message (getJson names the path only, and masks the key in what Google says).
 * Each claim may carry several reviews; each review is one PublishedFactCheck,
 * in Google's order, at most `limit` of them. A review without a URL or a
 * rating is not evidence and is left out.
 */

const text = z.string().nullish().catch(null);

const Review = z.looseObject({
  publisher: z.looseObject({ name: text, site: text }).nullish().catch(null),
  url: text,
  title: text,
  reviewDate: text,
  textualRating: text,
  languageCode: text,
});

const Claim = z.looseObject({
  text: text,
  claimant: text,
  claimDate: text,
  claimReview: z.array(z.unknown()).nullish().catch(null),
});

// An answer with no match is `{}`: no claims field at all.
const ClaimSearchAnswer = z.looseObject({ claims: z.array(z.unknown()).default([]), nextPageToken: text });

/** Google's error body: {"error":{"code","message","status"}}. */
export function googleErrorDetail(body: unknown): string | undefined {
  const e = (body as { error?: { message?: unknown; status?: unknown } } | undefined)?.error;
  if (!e) return undefined;
  return [e.status, e.message].filter((x) => typeof x === 'string').join(': ') || undefined;
}

/** Google's largest page is not documented; 100 is what its explorer uses and more is never needed here. */
const MAX_PAGE_SIZE = 100;

export function googleFactChecks(cfg: ProviderConfig['factCheck'], tuning?: HttpTuning): FactCheckProvider {
  const key = cfg.apiKey;
  if (!key) throw new Error('googleFactChecks needs FACTCHECK_API_KEY (a Google API key with the Fact Check Tools API enabled)');
  const base = cfg.baseUrl.replace(/\/+$/, '');
  return {
    name: 'google-factcheck',
    async search(query, opts) {
      if (query.trim() === '' || opts.limit <= 0) return [];
      const url = new URL(`${base}/v1alpha1/claims:search`);
      url.searchParams.set('query', query);
      url.searchParams.set('key', key);
      url.searchParams.set('pageSize', String(Math.min(MAX_PAGE_SIZE, opts.limit)));
      url.searchParams.set('languageCode', 'en');
      const answer = await getJson({ provider: 'google-factcheck', url, schema: ClaimSearchAnswer, secrets: [key], errorDetail: googleErrorDetail, tuning });
      const out: PublishedFactCheck[] = [];
      for (const raw of answer.claims) {
        const claim = Claim.safeParse(raw);
        if (!claim.success || !claim.data.text?.trim()) continue;
        for (const rawReview of claim.data.claimReview ?? []) {
          const r = Review.safeParse(rawReview);
          if (!r.success || !r.data.url || !/^https?:\/\//i.test(r.data.url) || !r.data.textualRating?.trim()) continue;
          out.push({
            claim_text: claim.data.text.trim(),
            claimant: claim.data.claimant?.trim() || null,
            claim_date: isoDay(claim.data.claimDate),
            url: r.data.url,
            title: r.data.title?.trim() || null,
            publisher: r.data.publisher?.name?.trim() || r.data.publisher?.site?.trim() || hostOf(r.data.url),
            reviewed_on: isoDay(r.data.reviewDate),
            rating: r.data.textualRating.trim(),
          });
          if (out.length >= opts.limit) return out;
        }
      }
      return out;
    },
  };
}
