import { createHash } from 'node:crypto';
import { open, readFile, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDir, readCurrent, writeFileAtomic } from '../core/site/layout.ts';
import { siteVersion } from '../core/site/version.ts';
import { QUEUES } from '../jobs/queues.ts';
import { requestSiteBuild, siteBelongsTo, startSiteWorkers } from '../jobs/site-build.ts';
import { loadConfig } from '../core/config.ts';
import { createTestDatabase } from './helpers/db.ts';
import { buildSite, type SiteOptions } from '../jobs/site/builds.ts';
import { runNightlyExport } from '../jobs/nightly-export.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';
import { createReadStream } from 'node:fs';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { startReportWorkers } from '../jobs/report-worker.ts';
import { storeFakeReport, storeReply, tempDataDir } from './site-fixtures.ts';

/**
 * Building the static site: full Astro builds, incremental builds that touch
 * only the pages a change affects, atomic publishing that keeps the last good
 * site on failure, coalesced build jobs, the nightly export, and the API that
 * serves it all.
 */

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;
let key: Record<string, string>;
const first: { reportId: string; subjectId: string }[] = [];

const site = () => path.join(data.dir, 'site');
const live = async () => (await readCurrent(site()))!;
const file = async (rel: string) => readFile(path.join(clientDir((await live()).dir), rel), 'utf8');
const published = async (reportId: string) => stat(path.join(clientDir((await live()).dir), 'reports', reportId, 'index.html')).then(() => true, () => false);
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  data = await tempDataDir('site-build');
  t = await startTestApp({ DATA_DIR: data.dir, RATE_LIMIT_PER_MINUTE: '100000', SITE_BUILD_DEBOUNCE_SECONDS: '3' }, 'site_build');
  o = { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 2 };
  key = bearer(await t.key());
  for (const name of ['Alder Water Company', 'Birch Transit Authority', 'Zeta Daily News']) first.push(await storeFakeReport(t.db.pool, { name, claims: 5 }));
});
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('before the first build', () => {
  it('every page, and a report page on demand, answers 503 with Retry-After and a problem saying the site is being built', async () => {
    for (const url of ['/', '/reports/rep_0000000000/', '/robots.txt']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('5');
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
      expect(res.json(), url).toMatchObject({ status: 503, type: '/problems/unavailable', retry_after: 5, detail: expect.stringMatching(/being built/) });
    }
    const html = await get(`/v1/reports/${first[0]!.reportId}/html`, key);
    expect(html.statusCode).toBe(503);
    expect(html.headers['retry-after']).toBe('5');
    expect(html.json().detail).toMatch(/being built/);
    // The API's own paths are not the site's: still the API's answers.
    expect((await get('/v1/index.html')).statusCode).toBe(401);
    expect((await get('/v1/index.html', key)).statusCode).toBe(404);
  });
});

describe('a full build', () => {
  it('publishes a page per report, per subject and per browse letter, the index, the methodology pages and the exports page', async () => {
    const r = await buildSite(t.db.pool, o, { reason: 'test' });
    expect(r).toMatchObject({ status: 'published', kind: 'full', pages: 3 + 3 + 3 + 5, rendered: 14 });
    const { manifest, dir } = await live();
    expect(manifest.site_version).toBe(siteVersion());
    expect((await readdir(path.join(clientDir(dir), 'reports'))).sort()).toEqual(first.map((f) => f.reportId).sort());
    for (const f of first) {
      expect(await file(`reports/${f.reportId}/index.html`)).toContain('machine-generated, unreviewed');
      expect(await file(`subjects/${f.subjectId}/index.html`)).toContain(`/reports/${f.reportId}/`);
    }
    expect((await readdir(path.join(clientDir(dir), 'browse'))).sort()).toEqual(['a', 'b', 'z']);
    for (const p of ['index.html', 'methodology/index.html', 'methodology/measurement/index.html', 'methodology/rating-scale/index.html', 'exports/index.html']) {
      expect((await stat(path.join(clientDir(dir), p))).size, p).toBeGreaterThan(1000);
    }
    expect(await file('methodology/index.html')).toContain('How the reliability score is made');
    // The live version is a link swapped into place; the record says what was built.
    expect(await readlink(path.join(site(), 'current'))).toBe(path.join('builds', manifest.build_id));
    const { rows } = await t.db.pool.query(`SELECT kind, status, pages, rendered FROM site_builds ORDER BY id`);
    expect(rows).toEqual([{ kind: 'full', status: 'published', pages: 14, rendered: 14 }]);
  });

  it('is served publicly at / with a strict Content-Security-Policy; unknown paths get 404 problems', async () => {
    const home = await get('/');
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.headers['content-security-policy']).toBe("default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect(home.body).toContain('Alder Water Company');
    const report = await get(`/reports/${first[0]!.reportId}/`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['cache-control']).toBe('no-cache');
    const css = /href="(\/_astro\/[^"]+\.css)"/.exec(report.body)![1]!;
    const sheet = await get(css);
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['cache-control']).toMatch(/immutable/);
    // Without the trailing slash: redirected to the folder's page.
    const bare = await get(`/reports/${first[0]!.reportId}`);
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe(`/reports/${first[0]!.reportId}/`);
    for (const url of ['/nope', '/reports/rep_nope/', '/%2e%2e/%2e%2e/etc/passwd', '/live', '/live/']) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['content-type'], url).toMatch(/^application\/problem\+json/);
    }
    // The site never answers for /v1: strangers still get the API's 401, key holders a 404.
    expect((await get('/v1/index.html')).statusCode).toBe(401);
    expect((await get('/v1/index.html', key)).statusCode).toBe(404);
    expect((await get(`/v1/reports/${first[0]!.reportId}/html`)).statusCode).toBe(401);
  });

  it('GET /v1/reports/{id}/html is the very page the build published', async () => {
    for (const f of first) {
      const res = await get(`/v1/reports/${f.reportId}/html`, key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toMatch(/script-src 'none'/);
      expect(res.body).toBe(await file(`reports/${f.reportId}/index.html`));
    }
    const missing = await get('/v1/reports/rep_0000000000/html', key);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, type: '/problems/not-found' });
  });
});

describe('incremental builds', () => {
  let added: { reportId: string; subjectId: string };

  it('a stored report has its page on demand at once, before any build', async () => {
    added = await storeFakeReport(t.db.pool, { name: 'Birch Valley Homes', claims: 4 });
    const res = await get(`/v1/reports/${added.reportId}/html`, key);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Birch Valley Homes');
    expect((await get(`/reports/${added.reportId}/`)).statusCode).toBe(404);
  });

  it('a build after one new report renders only the pages it touches and replaces them in place, one rename each', async () => {
    const before = await live();
    const ino = async (rel: string) => (await stat(path.join(clientDir(before.dir), rel))).ino;
    const untouched = await Promise.all([...first.map((f) => `reports/${f.reportId}/index.html`), 'browse/a/index.html', 'methodology/index.html'].map(async (rel) => [rel, await ino(rel)] as const));
    const oldBrowse = await ino('browse/b/index.html');
    // A reader that opened the old page before the build reads it whole after.
    const reader = await open(path.join(clientDir(before.dir), 'browse/b/index.html'), 'r');
    const r = await buildSite(t.db.pool, o, { reason: 'test' });
    // The report, its subject, its browse letter (b) and the index.
    expect(r).toMatchObject({ status: 'published', kind: 'incremental', rendered: 4, pages: 4 + 4 + 3 + 5, new_reports: [added.reportId] });
    const after = await live();
    expect(after.manifest.based_on).toBe(before.manifest.build_id);
    expect(after.manifest.build_id).not.toBe(before.manifest.build_id);
    // Published in place: the same folder, untouched files left as they were...
    expect(after.dir).toBe(before.dir);
    for (const [rel, inode] of untouched) expect(await ino(rel), rel).toBe(inode);
    // ...touched ones replaced by rename (a new file), the old one still whole for its reader.
    expect(await ino('browse/b/index.html')).not.toBe(oldBrowse);
    try {
      expect((await reader.readFile('utf8'))).not.toContain('Birch Valley Homes');
    } finally {
      await reader.close();
    }
    // Every version's manifest is kept, never changed; build.json is the newest.
    expect(JSON.parse(await readFile(path.join(after.dir, 'versions', `${before.manifest.build_id}.json`), 'utf8'))).toEqual(before.manifest);
    expect(JSON.parse(await readFile(path.join(after.dir, 'versions', `${after.manifest.build_id}.json`), 'utf8'))).toEqual(after.manifest);
    expect(await file('browse/b/index.html')).toContain('Birch Valley Homes');
    expect(await file('index.html')).toContain(`/reports/${added.reportId}/`);
    // The page rendered on demand and the published one are the same bytes.
    expect((await get(`/v1/reports/${added.reportId}/html`, key)).body).toBe(await file(`reports/${added.reportId}/index.html`));
    expect((await get(`/reports/${added.reportId}/`)).statusCode).toBe(200);
  });

  it('nothing changed: no new version', async () => {
    const before = (await live()).manifest.build_id;
    expect(await buildSite(t.db.pool, o, { reason: 'test' })).toMatchObject({ status: 'unchanged', rendered: 0 });
    expect((await live()).manifest.build_id).toBe(before);
  });

  it('a reply to a published claim re-renders that report\'s page only', async () => {
    const claim = first[1]!;
    const { rows } = await t.db.pool.query<{ claim_id: string }>('SELECT claim_id FROM claims WHERE report_id = $1 ORDER BY position LIMIT 1', [claim.reportId]);
    await storeReply(t.db.pool, rows[0]!.claim_id, claim.subjectId, { name: 'Press Office', role: 'Birch Transit Authority', statement: 'We published corrected figures on 3 March.' });
    expect(await buildSite(t.db.pool, o, { reason: 'test' })).toMatchObject({ status: 'published', kind: 'incremental', rendered: 1 });
    const page = await file(`reports/${claim.reportId}/index.html`);
    expect(page).toContain('We published corrected figures on 3 March.');
    expect(page).toContain('response received, not yet reviewed');
  });
});

describe('a failed build', () => {
  it('leaves the last good site live and no half-built version behind', async () => {
    const before = await live();
    const buildsBefore = (await readdir(path.join(site(), 'builds'))).sort();
    // A stored report whose page the components cannot render (it has no headline score).
    const broken = { subject: { subject_id: first[0]!.subjectId, name: 'Alder Water Company', kind: 'organisation', description: null }, score: null, scores: {} };
    await t.db.pool.query(`INSERT INTO reports (id, subject_id, method_version, depth, report) VALUES ('rep_broken0000000000001', $1, '1.0.0+x', 'quick', $2)`, [first[0]!.subjectId, JSON.stringify(broken)]);
    try {
      await expect(buildSite(t.db.pool, o, { reason: 'test: incremental' })).rejects.toThrow(/score/);
      await expect(buildSite(t.db.pool, o, { reason: 'test: full', full: true })).rejects.toThrow(/Astro build failed/);
    } finally {
      await t.db.pool.query(`DELETE FROM reports WHERE id = 'rep_broken0000000000001'`);
    }
    expect((await live()).manifest.build_id).toBe(before.manifest.build_id);
    expect((await readdir(path.join(site(), 'builds'))).sort()).toEqual(buildsBefore);
    expect((await get('/')).statusCode).toBe(200);
    expect((await get(`/reports/${first[0]!.reportId}/`)).statusCode).toBe(200);
    const { rows } = await t.db.pool.query(`SELECT kind, status, error FROM site_builds WHERE status = 'failed' ORDER BY id`);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['incremental', 'failed'], ['full', 'failed']]);
  });
});

describe('nightly export', () => {
  it('writes the JSON Lines and both CSV tables with a manifest (date, method version, counts, sha256), served publicly', async () => {
    const r = await runNightlyExport(t.db.pool, o, '2026-11-20');
    const m = r.manifest;
    expect(m).toMatchObject({ date: '2026-11-20', include_demo: false, counts: { subjects: 4, reports: 4, scores: 4 * 3, claims: 5 * 3 + 4 } });
    expect(m.method_version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(m.files.map((f) => f.name)).toEqual(['reliability-2026-11-20.jsonl', 'reliability-claims-2026-11-20.csv', 'reliability-scores-2026-11-20.csv', 'reliability-reviews-2026-11-20.csv']);
    for (const f of m.files) {
      const res = await get(f.path);
      expect(res.statusCode, f.path).toBe(200);
      expect(res.rawPayload.length).toBe(f.bytes);
      expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(f.sha256);
    }
    const jsonl = (await get(m.files[0]!.path)).body.trim().split('\n').map((l) => JSON.parse(l) as { record: string; review_status?: string });
    expect(jsonl.filter((x) => x.record === 'claim')).toHaveLength(19);
    expect(jsonl.filter((x) => x.record !== 'subject').every((x) => x.review_status === 'machine-generated, unreviewed')).toBe(true);
    expect((await get('/exports/2026-11-20/reliability-claims-2026-11-20.csv')).headers['content-type']).toMatch(/^text\/csv/);
    expect((await get('/exports/latest.json')).json()).toEqual(m);
    expect((await get('/exports/2026-11-20/manifest.json')).json()).toEqual(m);
    expect((await get('/exports/')).body).toContain(m.files[0]!.sha256);
    // Once there is an export, its page links the newest manifest.
    expect((await get('/exports/')).body).toContain('href="/exports/latest.json"');
    expect((await get('/')).body).toContain('/exports/2026-11-20/reliability-2026-11-20.jsonl');
  });

  it('keeps the newest nights, and a full rebuild (the site code changed) carries them over', async () => {
    await runNightlyExport(t.db.pool, o, '2026-11-21');
    await runNightlyExport(t.db.pool, o, '2026-11-22');
    const dir = path.join(clientDir((await live()).dir), 'exports');
    expect((await readdir(dir)).filter((n) => /^\d/.test(n)).sort()).toEqual(['2026-11-21', '2026-11-22']);
    // A site published by other site code (its version differs) is rebuilt in full, with Astro.
    const cur = await live();
    await writeFileAtomic(path.join(cur.dir, 'build.json'), JSON.stringify({ ...cur.manifest, site_version: '0000000000000000' }));
    expect(await buildSite(t.db.pool, o, { reason: 'test' })).toMatchObject({ status: 'published', kind: 'full' });
    expect((await live()).manifest.site_version).toBe(siteVersion());
    expect((await get('/exports/2026-11-22/manifest.json')).statusCode).toBe(200);
    expect((await get('/exports/latest.json')).json()).toMatchObject({ date: '2026-11-22' });
    expect((await get('/exports/')).body).toContain('2026-11-21');
  });

  it('is scheduled nightly in UTC', async () => {
    await startSiteWorkers(t.boss, t.db.pool, undefined, t.config);
    const schedules = await t.boss.getSchedules();
    expect(schedules.find((s) => s.name === QUEUES.export)).toMatchObject({ cron: '30 2 * * *', timezone: 'UTC' });
  });
});

describe('build jobs', () => {
  it('build only into a site folder of their own database', async () => {
    const other = await createTestDatabase('site_other');
    try {
      expect(await siteBelongsTo(t.db.pool, t.config)).toBe(true);
      // Another database pointed at the same DATA_DIR: the folder is not its to write.
      expect(await siteBelongsTo(other.pool, loadConfig({ DATABASE_URL: other.url, DATA_DIR: data.dir }))).toBe(false);
      // Embedded mode: only the database kept in DATA_DIR/pg may build there.
      expect(await siteBelongsTo(t.db.pool, loadConfig({ DATA_DIR: data.dir }))).toBe(false);
      expect(JSON.parse(await readFile(path.join(site(), 'owner.json'), 'utf8'))).toMatchObject({ database_id: expect.any(String) });
    } finally {
      await other.drop();
    }
  });

  it('a burst of finished reports is coalesced into at most two builds, which publish them all', async () => {
    // The workers started above; let their start-up build settle first.
    const count = async () => (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [QUEUES.siteBuild])).rows[0]!.n;
    await until(async () => (await t.db.pool.query(`SELECT 1 FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`, [QUEUES.siteBuild])).rowCount === 0, 'the start-up build');
    const jobsBefore = await count();
    const buildsBefore = (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM site_builds`)).rows[0]!.n;
    // pg-boss debounces in fixed slots of SITE_BUILD_DEBOUNCE_SECONDS (3 s here): start the burst at
    // the start of one, so that it falls within a single slot, as a burst of reports does in practice.
    await until(async () => Date.now() % 3000 < 400, 'the start of a debounce slot', 5000, 20);
    const burst: { reportId: string }[] = [];
    for (let i = 0; i < 8; i++) {
      burst.push(await storeFakeReport(t.db.pool, { name: `Burst Subject ${i}`, claims: 2 }));
      // As the report worker does after each job.
      await requestSiteBuild(t.boss, { reason: `report ${i}` });
    }
    await until(async () => {
      return (await Promise.all(burst.map((b) => published(b.reportId)))).every(Boolean);
    }, 'the burst to be published', 40_000, 200);
    expect((await count()) - jobsBefore).toBeLessThanOrEqual(2);
    const builds = (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM site_builds WHERE status = 'published'`)).rows[0]!.n;
    expect(builds - buildsBefore).toBeLessThanOrEqual(2);
    for (const b of burst) expect((await get(`/reports/${b.reportId}/`)).statusCode).toBe(200);
  });

  it('a report job that finishes publishes its page (the report worker asks for the build)', async () => {
    await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
    await startReportWorkers(t.boss, t.db.pool);
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers: key, payload: { name: 'Brightwater Utilities' } });
    expect(res.statusCode).toBe(202);
    const job = await until(async () => {
      const body = (await get(`/v1/reports/${res.json().job_id}`, key)).json() as { status: string; report_id: string | null };
      return body.status === 'complete' ? body : undefined;
    }, 'the report job', 60_000, 100);
    const page = await until(async () => {
      const r = await get(`/reports/${job.report_id}/`);
      return r.statusCode === 200 ? r.body : undefined;
    }, 'its page to be published', 30_000, 100);
    expect(page).toContain('Brightwater Utilities');
    expect((await get(`/v1/reports/${job.report_id}/html`, key)).body).toBe(page);
  });
});

describe('reports on one topic', () => {
  it('an incremental build publishes their pages, but never as a subject\'s headline; a subject with only such reports is not browsed', async () => {
    const [alder] = first;
    const onTopic = await storeFakeReport(t.db.pool, { name: 'Alder Water Company', claims: 2, score: 12.5, topic: 'environment' });
    const only = await storeFakeReport(t.db.pool, { name: 'Quince Topic Trust', claims: 2, score: 13.5, topic: 'housing' });
    // Site workers run in this file, so a build they started may publish these first: either way, the site below is what a build makes of them.
    expect(['published', 'unchanged']).toContain((await buildSite(t.db.pool, o, { reason: 'test: topics' })).status);
    expect(await published(onTopic.reportId)).toBe(true);
    expect(await published(only.reportId)).toBe(true);
    expect(await file(`reports/${onTopic.reportId}/index.html`)).toContain('data-report-topic="environment"');
    const subject = await file(`subjects/${alder!.subjectId}/index.html`);
    const headline = subject.slice(subject.indexOf('id="latest-h"'), subject.indexOf('id="reports-h"'));
    expect(headline).toContain(`href="/reports/${alder!.reportId}/"`);
    expect(headline).not.toContain('12.5');
    expect(subject).toContain(`href="/reports/${onTopic.reportId}/"`);
    expect(await file(`subjects/${only.subjectId}/index.html`)).toMatch(/There is no report on Quince Topic Trust.{1,8}s whole record yet/);
    expect((await get('/browse/q/')).statusCode).toBe(404);
    expect(await file('browse/a/index.html')).not.toContain('12.5');
    const index = await file('index.html');
    expect(index).not.toContain(`/reports/${onTopic.reportId}/`);
    expect(index).not.toContain(`/reports/${only.reportId}/`);
  });
});
