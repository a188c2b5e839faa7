import { createHash } from 'node:crypto';
import { latestOfEach } from '../reports/repository.ts';
import type { BrowseEntry, BrowsePage, Common } from './page-data.ts';
import { browseKey, pagePath } from './page-paths.ts';
import type { Summaries } from './summaries.ts';

/**
 * The browse pages: every subject with a headline (a report on its whole
 * record), under the first letter of its name (letterOf: accents and case
 * set aside), in order of name then subject id, a letter cut into pages:
 * `/browse/<letter>/` is its first page, `/browse/<letter>/<n>/` the next.
 *
 * How a letter is cut (why not every 100 subjects): were page n the subjects
 * 100(n-1)+1 to 100n, one new subject would shift every later page of its
 * letter by one, and publishing it would rewrite half its letter on average
 * (about 20 pages of 100 at 100,000 subjects): not flat in the site's size.
 * Instead the cuts are set by the subjects themselves (content-defined, as
 * rsync and backup tools cut files into chunks): a page ends after a subject
 * whose id is a "mark" (one subject in MARK_ONE_IN, by a hash of its id) once
 * the page holds at least MIN_SUBJECTS, and in any case at MAX_SUBJECTS. The
 * cuts are a function of the subjects alone (a full build and any history
 * of incremental ones cut alike), about 100 subjects a page (50 to 200), and
 * a cut depends only on the subjects since the cut before it: a new subject
 * changes its own page, and the next page only if its page overflows or a
 * mark moves past MIN_SUBJECTS, so that the cutting is resumed from the page
 * it lands on and stops at the first cut where it meets the old one
 * (recutLetter).
 *
 * The cost, per new report: the browse page of its subject (none when its
 * entry did not change, e.g. a report on one topic), and the next page in
 * about one case in five (simulated: 1.2 pages recut on average). When the
 * letter's number of pages changes, every page of the letter is rewritten,
 * since each shows "page k of N" and links to the last: that happens once
 * per page the letter gains, about one new subject in 100 (as it must, for
 * pages of about 100): at 100,000 subjects (about 40 pages a letter), some
 * 0.4 pages per new subject on average, 40 at once in one build of 100.
 */

export const MIN_SUBJECTS = 50;
export const MAX_SUBJECTS = 200;
export const MARK_ONE_IN = 50;

/** The browse letter of a name: its first letter without accents, a to z, or `other`. */
export function letterOf(name: string): string {
  const first = name.normalize('NFKD').replace(/\p{M}/gu, '').match(/\p{L}/u)?.[0]?.toLowerCase();
  return first && first >= 'a' && first <= 'z' ? first : 'other';
}
export const letterLabel = (l: string) => (l === 'other' ? 'Other' : l.toUpperCase());

/** Where a subject sorts within its letter: by name, then by id (names are not unique across kinds). */
export type SortKey = { name: string; subject_id: string };
const collator = new Intl.Collator('en');
export const compareKeys = (a: SortKey, b: SortKey) => collator.compare(a.name, b.name) || collator.compare(a.subject_id, b.subject_id);
const keyOf = (e: BrowseEntry): SortKey => ({ name: e.subject.name, subject_id: e.subject.subject_id });
const byKey = (a: BrowseEntry, b: BrowseEntry) => compareKeys(keyOf(a), keyOf(b));

/** One subject in MARK_ONE_IN, fixed by its id: a page may end after it. */
export function isMark(subjectId: string): boolean {
  return createHash('sha256').update(subjectId).digest().readUInt32BE(0) % MARK_ONE_IN === 0;
}

/** Whether a page ends after `e`, `n` the page's length with it. */
const endsPage = (e: BrowseEntry, n: number) => n >= MAX_SUBJECTS || (n >= MIN_SUBJECTS && isMark(e.subject.subject_id));

/** A letter's subjects, in order, cut into pages. */
export function cutPages(sorted: readonly BrowseEntry[]): BrowseEntry[][] {
  const pages: BrowseEntry[][] = [];
  let page: BrowseEntry[] = [];
  for (const e of sorted) {
    page.push(e);
    if (endsPage(e, page.length)) {
      pages.push(page);
      page = [];
    }
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/** Every browsed subject (those with a headline), by letter, each letter in order. */
export function browseEntries(sum: Summaries): Map<string, BrowseEntry[]> {
  const latest = latestOfEach(sum.reports, null);
  const letters = new Map<string, BrowseEntry[]>();
  for (const { aliases: _a, ...subject } of sum.subjects.values()) {
    const headline = latest.get(subject.subject_id);
    if (!headline) continue;
    const l = letterOf(subject.name);
    const entries = letters.get(l) ?? [];
    entries.push({ subject, latest: headline });
    letters.set(l, entries);
  }
  for (const entries of letters.values()) entries.sort(byKey);
  return letters;
}

/** Browse letters and how many subjects each lists. */
export function browseLetters(sum: Summaries): Map<string, number> {
  return new Map([...browseEntries(sum)].map(([l, e]) => [l, e.length]));
}

/** Page links for page `n` of `pages`: all of them up to 9, else the first, the last and two either side of n, null for a gap. */
export function pageNav(n: number, pages: number): (number | null)[] {
  if (pages <= 9) return Array.from({ length: pages }, (_, i) => i + 1);
  const shown = [...new Set([1, ...[n - 2, n - 1, n, n + 1, n + 2].filter((k) => k > 1 && k < pages), pages])];
  return shown.flatMap((k, i) => (i > 0 && k - shown[i - 1]! > 1 ? [null, k] : [k]));
}

const browsePath = (letter: string, n: number) => pagePath({ view: 'browse', key: browseKey(letter, n) });

/** Page `n` (from 1) of a letter of `pages` pages, of these subjects. */
export function browsePageOf(letter: string, n: number, pages: number, subjects: BrowseEntry[], c: Common): BrowsePage {
  return {
    view: 'browse', path: browsePath(letter, n), common: c, letter, label: letterLabel(letter), page: n, pages,
    prev: n > 1 ? browsePath(letter, n - 1) : null, next: n < pages ? browsePath(letter, n + 1) : null,
    nav: pageNav(n, pages).map((k) => (k === null ? null : { page: k, path: browsePath(letter, k) })),
    first_name: subjects[0]!.subject.name, last_name: subjects.at(-1)!.subject.name, subjects,
  };
}

/** Every page of a letter, from its subjects in order. */
export function letterPages(letter: string, sorted: readonly BrowseEntry[], c: Common): BrowsePage[] {
  const cut = cutPages(sorted);
  return cut.map((subjects, i) => browsePageOf(letter, i + 1, cut.length, subjects, c));
}

/** The first page of a letter (null when it lists no subject). */
export function browsePage(sum: Summaries, letter: string, c: Common): BrowsePage | null {
  return letterPages(letter, browseEntries(sum).get(letter) ?? [], c)[0] ?? null;
}

/** How many browse pages a site of these summaries has. */
export function browsePageCount(sum: Summaries): number {
  let n = 0;
  for (const entries of browseEntries(sum).values()) n += cutPages(entries).length;
  return n;
}

/** What an incremental build keeps of a letter, beside its pages' data: each page's first subject and length, to find a subject's page. */
export type LetterIndex = { letter: string; pages: { first: SortKey; count: number }[] };

export function letterIndex(letter: string, pages: readonly (readonly BrowseEntry[])[]): LetterIndex {
  return { letter, pages: pages.map((p) => ({ first: keyOf(p[0]!), count: p.length })) };
}

/** The page (from 0) a subject sorts into: the last whose first subject is not after it. */
export function pageFor(index: LetterIndex, key: SortKey): number {
  let lo = 0;
  let hi = index.pages.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (compareKeys(index.pages[mid]!.first, key) <= 0) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/** Old pages [start, end) (from 0) of the letter give way to `pages`; the others are as they were, shifted when the count changed. */
export type Recut = { start: number; end: number; pages: BrowseEntry[][] };

/**
 * The letter cut again after `upserts` (subjects new to it, or with a new
 * headline), reading only the pages it must: from the first page a subject
 * lands on, cutting as cutPages does, until, past the last page one lands
 * on, a cut falls where an old page ended; from there on the old pages stand.
 * Names never change (a subject is its name and kind), so a subject already
 * listed is on the page it sorts into.
 */
export async function recutLetter(index: LetterIndex, readPage: (i: number) => Promise<BrowseEntry[]>, upserts: readonly BrowseEntry[]): Promise<Recut> {
  if (index.pages.length === 0) return { start: 0, end: 0, pages: cutPages([...upserts].sort(byKey)) };
  const into = new Map<number, BrowseEntry[]>();
  for (const e of upserts) {
    const i = pageFor(index, keyOf(e));
    into.set(i, [...(into.get(i) ?? []), e]);
  }
  const targets = [...into.keys()].sort((a, b) => a - b);
  const start = targets[0]!;
  const last = targets.at(-1)!;
  const ids = new Set(upserts.map((e) => e.subject.subject_id));
  const pages: BrowseEntry[][] = [];
  let page: BrowseEntry[] = [];
  let q = start;
  while (q < index.pages.length) {
    const add = into.get(q) ?? [];
    const entries = add.length === 0 ? await readPage(q) : [...(await readPage(q)).filter((e) => !ids.has(e.subject.subject_id)), ...add].sort(byKey);
    for (const e of entries) {
      page.push(e);
      if (endsPage(e, page.length)) {
        pages.push(page);
        page = [];
      }
    }
    q++;
    if (q > last && page.length === 0) break;
  }
  if (page.length > 0) pages.push(page);
  return { start, end: q, pages };
}
