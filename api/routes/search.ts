import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { LimitError, UnavailableError } from '../../core/errors.ts';
import { ProblemSchema } from '../../core/schemas/common.ts';
import { readCurrent } from '../../core/site/layout.ts';
import { common } from '../../core/site/page-data.ts';
import { SEARCH_MAX_CHARS, SEARCH_PAGE_SIZE, SEARCH_PATH, parseSearchInput, refusedSearchPage, searchPage } from '../../core/site/search-page.ts';
import type { AppContext } from '../context.ts';
import { addressBucket } from '../plugins/auth.ts';
import { cleanText, defineRoute } from '../route.ts';
import { SITE_CSP, liveRenderer, siteNotBuilt } from './site.ts';

/**
 * GET /search?q=…&page=…: the site's search page, public like the static
 * pages (no key), outside /v1 and out of the OpenAPI document (a page for
 * readers, not a call for integrators). It answers HTML only, rendered by
 * the live site's own renderer with the layout of every page:
 * 200 the results (none is a 200 too, saying so); 422 a refused query (the
 * same page, saying what to correct); 429 too many searches from one address
 * in a minute; 503 while the site is not built (as every page).
 *
 * Unlike the static pages, each search asks the database, so searches are
 * counted per client address (an IPv6 address by its /64, as the failed-key
 * throttle counts them), RATE_LIMIT_PER_MINUTE a minute, in the process.
 */
export function searchRoutes(ctx: AppContext) {
  const perAddress = new RateLimiterMemory({ keyPrefix: 'site-search', points: ctx.config.rateLimitPerMinute, duration: 60 });
  return [
    defineRoute({
      method: 'GET',
      url: SEARCH_PATH,
      operationId: 'searchSite',
      summary: 'The site\'s search page (HTML)',
      description: `Subjects found by name or alias, ${SEARCH_PAGE_SIZE} a page; q is 1 to ${SEARCH_MAX_CHARS} characters.`,
      tags: ['site'],
      auth: false,
      hidden: true,
      responses: {
        200: { description: 'The results page.', contentType: 'text/html' },
        422: { description: 'The query was refused (empty, too long, given twice, or a bad page): the search page saying what to correct.', contentType: 'text/html' },
        429: { description: 'Too many searches from this address this minute.', schema: ProblemSchema },
        503: { description: 'The site has not been built yet.', schema: ProblemSchema },
      },
      handler: async (req, reply) => {
        try {
          await perAddress.consume(addressBucket(req.ip), 1);
        } catch (rejection) {
          if (!(rejection instanceof RateLimiterRes)) throw rejection;
          const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
          throw new LimitError('rate-limited', `Over ${ctx.config.rateLimitPerMinute} searches came from your address this minute; wait ${wait} s and search again.`, wait);
        }
        const current = await readCurrent(ctx.config.siteDir);
        if (!current) throw siteNotBuilt(ctx.config);
        // The query as PostgreSQL can hold it (no NUL, no lone surrogate), as every route's input.
        const input = parseSearchInput(cleanText(req.query ?? {}) as Record<string, unknown>);
        const page = input.ok ? await searchPage(ctx.pool, input, common()) : refusedSearchPage(input, common());
        const html = await (await liveRenderer(ctx.config, current)).render(page);
        // A live version built before the search page existed renders nothing for it; the next (full) build brings it.
        if (!html.includes('data-search-page')) throw new UnavailableError('unavailable', 'The site is being rebuilt with its search page; retry shortly.', 5);
        reply.code(input.ok ? 200 : 422).header('content-security-policy', SITE_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8');
        return html;
      },
    }),
  ];
}
