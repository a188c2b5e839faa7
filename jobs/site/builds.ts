import { access, link, lstat, mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Pool, PoolClient } from '../../core/db/pool.ts';
import { REPO_ROOT } from '../../core/method/version.ts';
import { readExportManifests } from '../../core/site/exports.ts';
import {
  clientDir, cloneTree, ensureNodeModulesLink, newBuildId, pruneBuilds, readCurrent, removeTree, siteLayout, swapCurrent, withSiteLock, writeFileAtomic,
  type BuildManifest,
} from '../../core/site/layout.ts';
import { pageFile } from '../../core/site/page-data.ts';
import { writeSnapshot } from '../../core/site/snapshot.ts';
import { siteVersion } from '../../core/site/version.ts';
import { runAstroBuild } from './astro.ts';
import { changesSince, currentSnapshot } from './changes.ts';
import { planIncremental, publishIncremental } from './incremental.ts';
import { DATA_DIR, VERSIONS_DIR, recoverJournals } from './journal.ts';
import { PageCache, StaleCacheError } from './page-cache.ts';
import { precompressTree } from './precompress.ts';
import { RenderPool } from './render-pool.ts';
import { writeCrawlerFiles } from './sitemap.ts';

/**
 * Building the static site into DATA_DIR/site (layout in core/site/layout.ts).
 *
 * - Full: the data of every page is written to a snapshot; Astro builds the
 *   renderer bundle and the single pages into a new folder as soon as their
 *   data is written, and the report, subject and browse pages are rendered
 *   with that bundle by worker threads (render-pool.ts) as the snapshot
 *   writes them; the nightly exports are carried over, and the new folder
 *   goes live. A page whose data is what the live version rendered it
 *   from, under the same renderer, is not rendered again: the live
 *   version's page and copies are taken as hard links (page-cache.ts), so a
 *   full build costs its snapshot and the pages that changed.
 *   Run when there is no site yet, when the site version changed (site code,
 *   methodology text, method version), or when asked.
 * - Incremental: the changes since the live version (reports stored, remade
 *   or signed off; replies and reviews on published claims; a new
 *   measurement) are turned into the few pages they touch: each changed
 *   report's page, its subject's page, the browse page its subject is on, the index (and the
 *   measurement page); those are rendered with the live version's renderer,
 *   the same components Astro built it with, and published in place in the
 *   live folder (jobs/site/incremental.ts, jobs/site/journal.ts): the cost is
 *   those pages, whatever the site's size. Nothing changed: nothing is
 *   written.
 *
 * One build at a time per site folder (withSiteLock). A full build that fails
 * removes its new folder; an incremental one that fails before its commit
 * point removes what it staged, and one cut off after it is finished by the
 * next build. Either way the live version stays whole.
 */

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
export type SiteOptions = { siteDir: string; siteUrl: string | null; exportKeepDays: number; log?: Log };
/** `cache: false`: a full build renders every page, taking none from the last version (jobs/site/page-cache.ts). */
export type BuildRequest = { reason: string; full?: boolean; cache?: boolean };
export type BuildResult = {
  status: 'published' | 'unchanged';
  kind: BuildManifest['kind'] | null;
  build_id: string | null;
  pages: number;
  rendered: number;
  ms: number;
  /** Reports published for the first time. */
  new_reports: string[];
  /** Where the time went, ms by phase. */
  phases?: Record<string, number>;
};

/** One consistent, read-only view of the database for everything a build reads. */
export async function readOnlySnapshot<T>(pool: Pool, fn: (tx: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export async function recordBuild(pool: Pool, r: { build_id: string | null; kind: BuildManifest['kind']; status: 'published' | 'failed'; reason: string; started: Date; ms: number; pages?: number; rendered?: number; report_ids?: string[]; error?: string }) {
  await pool.query(
    `INSERT INTO site_builds (build_id, kind, status, reason, started_at, ms, pages, rendered, report_ids, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [r.build_id, r.kind, r.status, r.reason.slice(0, 500), r.started, Math.round(r.ms), r.pages ?? 0, r.rendered ?? 0, r.report_ids ?? [], r.error?.slice(0, 2000) ?? null],
  );
}

/** Builds whatever the site needs, under the site lock. */
export function buildSite(pool: Pool, o: SiteOptions, req: BuildRequest): Promise<BuildResult> {
  return withSiteLock(o.siteDir, () => buildLocked(pool, o, req));
}

/** For callers that already hold the site lock (the nightly export). */
export async function buildLocked(pool: Pool, o: SiteOptions, req: BuildRequest): Promise<BuildResult> {
  // A version whose publishing was cut off (its process died past the commit point) is finished first.
  let current = await readCurrent(o.siteDir);
  const finished = current ? await recoverJournals(current.dir) : [];
  if (finished.length > 0) {
    o.log?.warn({ versions: finished }, 'finished publishing site versions an earlier build left half-applied');
    current = await readCurrent(o.siteDir);
  }
  const started = new Date();
  const t0 = performance.now();
  const full = !current || req.full === true || current.manifest.site_version !== siteVersion();
  try {
    const result = full ? await fullOrCold(pool, o, current, req) : ((await incrementalBuild(pool, o, current!)) ?? (await fullOrCold(pool, o, current, req)));
    if (result.status === 'published') {
      await recordBuild(pool, { build_id: result.build_id, kind: result.kind!, status: 'published', reason: req.reason, started, ms: result.ms, pages: result.pages, rendered: result.rendered, report_ids: result.new_reports });
      o.log?.info({ build: result.build_id, kind: result.kind, pages: result.pages, rendered: result.rendered, ms: Math.round(result.ms), phases: result.phases }, 'site published');
    }
    return result;
  } catch (err) {
    const message = (err as Error).message;
    await recordBuild(pool, { build_id: null, kind: full ? 'full' : 'incremental', status: 'failed', reason: req.reason, started, ms: performance.now() - t0, error: message }).catch(() => {});
    o.log?.warn({ error: message.slice(0, 500) }, 'site build failed; the last good site stays live');
    throw err;
  }
}

async function publish(o: SiteOptions, dir: string, manifest: BuildManifest, previous: string | null): Promise<void> {
  await writeFileAtomic(path.join(dir, 'build.json'), `${JSON.stringify(manifest)}\n`);
  await swapCurrent(o.siteDir, manifest.build_id);
  await pruneBuilds(o.siteDir, previous ? [manifest.build_id, previous] : [manifest.build_id]);
}

/** A full build with the page cache; made again without it if the cache turned out not to fit the new build (StaleCacheError). */
async function fullOrCold(pool: Pool, o: SiteOptions, current: Awaited<ReturnType<typeof readCurrent>>, req: BuildRequest): Promise<BuildResult> {
  try {
    return await fullBuild(pool, o, current, req.cache !== false);
  } catch (err) {
    if (!(err instanceof StaleCacheError)) throw err;
    o.log?.warn({ error: err.message }, 'the page cache did not fit the new build; building again without it');
    return fullBuild(pool, o, current, false);
  }
}

async function fullBuild(pool: Pool, o: SiteOptions, current: Awaited<ReturnType<typeof readCurrent>>, useCache: boolean): Promise<BuildResult> {
  const t0 = performance.now();
  const l = siteLayout(o.siteDir);
  const id = newBuildId();
  const dir = path.join(l.builds, id);
  const data = path.join(l.work, id);
  await ensureNodeModulesLink(o.siteDir, path.join(REPO_ROOT, 'node_modules'));
  const oldExports = current ? path.join(clientDir(current.dir), 'exports') : null;
  // Unchanged pages are taken from the live version (its folder is not pruned while the site lock is held).
  const cache = await PageCache.open(current?.dir ?? null, useCache);
  const pages = new RenderPool((done) => {
    for (const p of done) cache.rendered(p.file, p.files);
  });
  let astro: Promise<unknown> | undefined;
  try {
    const exports = oldExports ? await readExportManifests(oldExports) : [];
    const since = current?.manifest.db_snapshot ?? null;
    // Astro builds the bundle and the single pages as soon as their data is written, while the rest is read;
    // the report, subject and browse pages are queued as they are written and rendered by the pool once the bundle exists.
    const tSnapshot = { astroStart: 0, astroEnd: 0, snapshotEnd: 0 };
    const snap = await readOnlySnapshot(pool, async (tx) => ({
      ...(await writeSnapshot(tx, data, { siteUrl: o.siteUrl, exports }, {
        onSingles: () => {
          tSnapshot.astroStart = performance.now();
          astro = runAstroBuild({ dataDir: data, outDir: dir, cacheDir: l.cache }).then(async (r) => {
            tSnapshot.astroEnd = performance.now();
            await cache.checkAssets(clientDir(dir));
            // Astro's own files (its few pages, stylesheets, public files), before the pool writes beside them.
            await precompressTree(clientDir(dir), { skip: KEYED_DIRS });
            // Astro empties the folder it builds into: the cache's links and the pool's pages are written once it is done.
            cache.start(clientDir(dir));
            pages.start(dir, siteVersion());
            return r;
          });
          // Awaited below; a failure seen before then is not an unhandled rejection.
          astro.catch(() => {});
        },
        reuse: (ref, json) => cache.reuse(pageFile(ref), json),
        onPage: (ref, file) => pages.add(ref, file),
      })),
      db_snapshot: await currentSnapshot(tx),
      // Reports written since the live version: the candidates for "published for the first time".
      changed: since ? (await changesSince(tx, since)).reports.map((r) => r.id) : null,
    }));
    tSnapshot.snapshotEnd = performance.now();
    await astro;
    await pages.finish();
    await cache.finish();
    cache.assertSound();
    const tCarry = performance.now();
    // The nights already exported stay published (their files are shared, not copied, with their copies).
    if (oldExports) {
      // (Not the exports page itself: it was just built.)
      for (const name of await readdir(oldExports).catch(() => [] as string[])) {
        if (/^\d{4}-\d{2}-\d{2}$/.test(name)) await cloneTree(path.join(oldExports, name), path.join(clientDir(dir), 'exports', name));
      }
      await linkIfThere(path.join(oldExports, 'latest.json'), path.join(clientDir(dir), 'exports', 'latest.json'));
    }
    // The index's and browse pages' data (with each letter's index), for the incremental builds to come (jobs/site/incremental.ts).
    await mkdir(path.join(dir, DATA_DIR), { recursive: true });
    await rename(path.join(data, 'pages', 'index.json'), path.join(dir, DATA_DIR, 'index.json'));
    await rename(path.join(data, 'pages', 'browse'), path.join(dir, DATA_DIR, 'browse'));
    await writeCrawlerFiles(clientDir(dir), o.siteUrl);
    await cache.write(dir);
    const tCompress = performance.now();
    // Carried nights made before their files had copies.
    await precompressTree(path.join(clientDir(dir), 'exports'));
    const tCheck = performance.now();
    // Every page the snapshot listed must be there before the folder goes live.
    await access(path.join(clientDir(dir), 'index.html'));
    for (const rid of snap.report_ids) await access(path.join(clientDir(dir), pageFile({ view: 'report', key: rid })));
    const ms = performance.now() - t0;
    const rendered = snap.pages - cache.reused;
    const manifest: BuildManifest = {
      build_id: id, kind: 'full', built_at: new Date().toISOString(), site_version: siteVersion(), based_on: current?.manifest.build_id ?? null,
      db_snapshot: snap.db_snapshot, measurement_at: snap.measurement_at, pages: snap.pages, rendered, ms: Math.round(ms),
    };
    const tNew = performance.now();
    // Reports published for the first time: those the last version had no page for.
    const newReports: string[] = [];
    const inSnapshot = new Set(snap.report_ids);
    for (const rid of snap.changed?.filter((r) => inSnapshot.has(r)) ?? snap.report_ids) {
      if (!current || !(await exists(path.join(clientDir(current.dir), pageFile({ view: 'report', key: rid }))))) newReports.push(rid);
    }
    await writeFileAtomic(path.join(dir, VERSIONS_DIR, `${id}.json`), `${JSON.stringify(manifest)}\n`);
    const tPublish = performance.now();
    await publish(o, dir, manifest, current?.manifest.build_id ?? null);
    const phases = {
      // Overlapping: the snapshot runs from the start, Astro from when the single pages are written, the pool from when Astro is done.
      snapshot: tSnapshot.snapshotEnd - t0, astro: tSnapshot.astroEnd - tSnapshot.astroStart, render_and_compress: tCarry - tSnapshot.astroEnd,
      carry_and_sitemap: tCompress - tCarry, precompress_carried: tCheck - tCompress, check: tNew - tCheck, new_reports: tPublish - tNew, publish_and_prune: performance.now() - tPublish,
    };
    return { status: 'published', kind: 'full', build_id: id, pages: snap.pages, rendered, ms, new_reports: newReports, phases: rounded(phases) };
  } catch (err) {
    // Nothing may still be writing into the folder when it is removed: Astro's child is awaited, the pool's threads stopped.
    await astro?.catch(() => {});
    await pages.close();
    await cache.finish().catch(() => {});
    await removeTree(dir);
    throw err;
  } finally {
    await removeTree(data);
  }
}

/** The folders of the pages the pool renders or the cache links (with their copies): not Astro's. */
const KEYED_DIRS = ['reports', 'subjects', 'browse'];
const exists = (p: string) => lstat(p).then(() => true, () => false);
const rounded = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));

async function linkIfThere(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await link(from, to).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

async function incrementalBuild(pool: Pool, o: SiteOptions, current: NonNullable<Awaited<ReturnType<typeof readCurrent>>>): Promise<BuildResult | null> {
  const t0 = performance.now();
  const plan = await readOnlySnapshot(pool, (tx) => planIncremental(tx, o, current));
  if (plan === 'full') return null;
  if (plan === null) return { status: 'unchanged', kind: null, build_id: null, pages: current.manifest.pages, rendered: 0, ms: performance.now() - t0, new_reports: [] };
  const tPlan = performance.now();
  const r = await publishIncremental(o, current, plan, t0);
  const ms = performance.now() - t0;
  return { status: 'published', kind: 'incremental', build_id: r.manifest.build_id, pages: r.manifest.pages, rendered: r.rendered, ms, new_reports: r.added, phases: { plan: Math.round(tPlan - t0), ...r.phases } };
}
