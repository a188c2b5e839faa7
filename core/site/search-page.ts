import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL } from '../method/outcomes.ts';
import { searchSubjects, type SubjectSearchHit } from '../subjects.ts';
import { pagePath, type Common, type Headline, type PageData } from './page-data.ts';

/**
 * The site's search page (GET /search?q=…&page=…): what a reader finds by
 * name with the form in every page's header, rendered on demand by the
 * published site's own renderer (core/site/renderer.ts) with the same
 * layout as every static page. The rules, in one place:
 *
 * - `q`: trimmed, each run of white space made one space; 1 to 100
 *   characters (code points). Missing, empty, longer, or given twice: 422,
 *   the same page with the form and what to correct.
 * - `page`: a whole number from 1 to 10,000 (default 1), SEARCH_PAGE_SIZE
 *   subjects a page; anything else is a 422. A page past the last says so.
 * - Matching and order: core/subjects.ts searchSubjects.
 */

export const SEARCH_PATH = '/search';
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_MAX_CHARS = 100;
export const SEARCH_MAX_PAGE = 10_000;
/** The browse-by-letter index: where the search page sends a reader it cannot help. */
export const BROWSE_INDEX_PATH = '/#browse';

export type SearchHitView = {
  subject: { subject_id: string; name: string; kind: string; path: string };
  matched_alias: string | null;
  latest: { report_id: string; path: string; generated_on: string; headline: Headline; review_status: string } | null;
};

export type SearchPage = {
  view: 'search'; path: string; common: Common;
  /** The query as the form shows it again (at most 200 characters of what was sent, when it was refused). */
  query: string;
  /** Why the query was refused (status 422), or null. */
  problem: string | null;
  hits: SearchHitView[]; total: number; page: number; pages: number; page_size: number;
  first: string | null; prev: string | null; next: string | null; browse_path: string;
};

/** Every page the site's renderer draws: the published pages' data, and the search page's. */
export type RenderedPage = PageData | SearchPage;

export type SearchInput = { ok: true; term: string; page: number } | { ok: false; shown: string; problem: string };

const one = (v: unknown): string | undefined | null => (v === undefined ? undefined : typeof v === 'string' ? v : null);

/** The query string's `q` and `page`, by the rules above. */
export function parseSearchInput(query: Record<string, unknown>): SearchInput {
  const rawQ = one(query.q);
  const rawPage = one(query.page);
  const shown = typeof rawQ === 'string' ? [...rawQ.replace(/\s+/g, ' ').trim()].slice(0, 200).join('') : '';
  if (rawQ === null) return { ok: false, shown, problem: 'Give one search term (the query had `q` more than once).' };
  const term = (rawQ ?? '').replace(/\s+/g, ' ').trim();
  const chars = [...term].length;
  if (chars === 0) return { ok: false, shown, problem: 'Type a name, or part of one, to search for.' };
  if (chars > SEARCH_MAX_CHARS) return { ok: false, shown, problem: `The search term is ${chars} characters long; use at most ${SEARCH_MAX_CHARS}.` };
  if (rawPage === null || (rawPage !== undefined && !/^[1-9][0-9]{0,4}$/.test(rawPage)) || Number(rawPage ?? 1) > SEARCH_MAX_PAGE) {
    return { ok: false, shown, problem: `The page must be a whole number from 1 to ${SEARCH_MAX_PAGE}.` };
  }
  return { ok: true, term, page: Number(rawPage ?? 1) };
}

export function searchHref(term: string, page = 1): string {
  const qs = new URLSearchParams({ q: term });
  if (page > 1) qs.set('page', String(page));
  return `${SEARCH_PATH}?${qs.toString()}`;
}

function hitView(h: SubjectSearchHit): SearchHitView {
  const headline = h.score as Headline | null;
  return {
    subject: { subject_id: h.subject_id, name: h.name, kind: h.kind, path: pagePath({ view: 'subject', key: h.subject_id }) },
    matched_alias: h.matched_alias,
    latest: h.report_id && h.generated_at && headline
      ? { report_id: h.report_id, path: pagePath({ view: 'report', key: h.report_id }), generated_on: h.generated_at.toISOString().slice(0, 10), headline, review_status: h.review_status ?? REVIEW_LABEL }
      : null,
  };
}

/** The page for a refused query (sent with status 422). */
export function refusedSearchPage(input: Extract<SearchInput, { ok: false }>, c: Common): SearchPage {
  return { view: 'search', path: SEARCH_PATH, common: c, query: input.shown, problem: input.problem, hits: [], total: 0, page: 1, pages: 0, page_size: SEARCH_PAGE_SIZE, first: null, prev: null, next: null, browse_path: BROWSE_INDEX_PATH };
}

/** One page of results for a valid query. */
export async function searchPage(db: Queryable, input: Extract<SearchInput, { ok: true }>, c: Common): Promise<SearchPage> {
  const { hits, total } = await searchSubjects(db, input.term, { page: input.page, pageSize: SEARCH_PAGE_SIZE });
  const pages = Math.ceil(total / SEARCH_PAGE_SIZE);
  const { term, page } = input;
  return {
    view: 'search', path: searchHref(term, page), common: c, query: term, problem: null,
    hits: hits.map(hitView), total, page, pages, page_size: SEARCH_PAGE_SIZE,
    // A page past the last links back to the first.
    first: page > 1 && page > pages ? searchHref(term) : null,
    prev: page > 1 && page <= pages ? searchHref(term, page - 1) : null,
    next: page < pages ? searchHref(term, page + 1) : null,
    browse_path: BROWSE_INDEX_PATH,
  };
}
