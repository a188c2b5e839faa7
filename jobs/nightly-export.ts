import path from 'node:path';
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import type { Pool } from '../core/db/pool.ts';
import { placeExport, writeExport, type ExportManifest } from '../core/site/exports.ts';
import { clientDir, cloneTree, newBuildId, pruneBuilds, readCurrent, removeTree, siteLayout, swapCurrent, withSiteLock, writeFileAtomic, type BuildManifest } from '../core/site/layout.ts';
import { common, exportsPage, indexPage, loadSummaries, pageFile, pageRefOf, publishedOnly } from '../core/site/page-data.ts';
import { rendererFor } from '../core/site/renderer.ts';
import { QUEUES } from './queues.ts';
import { buildLocked, readOnlySnapshot, recordBuild, type SiteOptions } from './site/builds.ts';
import { writeSiteFile } from './site/precompress.ts';

/**
 * The nightly export (pg-boss schedule, SITE_EXPORT_CRON, UTC): brings the
 * site up to date, then writes the night's export files (JSON Lines and the
 * claims and scores CSV tables, with their manifest) into `exports/<date>/`
 * of a new version of the site, re-renders the exports page and the index
 * (which links the newest files), and publishes it like any build. The
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
    const l = siteLayout(o.siteDir);
    const id = newBuildId();
    const dir = path.join(l.builds, id);
    const night = path.join(l.work, `export-${id}`, date);
    try {
      const renderer = await rendererFor(current.dir, current.manifest);
      const { manifest, sum } = await readOnlySnapshot(pool, async (tx) => ({
        manifest: await writeExport(tx, night, date),
        sum: publishedOnly(await loadSummaries(tx), new Set(current.manifest.report_ids)),
      }));
      await cloneTree(current.dir, dir);
      const nights = await placeExport(path.join(clientDir(dir), 'exports'), night, date, o.exportKeepDays);
      const c = common();
      for (const page of [exportsPage(nights, c), indexPage(sum, c, nights[0] ?? null)]) {
        await writeSiteFile(path.join(clientDir(dir), pageFile(pageRefOf(page))), await renderer.render(page));
      }
      const ms = performance.now() - t0;
      const build: BuildManifest = { ...current.manifest, build_id: id, kind: 'export', built_at: new Date().toISOString(), based_on: current.manifest.build_id, rendered: 2, ms: Math.round(ms) };
      await writeFileAtomic(path.join(dir, 'build.json'), `${JSON.stringify(build)}\n`);
      await swapCurrent(o.siteDir, id);
      await pruneBuilds(o.siteDir, [id, current.manifest.build_id]);
      await recordBuild(pool, { build_id: id, kind: 'export', status: 'published', reason: `nightly export ${date}`, started, ms, pages: build.pages, rendered: 2 });
      o.log?.info({ build: id, date, counts: manifest.counts, ms: Math.round(ms) }, 'nightly export published');
      return { build_id: id, manifest, ms };
    } catch (err) {
      await removeTree(dir);
      await recordBuild(pool, { build_id: null, kind: 'export', status: 'failed', reason: `nightly export ${date}`, started, ms: performance.now() - t0, error: (err as Error).message }).catch(() => {});
      throw err;
    } finally {
      await removeTree(path.dirname(night));
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
