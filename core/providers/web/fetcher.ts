import type { ProviderConfig } from '../../config.ts';
import type { FetchedDocument, FetchProvider } from '../types.ts';
import { parseAllowList, urlRefusal } from './address-guard.ts';
import { FetchRefusedError, safeFetch, userAgentFor, type FetchRefusalReason, type LookupAll } from './safe-fetch.ts';

/**
 * The hosted fetch provider: the safe fetcher, then the page reader. A page
 * that may not or cannot be fetched is "no document" (null), never an error,
 * because one bad search result must not fail a whole report; the reason goes
 * to `onNoDocument` for the log.
 */

/** Why a URL gave no document: a refusal by the fetcher, or a page that could not be read. */
export type NoDocument = { reason: FetchRefusalReason | 'unreadable' | 'empty'; message: string };

export type WebFetchOptions = {
  /** DNS, replaceable in tests. */
  lookup?: LookupAll;
  /** The public site, named in the User-Agent as where the method is published. */
  siteUrl?: string;
  /** Told of each URL that gave no document (for logging); messages carry no query string and no body. */
  onNoDocument?: (why: NoDocument) => void;
};

export function webFetchProvider(cfg: ProviderConfig['fetch'], opts: WebFetchOptions = {}): FetchProvider {
  // Parsed once here so that a bad FETCH_ALLOW_CIDRS fails at start, not per page.
  parseAllowList(cfg.allowCidrs);
  const userAgent = userAgentFor(opts.siteUrl);
  return {
    name: 'web',
    async fetch(url: string): Promise<FetchedDocument | null> {
      let page;
      try {
        page = await safeFetch(url, {
          timeoutMs: cfg.timeoutMs,
          maxBytes: cfg.maxBytes,
          maxRedirects: cfg.maxRedirects,
          allowCidrs: cfg.allowCidrs,
          userAgent,
          ...(opts.lookup ? { lookup: opts.lookup } : {}),
        });
      } catch (err) {
        // safeFetch turns every failure into a FetchRefusedError; anything else is ours and should show.
        if (!(err instanceof FetchRefusedError)) throw err;
        opts.onNoDocument?.({ reason: err.reason, message: err.message });
        return null;
      }
      const where = new URL(page.url);
      let read;
      try {
        // jsdom and Readability are loaded with the first page read, not when the service starts.
        const { plainTextPage, readablePage } = await import('./page.ts');
        read = page.contentType === 'text/plain' ? plainTextPage(page.body, page.url) : readablePage(page.body, page.url);
      } catch (err) {
        // Markup too big or too deep to parse safely (page.ts) is no document, not a failed report.
        const detail = (err as Error)?.name === 'UnreadablePageError' ? (err as Error).message : 'page could not be parsed';
        opts.onNoDocument?.({ reason: 'unreadable', message: `unreadable: ${detail} (${where.origin}${where.pathname})` });
        return null;
      }
      if (read.text.trim() === '') {
        opts.onNoDocument?.({ reason: 'empty', message: `empty: page has no text (${where.origin}${where.pathname})` });
        return null;
      }
      return { url: page.url, title: read.title, publisher: read.publisher, published: read.published, speakers: [], text: read.text };
    },
  };
}

/** Why a user-sent URL is refused, for a 422 before any job is queued. */
export type UserUrlRefusal = { reason: 'blocked-url' | 'blocked-address'; message: string };

/**
 * The form check alone, without DNS or fetching: scheme, credentials, names
 * internal by definition, IP literals in refused ranges, ports. A URL that
 * passes may still be refused when fetched (its name may resolve inside); that
 * is then "no document", not an error for the user.
 */
export function checkUserUrl(url: string, cfg: Pick<ProviderConfig['fetch'], 'allowCidrs'>): UserUrlRefusal | null {
  const refused = urlRefusal(url, parseAllowList(cfg.allowCidrs));
  if (!refused) return null;
  return { reason: refused.reason, message: `This URL cannot be fetched: ${refused.detail}. Give a public http(s) address of the page.` };
}
