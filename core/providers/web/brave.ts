import { z } from 'zod';
import type { ProviderConfig } from '../../config.ts';
import { getJson, type HttpTuning } from '../http.ts';
import type { SearchHit, SearchProvider } from '../types.ts';
import { hostOf, isoDay, keepHits } from './hits.ts';

/**
 * Brave Search API, web search: GET {base}/res/v1/web/search?q=&count=, the
 * subscription token in the X-Subscription-Token header (never in the URL).
 * Only the fields read are checked; Brave adds fields freely, and a response
 * without web results (a query Brave answers with news or nothing) is simply
 * no hits.
 */

export const BRAVE_DEFAULT_BASE = 'https://api.search.brave.com';
/** Brave refuses a count above 20. */
export const BRAVE_MAX_COUNT = 20;

const text = z.string().nullish().catch(null);

const BraveResult = z.looseObject({
  url: z.string(),
  title: text,
  description: text,
  /** ISO timestamp of the page, when Brave dated it. */
  page_age: text,
  /** Human age: "March 4, 2024" or "3 days ago". */
  age: text,
  profile: z.looseObject({ name: text }).nullish().catch(null),
  meta_url: z.looseObject({ hostname: text }).nullish().catch(null),
});

const BraveAnswer = z.looseObject({
  web: z.looseObject({ results: z.array(z.unknown()).default([]) }).nullish(),
});

/** Brave's error body: {"type":"ErrorResponse","error":{"code","detail","status"}}. */
export function braveErrorDetail(body: unknown): string | undefined {
  const e = (body as { error?: { code?: unknown; detail?: unknown } } | undefined)?.error;
  if (!e) return undefined;
  return [e.code, e.detail].filter((x) => typeof x === 'string').join(': ') || undefined;
}

export function braveSearch(cfg: ProviderConfig['search'], tuning?: HttpTuning): SearchProvider {
  const key = cfg.apiKey;
  if (!key) throw new Error('braveSearch needs SEARCH_API_KEY (a Brave Search API subscription token)');
  const base = (cfg.baseUrl ?? BRAVE_DEFAULT_BASE).replace(/\/+$/, '');
  return {
    name: 'brave',
    async search(query, opts) {
      if (query.trim() === '' || opts.limit <= 0) return [];
      const exclude = opts.excludeUrls ?? [];
      // Ask for a few more than wanted so that excluded pages do not leave the answer short.
      const count = Math.min(BRAVE_MAX_COUNT, opts.limit + exclude.length);
      const url = new URL(`${base}/res/v1/web/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(count));
      const answer = await getJson({
        provider: 'brave', url, schema: BraveAnswer, secrets: [key], errorDetail: braveErrorDetail, tuning,
        headers: { 'x-subscription-token': key, accept: 'application/json' },
      });
      const results = (answer.web?.results ?? []).flatMap((r) => {
        const parsed = BraveResult.safeParse(r);
        return parsed.success && /^https?:\/\//i.test(parsed.data.url) ? [parsed.data] : [];
      });
      const kept = keepHits(results, opts.limit, exclude);
      return kept.map((r, i): SearchHit => ({
        url: r.url,
        title: r.title?.trim() || r.url,
        publisher: r.profile?.name?.trim() || (r.meta_url?.hostname ?? '').toLowerCase().replace(/^www\./, '') || hostOf(r.url),
        published: isoDay(r.page_age) ?? isoDay(r.age),
        // Brave gives an order, not a score: the reciprocal of the position keeps it.
        rank: 1 / (i + 1),
      }));
    },
  };
}
