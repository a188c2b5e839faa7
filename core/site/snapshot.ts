import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '../db/pool.ts';
import type { ExportManifest } from './exports.ts';
import {
  browseEntries, browseKey, browsePageOf, common, cutPages, exportsPage, indexPage, letterIndex, loadSummaries, methodologyPages, reportPages, subjectPage,
  type PageData, type PageRef, type Summaries,
} from './page-data.ts';

/**
 * The data of every page of a full build, one JSON file per page under
 * `pages/`. The caller passes one REPEATABLE READ transaction, so that every
 * page sees the same moment.
 *
 * The single pages (index, methodology pages, exports) come first: they are
 * all the Astro build itself reads (site/src/lib/snapshot.ts), and
 * `onSingles` is called once they are written, so the build can start while
 * the rest is read. Then each report, subject and browse page (a window of
 * them at a time, the next batch of reports read meanwhile), `onPage`
 * called as each is written (the full build renders those with the new
 * bundle's renderer, jobs/site/render-pool.ts). Report pages are read a batch
 * at a time, so a snapshot of any size is written in steady memory.
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

export type SnapshotHooks = {
  /** The single pages are written: the Astro build may start. */
  onSingles?: () => void;
  /**
   * A report, subject or browse page's data, as JSON, before it is written:
   * true when the page needs no rendering from it (the full build's page
   * cache had it). Its data file is then not written, unless the build keeps
   * it (browse pages), and `onPage` is not called.
   */
  reuse?: (ref: PageRef, json: string) => Promise<boolean>;
  /** A report, subject or browse page's data is written, at `file`, to be rendered. */
  onPage?: (ref: PageRef, file: string) => void;
};

const BATCH = 100;

/** Where a browse letter's index (core/site/browse-pages.ts LetterIndex) is kept, under the browse pages' data. */
export const letterIndexFile = (letter: string) => path.join(letter, 'pages.json');

/** Where a page's data is in a snapshot. */
export const snapshotFile = (dir: string, ref: PageRef) => path.join(dir, 'pages', ...(ref.key === undefined ? [`${ref.view}.json`] : [ref.view, `${ref.key}.json`]));

export async function writeSnapshot(db: Queryable, dir: string, o: { siteUrl: string | null; exports: ExportManifest[] }, hooks: SnapshotHooks = {}): Promise<SnapshotResult> {
  const c = common();
  const reportIds: string[] = [];
  let pages = 0;
  const single = async (ref: PageRef, data: PageData) => {
    await writeFile(snapshotFile(dir, ref), JSON.stringify(data));
    pages++;
  };
  // Keyed pages are placed a window at a time: each waits on its file system calls (the cache's checks and links,
  // or its data file), and the window keeps the database read and the page data made meanwhile.
  const window = new Window(IN_FLIGHT);
  const keyed = async (ref: PageRef, data: PageData) => {
    const file = snapshotFile(dir, ref);
    const json = JSON.stringify(data);
    pages++;
    await window.run(async () => {
      const reused = hooks.reuse !== undefined && (await hooks.reuse(ref, json));
      if (!reused || ref.view === 'browse') await writeFile(file, json);
      if (!reused) hooks.onPage?.(ref, file);
    });
  };
  try {
    for (const d of ['report', 'subject', 'browse']) await mkdir(path.join(dir, 'pages', d), { recursive: true });

    const sum = await loadSummaries(db);
    await single({ view: 'index' }, indexPage(sum, c, o.exports[0] ?? null));
    const method = await methodologyPages(db, c);
    for (const p of method) await single({ view: p.view }, p);
    await single({ view: 'exports' }, exportsPage(o.exports, c));
    hooks.onSingles?.();

    // The next batch is read while this one is placed.
    const batch = (i: number) => (i < sum.reports.length ? reportPages(db, sum.reports.slice(i, i + BATCH).map((r) => r.report_id), c, o.siteUrl) : null);
    let next = batch(0);
    for (let i = 0; next; i += BATCH) {
      const these = await next;
      next = batch(i + BATCH);
      // Awaited in the next turn; a failure seen before then is not an unhandled rejection.
      next?.catch(() => {});
      for (const p of these) {
        await keyed({ view: 'report', key: p.report_id }, p);
        reportIds.push(p.report_id);
      }
    }
    // Each subject's page from its own reports (grouped once: filtering every report for each subject grew with the square of the site).
    const bySubject = new Map<string, Summaries['reports']>();
    for (const r of sum.reports) {
      const list = bySubject.get(r.subject_id);
      if (list) list.push(r);
      else bySubject.set(r.subject_id, [r]);
    }
    for (const id of sum.subjects.keys()) {
      await keyed({ view: 'subject', key: id }, subjectPage({ subjects: sum.subjects, reports: bySubject.get(id) ?? [] }, id, c)!);
    }
    for (const [letter, entries] of browseEntries(sum)) {
      await mkdir(path.join(dir, 'pages', 'browse', letter), { recursive: true });
      const cut = cutPages(entries);
      for (const [i, subjects] of cut.entries()) {
        const key = browseKey(letter, i + 1);
        await keyed({ view: 'browse', key }, browsePageOf(letter, i + 1, cut.length, subjects, c));
      }
      await writeFile(path.join(dir, 'pages', 'browse', letterIndexFile(letter)), JSON.stringify(letterIndex(letter, cut)));
    }
    await window.drain();
    return { pages, report_ids: reportIds, measurement_at: method[1].measurement?.measured_at ?? null };
  } finally {
    // Nothing is still writing when the caller removes the folders, whether this succeeded or not.
    await window.settle();
  }
}

const IN_FLIGHT = 16;

/** At most `size` tasks at once; the first failure is thrown by the next run() or by drain(). */
class Window {
  readonly #running = new Set<Promise<void>>();
  #failure: { err: unknown } | null = null;
  readonly #size: number;
  constructor(size: number) {
    this.#size = size;
  }

  async run(task: () => Promise<void>): Promise<void> {
    this.#throwIfFailed();
    const p: Promise<void> = task().catch((err: unknown) => {
      this.#failure ??= { err };
    }).finally(() => this.#running.delete(p));
    this.#running.add(p);
    if (this.#running.size >= this.#size) await Promise.race(this.#running);
    this.#throwIfFailed();
  }

  async drain(): Promise<void> {
    await this.settle();
    this.#throwIfFailed();
  }

  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #throwIfFailed(): void {
    if (this.#failure) throw this.#failure.err;
  }
}
