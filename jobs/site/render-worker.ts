/**
 * A render thread of a full build (render-pool.ts): renders pages with the new
 * build's renderer (core/site/renderer.ts, the /live route of its server
 * bundle: the Page component every page is made with) and writes each page
 * with its compressed copies. Rendering and compressing are CPU work; a
 * thread per core does them side by side, while the main thread reads the
 * next pages from the database.
 */
import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PageData } from '../../core/site/page-data.ts';
import { rendererFor } from '../../core/site/renderer.ts';
import { stampFile, type FileStamp } from './page-cache.ts';
import { PRECOMPRESS_MIN_BYTES, compressBothSync } from './precompress.ts';

export type RenderTask = {
  /** The new build's folder: its server bundle renders, its client folder receives the pages. */
  buildDir: string;
  siteVersion: string;
  /** Each page: its data file (the snapshot), its file under client/, and whether its data is done with once read (browse pages' data is kept for incremental builds). */
  pages: { data: string; file: string; drop: boolean }[];
};

/** Each page rendered: its file, and the stamps of the page and its copies as written (the page cache's entry, jobs/site/page-cache.ts). */
export type RenderedFiles = { file: string; files: FileStamp[] }[];

// Exclusive creation: a file that is there already may be a hard link to a published version's page (the page cache),
// which writing in place would change under that version; the build fails instead.
const NEW = { flag: 'wx' } as const;
const stamp = (file: string) => stampFile(statSync(file, { bigint: true }));

export default async function render(task: RenderTask): Promise<RenderedFiles> {
  const out: RenderedFiles = [];
  const renderer = await rendererFor(task.buildDir, { site_version: task.siteVersion });
  const client = path.join(task.buildDir, 'client');
  for (const p of task.pages) {
    const data = JSON.parse(readFileSync(p.data, 'utf8')) as PageData;
    // Read once: removed here, a thread a page, rather than the whole snapshot (a gigabyte at 10,000 reports) at the end.
    if (p.drop) unlinkSync(p.data);
    const html = await renderer.renderBytes(data);
    const file = path.join(client, p.file);
    mkdirSync(path.dirname(file), { recursive: true });
    // A new build's folder is no one's until it goes live: plain writes, no temporary files; the copies after the page.
    writeFileSync(file, html, NEW);
    const files = [stamp(file)];
    if (html.length >= PRECOMPRESS_MIN_BYTES) {
      const [br, gz] = compressBothSync(html);
      writeFileSync(`${file}.br`, br, NEW);
      writeFileSync(`${file}.gz`, gz, NEW);
      files.push(stamp(`${file}.br`), stamp(`${file}.gz`));
    }
    out.push({ file: p.file, files });
    // A turn of the event loop between pages: V8 keeps objects behind WeakRefs made during a job (the adapter's
    // abort signals hold each request's page) until the job ends, and a batch rendered in one job would hold them all.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}
