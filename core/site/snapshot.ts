import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/pool.ts';
import type { ExportManifest } from './exports.ts';
import {
  browseEntries, browseKey, browsePageOf, common, cutPages, exportsPage, indexPage, letterIndex, loadSummaries, methodologyPages, reportPages, subjectPage,
  type KeyedView, type PageData,
} from './page-data.ts';

/**
 * The data a full Astro build reads (site/src/lib/snapshot.ts): one JSON file
 * per page under `pages/`, and under `lists/` the keys of each keyed view. Report pages are made a batch at a time, so a
 * snapshot of any size is written in steady memory. The caller passes one
 * REPEATABLE READ transaction, so that every page sees the same moment.
 *
 * Browse pages are `pages/browse/<key>.json` (key `a`, `a/2`, …: browseKey),
 * with each letter's index (`pages/browse/<letter>/pages.json`): the build
 * keeps the folder as the page data its incremental builds start from.
 */

export type SnapshotResult = {
  pages: number;
  report_ids: string[];
  measurement_at: string | null;
};

const BATCH = 100;

/** Where a browse letter's index (core/site/browse-pages.ts LetterIndex) is kept, under the browse pages' data. */
export const letterIndexFile = (letter: string) => path.join(letter, 'pages.json');

export async function writeSnapshot(db: Queryable, dir: string, o: { siteUrl: string | null; exports: ExportManifest[] }): Promise<SnapshotResult> {
  const c = common();
  const lists: Record<KeyedView, { key: string }[]> = { report: [], subject: [], browse: [] };
  let pages = 0;
  const write = async (rel: string, data: PageData) => {
    await writeFile(path.join(dir, 'pages', rel), JSON.stringify(data));
    pages++;
  };
  for (const d of ['report', 'subject', 'browse']) await mkdir(path.join(dir, 'pages', d), { recursive: true });
  await mkdir(path.join(dir, 'lists'), { recursive: true });

  const sum = await loadSummaries(db);
  for (let i = 0; i < sum.reports.length; i += BATCH) {
    const ids = sum.reports.slice(i, i + BATCH).map((r) => r.report_id);
    for (const p of await reportPages(db, ids, c, o.siteUrl)) {
      await write(path.join('report', `${p.report_id}.json`), p);
      lists.report.push({ key: p.report_id });
    }
  }
  for (const id of sum.subjects.keys()) {
    const p = subjectPage(sum, id, c)!;
    await write(path.join('subject', `${id}.json`), p);
    lists.subject.push({ key: id });
  }
  for (const [letter, entries] of browseEntries(sum)) {
    await mkdir(path.join(dir, 'pages', 'browse', letter), { recursive: true });
    const cut = cutPages(entries);
    for (const [i, subjects] of cut.entries()) {
      const key = browseKey(letter, i + 1);
      await write(path.join('browse', `${key}.json`), browsePageOf(letter, i + 1, cut.length, subjects, c));
      lists.browse.push({ key });
    }
    await writeFile(path.join(dir, 'pages', 'browse', letterIndexFile(letter)), JSON.stringify(letterIndex(letter, cut)));
  }
  await write('index.json', indexPage(sum, c, o.exports[0] ?? null));
  const method = await methodologyPages(db, c);
  for (const p of method) await write(`${p.view}.json`, p);
  await write('exports.json', exportsPage(o.exports, c));
  for (const [view, list] of Object.entries(lists)) await writeFile(path.join(dir, 'lists', `${view}.json`), JSON.stringify(list));
  return {
    pages,
    report_ids: lists.report.map((r) => r.key),
    measurement_at: method[1].measurement?.measured_at ?? null,
  };
}
