import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/pool.ts';
import type { ExportManifest } from './exports.ts';
import {
  browseLetters, browsePage, common, exportsPage, indexPage, loadSummaries, methodologyPages, reportPages, subjectPage,
  type KeyedView, type PageData,
} from './page-data.ts';

/**
 * The data a full Astro build reads (site/src/lib/snapshot.ts): one JSON file
 * per page under `pages/`, and under `lists/` the keys of each keyed view. Report pages are made a batch at a time, so a
 * snapshot of any size is written in steady memory. The caller passes one
 * REPEATABLE READ transaction, so that every page sees the same moment.
 */

export type SnapshotResult = {
  pages: number;
  report_ids: string[];
  measurement_at: string | null;
};

const BATCH = 100;

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
  for (const letter of browseLetters(sum).keys()) {
    const p = browsePage(sum, letter, c);
    if (!p) continue;
    await write(path.join('browse', `${letter}.json`), p);
    lists.browse.push({ key: letter });
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
