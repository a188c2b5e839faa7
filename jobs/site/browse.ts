import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  browseKey, browsePageOf, letterIndex, recutLetter, type BrowseEntry, type BrowsePage, type Common, type LetterIndex,
} from '../../core/site/page-data.ts';
import { letterIndexFile } from '../../core/site/snapshot.ts';
import { DATA_DIR } from './journal.ts';

/**
 * A browse letter in an incremental build: the pages that some subjects'
 * new entries change (subjects new to the letter, or with a new headline),
 * made from the page data the live version keeps (`data/browse/<key>.json`
 * per page, `data/browse/<letter>/pages.json` the letter's index, both
 * written by the full build's snapshot and replaced page by page here), as
 * core/site/browse-pages.ts recutLetter says: the pages the subjects land on
 * and, when the cutting moves, the next ones; every page of the letter only
 * when their number changes (each says "page k of N"). Never the whole
 * letter otherwise.
 */

export type LetterPlan = {
  pages: BrowsePage[];
  /** Page data to keep for the next build, by path under the build folder. */
  data: [string, unknown][];
  /** Site paths of pages the letter did not have. */
  added_paths: string[];
  /** Subjects the letter now lists. */
  count: number;
};

export const browseDataFile = (key: string) => `${DATA_DIR}/browse/${key}.json`;
const indexDataFile = (letter: string) => `${DATA_DIR}/browse/${letterIndexFile(letter)}`;

async function readJson<T>(dir: string, rel: string): Promise<T | null> {
  return readFile(path.join(dir, rel), 'utf8').then((t) => JSON.parse(t) as T, () => null);
}

/** The letter's changed pages; 'full' when the live version's data cannot say (or pages would go: only a full build removes pages). */
export async function planLetter(liveDir: string, letter: string, upserts: BrowseEntry[], c: Common): Promise<LetterPlan | 'full'> {
  const kept = await readJson<LetterIndex>(liveDir, indexDataFile(letter));
  // A first page without an index is data of another layout: only a full build can tell.
  if (!kept && (await readJson<BrowsePage>(liveDir, browseDataFile(browseKey(letter))))) return 'full';
  const index = kept ?? { letter, pages: [] };
  const old = new Map<number, BrowseEntry[]>();
  const readOld = async (i: number): Promise<BrowseEntry[]> => {
    let entries = old.get(i);
    if (!entries) {
      const page = await readJson<BrowsePage>(liveDir, browseDataFile(browseKey(letter, i + 1)));
      if (!page) throw new Error(`the live site's data has no browse page ${browseKey(letter, i + 1)}, though its index lists it`);
      old.set(i, (entries = page.subjects));
    }
    return entries;
  };
  const cut = await recutLetter(index, readOld, upserts);
  const before = index.pages.length;
  const gone = cut.end - cut.start;
  const after = before - gone + cut.pages.length;
  if (after < before) return 'full';
  const entriesOf = (i: number) => (i < cut.start ? readOld(i) : i < cut.start + cut.pages.length ? cut.pages[i - cut.start]! : readOld(i - cut.pages.length + gone));

  // The same number of pages: only those recut, and of them only those whose subjects changed; else every page ("page k of N").
  const rewrite: number[] = [];
  if (after === before) {
    for (let i = cut.start; i < cut.start + cut.pages.length; i++) if (JSON.stringify(cut.pages[i - cut.start]) !== JSON.stringify(await readOld(i))) rewrite.push(i);
  } else for (let i = 0; i < after; i++) rewrite.push(i);

  const plan: LetterPlan = { pages: [], data: [], added_paths: [], count: 0 };
  for (const i of rewrite) {
    const page = browsePageOf(letter, i + 1, after, await entriesOf(i), c);
    plan.pages.push(page);
    plan.data.push([browseDataFile(browseKey(letter, i + 1)), page]);
    if (i >= before) plan.added_paths.push(page.path);
  }
  const pages = [...index.pages.slice(0, cut.start), ...letterIndex(letter, cut.pages).pages, ...index.pages.slice(cut.end)];
  if (rewrite.length > 0) plan.data.push([indexDataFile(letter), { letter, pages } satisfies LetterIndex]);
  plan.count = pages.reduce((n, p) => n + p.count, 0);
  return plan;
}
