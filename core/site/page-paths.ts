import { REVIEW_LABEL } from '../method/outcomes.ts';
import { methodVersion } from '../method/version.ts';
import type { Common, PageData } from './page-data.ts';

/**
 * Where each page of the static site lives: its path on the site and the
 * file it is written to. Keys become folder names, so only keys the service
 * makes are accepted (ids such as rep_…, sub_…; browse keys, see browseKey).
 */

export const KEYED_VIEWS = ['report', 'subject', 'browse'] as const;
export const SINGLE_VIEWS = ['index', 'methodology', 'measurement', 'rating-scale', 'exports'] as const;
export type KeyedView = (typeof KEYED_VIEWS)[number];
export type SingleView = (typeof SINGLE_VIEWS)[number];
export type PageRef = { view: KeyedView; key: string } | { view: SingleView; key?: undefined };

const SINGLE_PATHS: Record<SingleView, string> = {
  index: '/', methodology: '/methodology/', measurement: '/methodology/measurement/', 'rating-scale': '/methodology/rating-scale/', exports: '/exports/',
};
const KEYED_DIRS: Record<KeyedView, string> = { report: 'reports', subject: 'subjects', browse: 'browse' };
const SAFE_KEY = /^[a-z0-9_]{1,64}$/;
/** A browse page: its letter (a to z, or `other`), then, past page 1, `/<n>` (n ≥ 2: page 1 is the letter's own path). */
const BROWSE_KEY = /^(?:[a-z]|other)(?:\/[2-9]|\/[1-9][0-9]{1,5})?$/;

/** The key of page `n` of a browse letter: `a` for its first page, `a/2` for the next. */
export function browseKey(letter: string, n = 1): string {
  return n === 1 ? letter : `${letter}/${n}`;
}

export function pagePath(ref: PageRef): string {
  if (ref.key === undefined) return SINGLE_PATHS[ref.view as SingleView];
  if (!(ref.view === 'browse' ? BROWSE_KEY : SAFE_KEY).test(ref.key)) throw new Error(`unsafe page key ${JSON.stringify(ref.key)}`);
  return `/${KEYED_DIRS[ref.view as KeyedView]}/${ref.key}/`;
}

/** The file a page is written to, relative to the site's root. */
export function pageFile(ref: PageRef): string {
  return `${pagePath(ref).slice(1)}index.html`;
}

export function common(): Common {
  return { method_version: methodVersion(), review_label: REVIEW_LABEL };
}

/** Where a page's data says it goes. */
export function pageRefOf(p: PageData): PageRef {
  switch (p.view) {
    case 'report':
      return { view: 'report', key: p.report_id };
    case 'subject':
      return { view: 'subject', key: p.subject.subject_id };
    case 'browse':
      return { view: 'browse', key: browseKey(p.letter, p.page) };
    default:
      return { view: p.view };
  }
}
