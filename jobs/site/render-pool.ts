import os from 'node:os';
import { Piscina } from 'piscina';
import { pageFile, type PageRef } from '../../core/site/page-data.ts';
import type { RenderedFiles, RenderTask } from './render-worker.ts';

/**
 * The report, subject and browse pages of a full build, rendered in parallel:
 * one worker thread per core (render-worker.ts), each with the new build's
 * own renderer, writing each page and its compressed copies. Astro renders
 * its pages one after another on one thread, and those pages were most of a
 * build; here every core renders and compresses.
 *
 * Pages are queued as the snapshot writes their data (`add`), before the
 * renderer exists; `start` is called once the Astro build has made the
 * bundle, and sends them out in batches. `finish` waits for every batch and
 * throws the first failure, once nothing is still writing (the caller then
 * removes the build's folder whole).
 */

const BATCH = 25;

export class RenderPool {
  readonly #pending: RenderTask['pages'] = [];
  readonly #running: Promise<unknown>[] = [];
  #pool: Piscina | undefined;
  #task: Omit<RenderTask, 'pages'> | undefined;
  #failed = false;
  readonly #threads: number;
  readonly #onRendered: (pages: RenderedFiles) => void;

  /** `onRendered`: each batch's pages as they are written (the page cache's entries). */
  constructor(onRendered: (pages: RenderedFiles) => void = () => {}, threads = Math.max(1, os.availableParallelism())) {
    this.#onRendered = onRendered;
    this.#threads = threads;
  }

  add(ref: PageRef, data: string): void {
    this.#pending.push({ data, file: pageFile(ref), drop: ref.view !== 'browse' });
    if (this.#pool && this.#pending.length >= BATCH) this.#flush();
  }

  /** The bundle exists: render what is queued, and what comes. */
  start(buildDir: string, siteVersion: string): void {
    this.#task = { buildDir, siteVersion };
    this.#pool = new Piscina({ filename: new URL('./render-worker.ts', import.meta.url).href, minThreads: this.#threads, maxThreads: this.#threads });
    while (this.#pending.length >= BATCH) this.#flush();
  }

  #flush(): void {
    if (this.#failed) return;
    const pages = this.#pending.splice(0, BATCH);
    if (pages.length === 0) return;
    const run = (this.#pool!.run({ ...this.#task!, pages } satisfies RenderTask) as Promise<RenderedFiles>).then((done) => {
      this.#onRendered(done);
      return done.length;
    });
    run.catch(() => (this.#failed = true));
    this.#running.push(run);
  }

  /** Renders the rest and waits for all; the first failure is thrown once every batch has settled. */
  async finish(): Promise<number> {
    try {
      if (this.#pool) while (this.#pending.length > 0) this.#flush();
      const settled = await Promise.allSettled(this.#running);
      const failed = settled.find((s) => s.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      return settled.reduce((n, s) => n + ((s as PromiseFulfilledResult<number>).value ?? 0), 0);
    } finally {
      await this.close();
    }
  }

  /** Stops the threads (after finish, or when the build failed before the renderer existed). */
  async close(): Promise<void> {
    const p = this.#pool;
    this.#pool = undefined;
    this.#pending.length = 0;
    await p?.destroy();
  }
}
