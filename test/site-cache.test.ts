import { createHash } from 'node:crypto';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientDir, readCurrent, writeFileAtomic } from '../core/site/layout.ts';
import { buildSite, type SiteOptions } from '../jobs/site/builds.ts';
import { CACHE_FILE, readCacheList } from '../jobs/site/page-cache.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { storeFakeReport, storeReply, tempDataDir } from './site-fixtures.ts';

/**
 * The page cache of full builds (jobs/site/page-cache.ts), with real Astro
 * builds: a full build renders only the pages whose data changed and takes
 * the others, with their copies, from the live version as hard links; a
 * change of renderer (the site version) renders every page again; and the
 * site it publishes is, byte for byte, the one a build without the cache
 * makes.
 */

// The site version, with a suffix a test can change: a new renderer, as a change to site/ would make.
const renderer = vi.hoisted(() => ({ suffix: '' }));
vi.mock('../core/site/version.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/site/version.ts')>();
  return { ...real, siteVersion: () => real.siteVersion() + renderer.suffix };
});

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;
const reports: Awaited<ReturnType<typeof storeFakeReport>>[] = [];
/** index, methodology, measurement, rating scale, exports: Astro's own pages, made by every full build. */
const SINGLES = 5;

const live = async () => (await readCurrent(o.siteDir))!;
/** Every page and copy of the report, subject and browse folders: relative path → inode and sha256. */
async function files(): Promise<Map<string, { ino: number; sha: string }>> {
  const root = clientDir((await live()).dir);
  const out = new Map<string, { ino: number; sha: string }>();
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(path.relative(root, p), { ino: (await stat(p)).ino, sha: createHash('sha256').update(await readFile(p)).digest('hex') });
    }
  };
  for (const d of ['reports', 'subjects', 'browse']) await walk(path.join(root, d));
  return out;
}
const page = (id: string) => `reports/${id}/index.html`;

beforeAll(async () => {
  data = await tempDataDir('site-cache');
  t = await startTestApp({ DATA_DIR: data.dir }, 'site_cache');
  o = { siteDir: t.config.siteDir, siteUrl: 'https://reliability.example', exportKeepDays: 2 };
  for (const name of ['Aldgate Water', 'Brent Buses', 'Cray Valley Times', 'Darent Health']) reports.push(await storeFakeReport(t.db.pool, { name, claims: 4 }));
});
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('a full build with the page cache', () => {
  it('the first build renders every page and lists each with its data hash and files', async () => {
    const r = await buildSite(t.db.pool, o, { reason: 'test: first' });
    expect(r).toMatchObject({ kind: 'full', pages: 4 + 4 + 4 + SINGLES, rendered: 4 + 4 + 4 + SINGLES });
    const list = readCacheList((await live()).dir)!;
    expect(Object.keys(list.pages).sort()).toEqual([...(await files()).keys()].filter((f) => f.endsWith('index.html')).sort());
    expect(list.assets.some((a) => a.endsWith('.css'))).toBe(true);
  });

  it('after one report changes, renders that report page alone; every other page and copy is the live one, linked', async () => {
    const before = await files();
    const changed = reports[1]!;
    await storeReply(t.db.pool, changed.claims[0]!.claim_id, changed.subjectId, { name: 'Press office', statement: 'Our figure was for the calendar year.' });
    const r = await buildSite(t.db.pool, o, { reason: 'test: warm', full: true });
    expect(r).toMatchObject({ kind: 'full', pages: 4 + 4 + 4 + SINGLES, rendered: 1 + SINGLES });
    const after = await files();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    const renewed = [...after].filter(([f, a]) => a.ino !== before.get(f)!.ino).map(([f]) => f).sort();
    expect(renewed).toEqual([page(changed.reportId), `${page(changed.reportId)}.br`, `${page(changed.reportId)}.gz`]);
    expect(await readFile(path.join(clientDir((await live()).dir), page(changed.reportId)), 'utf8')).toContain('Our figure was for the calendar year.');
  });

  it('publishes the same bytes as a build without the cache', async () => {
    const cached = await files();
    const cold = await buildSite(t.db.pool, o, { reason: 'test: cold', full: true, cache: false });
    expect(cold.rendered).toBe(cold.pages);
    const rendered = await files();
    for (const [f, a] of rendered) {
      expect(cached.get(f)?.sha, f).toBe(a.sha);
      expect(cached.get(f)?.ino, f).not.toBe(a.ino);
    }
  });

  it('renders a page replaced since it was listed, even though its data hashes as listed', async () => {
    const other = reports[2]!;
    await storeReply(t.db.pool, other.claims[1]!.claim_id, other.subjectId, { name: 'Editor', statement: 'Corrected on 3 May.' });
    expect(await buildSite(t.db.pool, o, { reason: 'test: incremental' })).toMatchObject({ kind: 'incremental', rendered: 1 });
    // The incremental build replaced the page (its data changed too); here one is replaced by rename, as every
    // publication in place replaces a file, with the data left as the list has it.
    const untouched = path.join(clientDir((await live()).dir), page(reports[3]!.reportId));
    const right = await readFile(untouched, 'utf8');
    await writeFileAtomic(untouched, right.replace('machine-generated, unreviewed', 'TAMPERED'));
    const r = await buildSite(t.db.pool, o, { reason: 'test: full after replacements', full: true });
    expect(r.rendered).toBe(2 + SINGLES);
    expect(await readFile(path.join(clientDir((await live()).dir), page(reports[3]!.reportId)), 'utf8')).toBe(right);
  });

  it('renders every page again when the renderer changes', async () => {
    const before = await files();
    renderer.suffix = '-renderer-2';
    const r = await buildSite(t.db.pool, o, { reason: 'test: new renderer' });
    expect(r).toMatchObject({ kind: 'full', rendered: r.pages });
    for (const [f, a] of await files()) expect(before.get(f)?.ino, f).not.toBe(a.ino);
    // And the next build under that renderer takes them all.
    expect((await buildSite(t.db.pool, o, { reason: 'test: again', full: true })).rendered).toBe(SINGLES);
  });

  it('a build that fails after taking pages leaves the live version as it was, file for file, with no link of its own left', async () => {
    const before = await files();
    const nlinks = async () => Promise.all([...before.keys()].map(async (f) => (await stat(path.join(clientDir((await live()).dir), f))).nlink));
    const linksBefore = await nlinks();
    const liveBefore = (await live()).manifest.build_id;
    // A stored report whose page the components cannot render (a score without its range): it fails in a render
    // thread, once the other pages were taken (the data code and the pages that list the report read its headline only).
    const id = reports[0]!.reportId;
    const { rows } = await t.db.pool.query<{ report: unknown }>(`SELECT report FROM reports WHERE id = $1`, [id]);
    await t.db.pool.query(`UPDATE reports SET report = jsonb_set(report, '{scores,factual}', '{"score": 50}') WHERE id = $1`, [id]);
    try {
      await expect(buildSite(t.db.pool, o, { reason: 'test: failing', full: true })).rejects.toThrow(/Cannot read properties of undefined/);
    } finally {
      await t.db.pool.query(`UPDATE reports SET report = $2 WHERE id = $1`, [id, JSON.stringify(rows[0]!.report)]);
    }
    expect((await live()).manifest.build_id).toBe(liveBefore);
    expect(await files()).toEqual(before);
    expect(await nlinks()).toEqual(linksBefore);
  });

  it('a build whose snapshot fails leaves the live version as it was and no folder behind', async () => {
    const before = await files();
    const liveBefore = (await live()).manifest.build_id;
    const builds = (await readdir(path.join(o.siteDir, 'builds'))).sort();
    // A claim whose stored data the page data code cannot read: the snapshot's read of its batch fails.
    const claimId = reports[3]!.claims[0]!.claim_id;
    const { rows } = await t.db.pool.query<{ data: unknown }>(`SELECT data FROM claims WHERE claim_id = $1`, [claimId]);
    await t.db.pool.query(`UPDATE claims SET data = '{"evidence": 7}'::jsonb WHERE claim_id = $1`, [claimId]);
    try {
      await expect(buildSite(t.db.pool, o, { reason: 'test: snapshot fails', full: true })).rejects.toThrow(/Cannot read properties of undefined/);
    } finally {
      await t.db.pool.query(`UPDATE claims SET data = $2 WHERE claim_id = $1`, [claimId, JSON.stringify(rows[0]!.data)]);
    }
    expect((await live()).manifest.build_id).toBe(liveBefore);
    expect(await files()).toEqual(before);
    expect((await readdir(path.join(o.siteDir, 'builds'))).sort()).toEqual(builds);
    expect(await readdir(path.join(o.siteDir, 'work')).catch(() => [])).toEqual([]);
  });

  it('when the live pages link to asset files the new build does not make, builds again without the cache', async () => {
    const dir = (await live()).dir;
    const list = readCacheList(dir)!;
    await writeFile(path.join(dir, CACHE_FILE), JSON.stringify({ ...list, assets: ['site.Gone0000.css'] }));
    const before = await files();
    const failed = async () => Number((await t.db.pool.query<{ n: string }>(`SELECT count(*) AS n FROM site_builds WHERE status = 'failed'`)).rows[0]!.n);
    const failedBefore = await failed();
    const r = await buildSite(t.db.pool, o, { reason: 'test: assets moved', full: true });
    expect(r).toMatchObject({ kind: 'full', rendered: r.pages });
    for (const [f, a] of await files()) expect(before.get(f)?.ino, f).not.toBe(a.ino);
    // One build, published: the first attempt's folder was removed, and nothing was recorded as failed.
    expect(await failed()).toBe(failedBefore);
  });
});
