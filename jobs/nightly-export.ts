import path from 'node:path';
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Pool } from '../core/db/pool.ts';
import { readExportManifests, writeExport, type ExportManifest } from '../core/site/exports.ts';
import { clientDir, newBuildId, readCurrent, withSiteLock, type BuildManifest } from '../core/site/layout.ts';
import { common, exportsPage, pageFile, pageRefOf, type IndexPage } from '../core/site/page-data.ts';
import { rendererFor } from '../core/site/renderer.ts';
import { QUEUES } from './queues.ts';
import { buildLocked, readOnlySnapshot, recordBuild, type SiteOptions } from './site/builds.ts';
import { DATA_DIR, Journal } from './site/journal.ts';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The nightly export (pg-boss schedule, SITE_EXPORT_CRON, UTC): brings the
 * site up to date, then writes the night's export files (JSON Lines and the
 * claims and scores CSV tables, with their manifest) into `exports/<date>/`
 * of a new version of the site, re-renders the exports page and the index
 * (which links the newest files), and publishes it in place like an
 * incremental build (jobs/site/journal.ts): whole or not at all. The
 * newest SITE_EXPORT_KEEP_DAYS nights are kept. Running it twice on one date
 * replaces that night's files.
 */

export const NightlyExportPayload = z.object({ date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional() });

export type ExportResult = { build_id: string; manifest: ExportManifest; ms: number };

export async function runNightlyExport(pool: Pool, o: SiteOptions, date = new Date().toISOString().slice(0, 10)): Promise<ExportResult> {
  return withSiteLock(o.siteDir, async () => {
    const started = new Date();
    const t0 = performance.now();
    await buildLocked(pool, o, { reason: `nightly export ${date}: catch up` });
    const current = (await readCurrent(o.siteDir))!;
    const renderer = await rendererFor(current.dir, current.manifest);
    // Published in place, like an incremental build (jobs/site/journal.ts): the cost is the night's files and two pages.
    const journal = await Journal.open(current.dir, newBuildId());
    try {
      const nightRel = `client/exports/${date}`;
      const manifest = await readOnlySnapshot(pool, (tx) => writeExport(tx, journal.stagedPath(nightRel), date));
      await journal.stageDir(nightRel);
      // The nights kept: this one and the newest others, SITE_EXPORT_KEEP_DAYS in all; the rest are taken out.
      const live = path.join(clientDir(current.dir), 'exports');
      const older = (await readExportManifests(live)).filter((m) => m.date !== date);
      const nights = [manifest, ...older].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)).slice(0, o.exportKeepDays);
      for (const m of older) if (!nights.includes(m)) journal.remove(`client/exports/${m.date}`);
      for (const name of await readdir(live).catch(() => [] as string[])) {
        // A night without a readable manifest is not listed: it goes too.
        if (/^\d{4}-\d{2}-\d{2}$/.test(name) && name !== date && !older.some((m) => m.date === name)) journal.remove(`client/exports/${name}`);
      }
      if (nights[0]) await journal.writeSiteFile('client/exports/latest.json', `${JSON.stringify(nights[0], null, 2)}\n`);
      // The index as the live version published it (its page data, kept beside it), now linking the newest files.
      const published = JSON.parse(await readFile(path.join(current.dir, DATA_DIR, 'index.json'), 'utf8')) as IndexPage;
      const c = common();
      const home: IndexPage = { ...published, common: c, latest_export: nights[0] ?? null };
      for (const page of [exportsPage(nights, c), home]) {
        await journal.writeSiteFile(path.join('client', pageFile(pageRefOf(page))), await renderer.render(page));
      }
      await journal.writeFile(`${DATA_DIR}/index.json`, JSON.stringify(home));
      const ms = performance.now() - t0;
      const build: BuildManifest = { ...current.manifest, build_id: journal.id, kind: 'export', built_at: new Date().toISOString(), based_on: current.manifest.build_id, rendered: 2, ms: Math.round(ms) };
      await journal.commit(build);
      await recordBuild(pool, { build_id: journal.id, kind: 'export', status: 'published', reason: `nightly export ${date}`, started, ms, pages: build.pages, rendered: 2 });
      o.log?.info({ build: journal.id, date, counts: manifest.counts, ms: Math.round(ms) }, 'nightly export published');
      return { build_id: journal.id, manifest, ms };
    } catch (err) {
      await journal.abort();
      await recordBuild(pool, { build_id: null, kind: 'export', status: 'failed', reason: `nightly export ${date}`, started, ms: performance.now() - t0, error: (err as Error).message }).catch(() => {});
      throw err;
    }
  });
}

export async function startNightlyExportWorker(boss: PgBoss, pool: Pool, o: SiteOptions, cron: string): Promise<void> {
  await boss.work(QUEUES.export, { batchSize: 1, localConcurrency: 1 }, async (jobs) => {
    for (const j of jobs) await runNightlyExport(pool, o, NightlyExportPayload.parse(j.data ?? {}).date);
  });
  // Stored in the database: one schedule for every worker process; pg-boss sends one job per tick.
  await boss.schedule(QUEUES.export, cron, {}, { tz: 'UTC' });
}
