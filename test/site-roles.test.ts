import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { readCurrent } from '../core/site/layout.ts';
import { bearer } from './helpers/app.ts';
import { startLoggedTestApp, type CapturedLog } from './helpers/logged-app.ts';
import type { TestApp } from './helpers/app.ts';
import { buildSite } from '../jobs/site/builds.ts';
import { storeFakeReport, tempDataDir } from './site-fixtures.ts';

/**
 * An API-only process (ROLE=api) serves DATA_DIR/site but never builds it:
 * the workers build into their own DATA_DIR/site. Until that folder is shared
 * with it, it warns at start and answers every page, and every report page on
 * demand, with a 503 problem that says where the site is expected and how to
 * share it; once the workers' site is there (here: built into the same
 * folder, as a shared volume would make it), the same process serves it.
 */

let t: TestApp & { log: CapturedLog };
let data: Awaited<ReturnType<typeof tempDataDir>>;
let key: Record<string, string>;
let report: { reportId: string };

beforeAll(async () => {
  data = await tempDataDir('site-roles');
  t = await startLoggedTestApp({ DATA_DIR: data.dir, ROLE: 'api', RATE_LIMIT_PER_MINUTE: '100000' }, 'site_roles', 'info');
  key = bearer(await t.key());
  report = await storeFakeReport(t.db.pool, { name: 'Rowan Ferry Company', claims: 3 });
});
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('ROLE=api with a DATA_DIR whose site no worker builds', () => {
  const expected = () => path.join(data.dir, 'site', 'current', 'client');

  it('warns at start, naming the folder it serves', () => {
    const warning = t.log.records().find((r) => r.level === 40 && String(r.msg).includes('ROLE=api'));
    expect(warning).toBeDefined();
    expect(warning!.site).toBe(expected());
    expect(String(warning!.msg)).toMatch(/shared volume/);
  });

  it('answers pages and report pages on demand with a 503 problem saying where the site is expected and how to share it', async () => {
    for (const [url, headers] of [['/', {}], [`/reports/${report.reportId}/`, {}], [`/v1/reports/${report.reportId}/html`, key]] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toBe('30');
      const body = res.json();
      expect(body, url).toMatchObject({ status: 503, type: '/problems/unavailable', retry_after: 30 });
      expect(body.detail, url).toContain(expected());
      expect(body.detail, url).toMatch(/ROLE=api/);
      expect(body.detail, url).toMatch(/shared volume/);
      expect(body.detail, url).toMatch(/CDN/);
    }
  });

  it('serves the site as soon as the workers\' folder is there', async () => {
    await buildSite(t.db.pool, { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 2 }, { reason: 'test: a worker sharing the folder' });
    const home = await t.app.inject({ method: 'GET', url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Rowan Ferry Company');
    expect((await t.app.inject({ method: 'GET', url: `/v1/reports/${report.reportId}/html`, headers: key })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/no-such-page/' })).statusCode).toBe(404);
  });
});

describe('a live site built by another version of the service', () => {
  it('answers report pages and the search on demand with a 503 problem, never a 500, until it is rebuilt on this version', async () => {
    const current = await readCurrent(t.config.siteDir);
    expect(current).not.toBeNull();
    const file = path.join(current!.dir, 'build.json');
    const original = await readFile(file, 'utf8');
    // The build an older version left: its components cannot render this version's page data.
    await writeFile(file, JSON.stringify({ ...JSON.parse(original), site_version: 'an-older-version' }));
    try {
      for (const url of [`/v1/reports/${report.reportId}/html`, '/search?q=Rowan']) {
        const res = await t.app.inject({ method: 'GET', url, headers: url.startsWith('/v1') ? key : {} });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after'], url).toBe('30');
        expect(res.json(), url).toMatchObject({ status: 503, type: '/problems/unavailable' });
        expect(res.json().detail, url).toMatch(/another version of the service/);
      }
    } finally {
      await writeFile(file, original);
    }
    expect((await t.app.inject({ method: 'GET', url: `/v1/reports/${report.reportId}/html`, headers: key })).statusCode).toBe(200);
  });
});
