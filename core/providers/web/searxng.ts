import { z } from 'zod';
import type { ProviderConfig } from '../../config.ts';
import { getJson, type HttpTuning } from '../http.ts';
import type { SearchHit, SearchProvider } from '../types.ts';
import { hostOf, isoDay, keepHits } from './hits.ts';

/**
 * A SearXNG instance's search API: GET {base}/search?q=&format=json (the
 * instance must list json under search.formats in its settings.yml, or it
 * answers 403). One page of results (about 10 to 20; SearXNG takes no count);
 * results come merged from its engines and ordered by SearXNG's score.
 * SearXNG takes no key: SEARCH_API_KEY, if set, is not sent.
 */

const text = z.string().nullish().catch(null);

const SearxResult = z.looseObject({
  url: z.string(),
  title: text,
  content: text,
  /** ISO timestamp, or null when no engine dated the page. */
  publishedDate: text,
  engine: text,
  /** Only some engines (news, science) name a publisher. */
  publisher: text,
  score: z.number().nullish().catch(null),
});

const SearxAnswer = z.looseObject({ results: z.array(z.unknown()) });

export function searxngSearch(cfg: ProviderConfig['search'], tuning?: HttpTuning): SearchProvider {
  if (!cfg.baseUrl) throw new Error('searxngSearch needs SEARCH_BASE_URL (the SearXNG instance)');
  const base = cfg.baseUrl.replace(/\/+$/, '');
  return {
    name: 'searxng',
    async search(query, opts) {
      if (query.trim() === '' || opts.limit <= 0) return [];
      const url = new URL(`${base}/search`);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      const answer = await getJson({ provider: 'searxng', url, schema: SearxAnswer, tuning });
      const results = answer.results.flatMap((r) => {
        const parsed = SearxResult.safeParse(r);
        return parsed.success && /^https?:\/\//i.test(parsed.data.url) ? [parsed.data] : [];
      });
      return keepHits(results, opts.limit, opts.excludeUrls).map((r, i): SearchHit => ({
        url: r.url,
        title: r.title?.trim() || r.url,
        publisher: r.publisher?.trim() || hostOf(r.url),
        published: isoDay(r.publishedDate),
        // SearXNG's own score when it gives one (results arrive sorted by it); else the position.
        rank: typeof r.score === 'number' && Number.isFinite(r.score) ? r.score : 1 / (i + 1),
      }));
    },
  };
}
