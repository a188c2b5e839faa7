import { createHash } from 'node:crypto';
import { readFile, readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDir, readCurrent, siteLayout, type BuildManifest } from '../core/site/layout.ts';
import { buildSite, readOnlySnapshot, type SiteOptions } from '../jobs/site/builds.ts';
import { planIncremental, stageIncremental, versionManifest } from '../jobs/site/incremental.ts';
import { Journal, applyJournal } from '../jobs/site/journal.ts';
import { stageSitemapAdditions } from '../jobs/site/sitemap.ts';
import { runNightlyExport } from '../jobs/nightly-export.ts';
import { newBuildId } from '../core/site/layout.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { storeFakeReport, storeReply, tempDataDir } from './site-fixtures.ts';

/**
 * Publishing in place (jobs/site/journal.ts, jobs/site/incremental.ts): an
 * incremental build writes the bytes a full build would, from the page data
 * it keeps beside the pages rather than from the whole database; a build that
 * fails midway leaves the previous site whole, file for file; one cut off
 * after its commit point is finished by the next build; and while a version
 * is being applied, no published page links to a page that is not there.
 */

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;

const live = async () => (await readCurrent(o.siteDir))!;
const client = async () => clientDir((await live()).dir);

/** Every file of a tree (relative path → sha256), the journal's staging area and page data included when asked. */
async function tree(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(path.relative(root, p), createHash('sha256').update(await readFile(p)).digest('hex'));
    }
  };
  await walk(root);
  return out;
}

/** The pages of the site (HTML only: the pages a full and an incremental build must agree on). */
async function pages(): Promise<Map<string, string>> {
  const all = await tree(await client());
  return new Map([...all].filter(([rel]) => rel.endsWith('index.html') && /^(reports|subjects|browse)\/|^index\.html$/.test(rel)));
}

/** Links from the site's pages (or these of them) to report, subject and browse pages that have no file. */
async function brokenLinks(from?: Iterable<string>): Promise<string[]> {
  const root = await client();
  const broken: string[] = [];
  for (const rel of from ?? (await pages()).keys()) {
    const html = await readFile(path.join(root, rel), 'utf8').catch(() => '');
    for (const m of html.matchAll(/href="\/((?:reports|subjects|browse)\/[a-z0-9_]+\/)"/g)) {
      if (!(await stat(path.join(root, m[1]!, 'index.html')).then(() => true, () => false))) broken.push(`${rel} → /${m[1]}`);
    }
  }
  return broken;
}

beforeAll(async () => {
  data = await tempDataDir('site-publish');
  t = await startTestApp({ DATA_DIR: data.dir }, 'site_publish');
  o = { siteDir: t.config.siteDir, siteUrl: 'https://reliability.example', exportKeepDays: 2 };
  for (const name of ['Ash Grove Council', 'Beech Rail', 'Cobalt Times', 'Aspen Health Trust']) await storeFakeReport(t.db.pool, { name, claims: 3 });
  await buildSite(t.db.pool, o, { reason: 'test: first' });
});
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('an incremental build', () => {
  it('publishes the very bytes a full build writes: reports, subjects, browse letters and the index', async () => {
    const ash = (await t.db.pool.query<{ id: string }>(`SELECT id FROM subjects WHERE name = 'Ash Grove Council'`)).rows[0]!.id;
    // A new subject in a letter that has some, one in a new letter, a newer report for a known subject
    // (its headline changes), a report on one topic, and a reply on a published claim.
    await storeFakeReport(t.db.pool, { name: 'Alder Mills', claims: 2, score: 44.5 });
    await storeFakeReport(t.db.pool, { name: 'Quarry Lane Press', claims: 2 });
    await storeFakeReport(t.db.pool, { name: 'Ash Grove Council', claims: 4, score: 71.5 });
    await storeFakeReport(t.db.pool, { name: 'Beech Rail', claims: 2, topic: 'transport', score: 12.5 });
    const { rows } = await t.db.pool.query<{ claim_id: string }>(`SELECT c.claim_id FROM claims c JOIN reports r ON r.id = c.report_id WHERE r.subject_id = (SELECT id FROM subjects WHERE name = 'Cobalt Times') LIMIT 1`);
    await storeReply(t.db.pool, rows[0]!.claim_id, (await t.db.pool.query<{ id: string }>(`SELECT id FROM subjects WHERE name = 'Cobalt Times'`)).rows[0]!.id, { name: 'Desk', statement: 'Corrected on 2 May.' });

    const inc = await buildSite(t.db.pool, o, { reason: 'test: incremental' });
    expect(inc).toMatchObject({ status: 'published', kind: 'incremental' });
    expect(inc.new_reports).toHaveLength(4);
    const incremental = await pages();
    const sitemap = await readFile(path.join(await client(), 'sitemap.xml'), 'utf8');
    expect(await readFile(path.join(await client(), 'index.html'), 'utf8')).toContain('Quarry Lane Press');
    expect(await readFile(path.join(await client(), 'subjects', ash, 'index.html'), 'utf8')).toContain('71.5');

    // Every page rendered from the database (not taken from the live version by the page cache).
    const full = await buildSite(t.db.pool, o, { reason: 'test: full, to compare', full: true, cache: false });
    expect(full).toMatchObject({ status: 'published', kind: 'full', pages: inc.pages });
    const rebuilt = await pages();
    expect([...incremental.keys()].sort()).toEqual([...rebuilt.keys()].sort());
    for (const [rel, hash] of rebuilt) expect(incremental.get(rel), rel).toBe(hash);
    const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]).sort();
    expect(locs(sitemap)).toEqual(locs(await readFile(path.join(await client(), 'sitemap.xml'), 'utf8')));
  });
});

describe('what changed, read from the database', () => {
  it('a report whose transaction began before a build and committed after it is published by the next build', async () => {
    const tx = await t.db.pool.connect();
    const late = 'rep_late0000000000000001';
    const cobalt = (await t.db.pool.query<{ id: string; subject_id: string }>(`SELECT r.id, r.subject_id FROM reports r JOIN subjects s ON s.id = r.subject_id WHERE s.name = 'Cobalt Times'`)).rows[0]!;
    try {
      await tx.query('BEGIN');
      // Written first (its generated_at is older than the report stored after it), committed last.
      await tx.query(`INSERT INTO reports (id, subject_id, method_version, depth, report) SELECT $1, subject_id, method_version, depth, report FROM reports WHERE id = $2`, [late, cobalt.id]);
      const early = await storeFakeReport(t.db.pool, { name: 'Hornbeam Early Foods', claims: 2 });
      expect(await buildSite(t.db.pool, o, { reason: 'test: while one is open' })).toMatchObject({ status: 'published', new_reports: [early.reportId] });
      await tx.query('COMMIT');
    } catch (err) {
      await tx.query('ROLLBACK');
      throw err;
    } finally {
      tx.release();
    }
    expect(await buildSite(t.db.pool, o, { reason: 'test: after it committed' })).toMatchObject({ status: 'published', kind: 'incremental', new_reports: [late] });
    expect(await readFile(path.join(await client(), 'subjects', cobalt.subject_id, 'index.html'), 'utf8')).toContain(`/reports/${late}/`);
  });
});

describe('a build that fails midway', () => {
  it('leaves the previous site whole, file for file, and nothing staged behind', async () => {
    const before = await live();
    const files = await tree(before.dir);
    // Two new reports: the first renders (its page is staged), the second cannot (it has no headline score).
    const good = await storeFakeReport(t.db.pool, { name: 'Elm Water', claims: 2 });
    const broken = { subject: { subject_id: good.subjectId, name: 'Elm Water', kind: 'organisation', description: null }, score: null, scores: {} };
    await t.db.pool.query(`INSERT INTO reports (id, subject_id, method_version, depth, report, generated_at) VALUES ('rep_broken0000000000002', $1, '1.0.0+x', 'quick', $2, now() + interval '1 second')`, [good.subjectId, JSON.stringify(broken)]);
    try {
      await expect(buildSite(t.db.pool, o, { reason: 'test: fails midway' })).rejects.toThrow(/score/);
    } finally {
      await t.db.pool.query(`DELETE FROM reports WHERE id = 'rep_broken0000000000002'`);
    }
    const after = await live();
    expect(after.manifest).toEqual(before.manifest);
    expect(await tree(after.dir)).toEqual(files);
    expect(await stat(path.join(await client(), 'reports', good.reportId)).catch(() => null)).toBeNull();
    // The removal made since can only be published by a full build; it publishes the good report.
    expect(await buildSite(t.db.pool, o, { reason: 'test: after the failure' })).toMatchObject({ status: 'published', kind: 'full', new_reports: [good.reportId] });
  });
});

describe('a full build whose render threads fail', () => {
  it('removes its half-built folder, stops writing, and leaves the live site as it was', async () => {
    const before = await live();
    const files = await tree(before.dir);
    const builds = (await readdir(path.join(o.siteDir, 'builds'))).sort();
    // A report the index and its subject's page can show (its headline is whole), but one of whose scores its own
    // page cannot draw (no range): Astro's pages build, and the report's page fails in a render thread.
    const bad = await storeFakeReport(t.db.pool, { name: 'Hazel Canal Trust', claims: 2 });
    await t.db.pool.query(`UPDATE reports SET report = jsonb_set(report, '{scores,factual,interval_80}', 'null') WHERE id = $1`, [bad.reportId]);
    try {
      const err = await buildSite(t.db.pool, o, { reason: 'test: render threads fail', full: true }).then(() => null, (e: Error) => e);
      // The report's page failed (its missing range), not Astro's build.
      expect(err?.message).toMatch(/Cannot read properties of null/);
      expect(err?.message).not.toMatch(/Astro build failed/);
    } finally {
      await t.db.pool.query(`DELETE FROM reports WHERE id = $1`, [bad.reportId]);
    }
    expect((await live()).manifest).toEqual(before.manifest);
    expect(await tree(before.dir)).toEqual(files);
    expect((await readdir(path.join(o.siteDir, 'builds'))).sort()).toEqual(builds);
    expect(await readdir(siteLayout(o.siteDir).work).catch(() => [])).toEqual([]);
    // The removal can only be published by a full build.
    expect(await buildSite(t.db.pool, o, { reason: 'test: after the failure' })).toMatchObject({ status: 'published', kind: 'full' });
  });
});

describe('a version cut off while it is applied', () => {
  let manifest: BuildManifest;

  it('never shows, on a page the site already had, a link to a page that is not there yet, at any step', async () => {
    await storeFakeReport(t.db.pool, { name: 'Fir Buses', claims: 2 });
    await storeFakeReport(t.db.pool, { name: 'Alder Mills', claims: 2, score: 33.5 });
    const current = await live();
    const plan = await readOnlySnapshot(t.db.pool, (tx) => planIncremental(tx, o, current));
    if (plan === null || plan === 'full') throw new Error(`expected an incremental plan, got ${plan}`);
    const journal = await stageIncremental(o, current, plan);
    manifest = versionManifest(current, plan, journal.id, 0);
    await journal.prepare(manifest);
    // The pages a reader can reach before the version: while it is applied, none may link to a missing page.
    const reachable = [...(await pages()).keys()];
    const seen: string[][] = [];
    // The process "dies" after the third rename: the observer throws, as a killed process stops.
    await expect(applyJournal(current.dir, journal.id, {
      afterEach: async (done) => {
        seen.push(await brokenLinks(reachable));
        if (done === 3) throw new Error('killed mid-publish');
      },
    })).rejects.toThrow('killed mid-publish');
    expect(seen).toHaveLength(3);
    for (const step of seen) expect(step).toEqual([]);
    // The live version is still the old one: its manifest was not replaced.
    expect((await live()).manifest).toEqual(current.manifest);
  });

  it('is finished by the next build, whole, before anything else is published', async () => {
    const r = await buildSite(t.db.pool, o, { reason: 'test: after the crash' });
    // Nothing was left to do once the cut-off version was finished.
    expect(r.status).toBe('unchanged');
    const now = await live();
    expect(now.manifest).toEqual(manifest);
    expect(await readdir(path.join(now.dir, 'journal'))).toEqual([]);
    expect(await brokenLinks()).toEqual([]);
    expect(await readFile(path.join(await client(), 'index.html'), 'utf8')).toContain('Fir Buses');
    expect(JSON.parse(await readFile(path.join(now.dir, 'versions', `${manifest.build_id}.json`), 'utf8'))).toEqual(manifest);
  });

  it('a version staged but never committed (its process died before the commit point) is dropped, and nothing of it published', async () => {
    const current = await live();
    const files = await tree(clientDir(current.dir));
    const staged = path.join(current.dir, 'journal', '20261124000000000-deadbeef', 'files', 'client');
    await mkdir(staged, { recursive: true });
    await writeFile(path.join(staged, 'index.html'), '<p>half a build</p>');
    expect((await buildSite(t.db.pool, o, { reason: 'test: after an uncommitted crash' })).status).toBe('unchanged');
    expect(await readdir(path.join(current.dir, 'journal'))).toEqual([]);
    expect(await tree(clientDir(current.dir))).toEqual(files);
  });
});

describe('the sitemap of a growing site', () => {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  const read = async (rel: string) => readFile(path.join(await client(), rel), 'utf8');
  const add = async (paths: string[]) => {
    const current = await live();
    const j = await Journal.open(current.dir, newBuildId());
    // A tail of 3 addresses, so that a small site shows what a large one does past 1,000.
    await stageSitemapAdditions(j, clientDir(current.dir), paths, o.siteUrl, 3);
    await j.commit({ ...current.manifest, build_id: j.id, based_on: current.manifest.build_id });
  };

  it('becomes an index once it outgrows its tail: the old sitemap its first part, as it was, the new addresses in a part of their own, then appended to it', async () => {
    const before = await read('sitemap.xml');
    expect(before).toContain('<urlset');
    await add(['/reports/rep_x1/', '/reports/rep_x2/']);
    const index = await read('sitemap.xml');
    expect(index).toContain('<sitemapindex');
    expect(locs(index)).toEqual(['https://reliability.example/sitemaps/sitemap-1.xml', 'https://reliability.example/sitemaps/sitemap-2.xml']);
    expect(await read('sitemaps/sitemap-1.xml')).toBe(before);
    expect(locs(await read('sitemaps/sitemap-2.xml'))).toEqual(['https://reliability.example/reports/rep_x1/', 'https://reliability.example/reports/rep_x2/']);
    // One more fits the tail part; two more do not, and start a third part.
    await add(['/reports/rep_x3/']);
    expect(locs(await read('sitemaps/sitemap-2.xml'))).toHaveLength(3);
    await add(['/reports/rep_x4/', '/subjects/sub_x4/']);
    expect(locs(await read('sitemap.xml'))).toHaveLength(3);
    expect(locs(await read('sitemaps/sitemap-3.xml'))).toEqual(['https://reliability.example/reports/rep_x4/', 'https://reliability.example/subjects/sub_x4/']);
    // The index is too small for compressed copies: the old sitemap's copies went with it (a CDN would send them).
    expect((await read('sitemap.xml')).length).toBeLessThan(1024);
    for (const ext of ['.gz', '.br']) expect(await stat(path.join(await client(), `sitemap.xml${ext}`)).catch(() => null), ext).toBeNull();
    expect(await stat(path.join(await client(), 'sitemaps', 'sitemap-1.xml.gz'))).toBeTruthy();
  });
});

describe('the nightly export, published in place', () => {
  it('adds the night to the live folder (no copy of the site), and made again the same night, replaces its files whole', async () => {
    const before = await live();
    const first = await runNightlyExport(t.db.pool, o, '2026-11-23');
    const after = await live();
    expect(after.dir).toBe(before.dir);
    expect(after.manifest).toMatchObject({ kind: 'export', build_id: first.build_id, based_on: before.manifest.build_id });
    const manifestOf = async () => JSON.parse(await readFile(path.join(await client(), 'exports', '2026-11-23', 'manifest.json'), 'utf8')) as { counts: { reports: number }; generated_at: string };
    expect((await manifestOf()).counts.reports).toBe(first.manifest.counts.reports);
    await storeFakeReport(t.db.pool, { name: 'Juniper Night Ferries', claims: 2 });
    const again = await runNightlyExport(t.db.pool, o, '2026-11-23');
    expect(again.manifest.counts.reports).toBe(first.manifest.counts.reports + 1);
    expect(await manifestOf()).toEqual(again.manifest);
    expect(JSON.parse(await readFile(path.join(await client(), 'exports', 'latest.json'), 'utf8'))).toEqual(again.manifest);
    expect(await readFile(path.join(await client(), 'index.html'), 'utf8')).toContain('Juniper Night Ferries');
    expect(await readdir(path.join((await live()).dir, 'journal'))).toEqual([]);
  });
});
