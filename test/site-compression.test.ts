import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDir, readCurrent, writeFileAtomic } from '../core/site/layout.ts';
import { buildSite, type SiteOptions } from '../jobs/site/builds.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { storeFakeReport, tempDataDir } from './site-fixtures.ts';

/**
 * Compression (issue #16, item 8): the static site's precompressed copies
 * and the API's negotiated compression, both by Accept-Encoding with
 * Vary: Accept-Encoding; robots.txt and sitemap.xml; the export still streams.
 */

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;
let key: Record<string, string>;
const reports: { reportId: string; subjectId: string }[] = [];
const SITE_URL = 'https://rs.example';

const live = async () => (await readCurrent(t.config.siteDir))!;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const decode = (enc: string | undefined, body: Buffer) => (enc === 'br' ? brotliDecompressSync(body) : enc === 'gzip' ? gunzipSync(body) : body);
/** Sizes measured here, printed once at the end (for the README and the issue). */
const sizes: Record<string, Record<string, number>> = {};

beforeAll(async () => {
  data = await tempDataDir('site-compression');
  t = await startTestApp({ DATA_DIR: data.dir, RATE_LIMIT_PER_MINUTE: '100000' }, 'site_compression');
  o = { siteDir: t.config.siteDir, siteUrl: SITE_URL, exportKeepDays: 2 };
  key = bearer(await t.key());
  // 30 claims: the typical report page of the README's figures.
  for (const name of ['Alder Water Company', 'Birch Transit Authority']) reports.push(await storeFakeReport(t.db.pool, { name, claims: 30 }));
  expect(await buildSite(t.db.pool, o, { reason: 'test' })).toMatchObject({ status: 'published', kind: 'full' });
}, 180_000);
afterAll(async () => {
  // eslint-disable-next-line no-console
  console.log(`measured sizes (bytes): ${JSON.stringify(sizes)}`);
  await t.close();
  await data.remove();
});

/** Fetches a URL raw, as br and as gzip; checks each decodes to the raw bytes; returns the sizes. */
async function negotiated(url: string, headers: Record<string, string> = {}) {
  const raw = await get(url, headers);
  expect(raw.statusCode).toBe(200);
  expect(raw.headers['content-encoding']).toBeUndefined();
  const out: Record<string, number> = { raw: raw.rawPayload.length };
  for (const enc of ['br', 'gzip'] as const) {
    const res = await get(url, { ...headers, 'accept-encoding': enc === 'br' ? 'gzip, deflate, br' : 'gzip;q=1, br;q=0' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding'], `${url} ${enc}`).toBe(enc);
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.rawPayload.length).toBeLessThan(raw.rawPayload.length / 3);
    expect(decode(enc, res.rawPayload).equals(raw.rawPayload)).toBe(true);
    out[enc] = res.rawPayload.length;
  }
  return { out, raw };
}

describe('the static site, precompressed', () => {
  it('a full build writes .br and .gz beside every page, not older than it', async () => {
    const client = clientDir((await live()).dir);
    for (const rel of [`reports/${reports[0]!.reportId}/index.html`, 'index.html', 'methodology/index.html']) {
      const page = await stat(path.join(client, rel));
      for (const ext of ['.br', '.gz']) expect((await stat(path.join(client, rel + ext))).mtimeMs).toBeGreaterThanOrEqual(page.mtimeMs);
    }
  });

  it('a report page comes back as br or gzip by Accept-Encoding, the same bytes once decoded, with Vary', async () => {
    const { out, raw } = await negotiated(`/reports/${reports[0]!.reportId}/`);
    expect(raw.headers['content-type']).toMatch(/^text\/html/);
    expect(raw.headers['content-security-policy']).toContain("script-src 'none'");
    // The uncompressed answer varies on Accept-Encoding too (a shared cache must not hand it to every client).
    expect(String(raw.headers.vary).toLowerCase()).toContain('accept-encoding');
    const br = await get(`/reports/${reports[0]!.reportId}/`, { 'accept-encoding': 'br' });
    expect(br.headers['content-type']).toMatch(/^text\/html/);
    expect(br.headers['content-security-policy']).toContain("script-src 'none'");
    sizes.report_page = out;
  });

  it('a client that accepts neither gets the page as it is', async () => {
    const res = await get('/', { 'accept-encoding': 'identity' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toContain('machine-generated, unreviewed');
  });

  it('a page replaced without its copies (as the nightly export does) is sent uncompressed, never the old bytes', async () => {
    const file = path.join(clientDir((await live()).dir), 'exports', 'index.html');
    const fresh = `${await readFile(file, 'utf8')}<!-- replaced -->`;
    await new Promise((r) => setTimeout(r, 20)); // mtime must move past the copies' (ms resolution)
    await writeFileAtomic(file, fresh);
    const res = await get('/exports/', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(fresh);
  });

  it('an incremental build writes fresh copies of the pages it renders and lists the new report in the sitemap', async () => {
    const added = await storeFakeReport(t.db.pool, { name: 'Cedar Ferry Lines', claims: 30 });
    expect(await buildSite(t.db.pool, o, { reason: 'test' })).toMatchObject({ status: 'published', kind: 'incremental' });
    const client = clientDir((await live()).dir);
    const page = path.join(client, 'index.html');
    const html = await readFile(page);
    expect(html.toString()).toContain(added.reportId);
    // The index was re-rendered: its copies are its own bytes, not the hard-linked older index's.
    expect(brotliDecompressSync(await readFile(`${page}.br`)).equals(html)).toBe(true);
    expect(gunzipSync(await readFile(`${page}.gz`)).equals(html)).toBe(true);
    const res = await get(`/reports/${added.reportId}/`, { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('machine-generated, unreviewed');
    expect((await get('/sitemap.xml')).body).toContain(`<loc>${SITE_URL}/reports/${added.reportId}/</loc>`);
    reports.push(added);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt allows the site, disallows /v1/ and /mcp, and names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.body.split('\n');
    expect(lines).toEqual(expect.arrayContaining(['User-agent: *', 'Allow: /', 'Disallow: /v1/', 'Disallow: /mcp', `Sitemap: ${SITE_URL}/sitemap.xml`]));
    expect(lines.filter((l) => l.startsWith('Disallow:'))).toEqual(['Disallow: /v1/', 'Disallow: /mcp']);
  });

  it('sitemap.xml lists every public page, absolute, and nothing under /v1 or /mcp', async () => {
    const res = await get('/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/xml/);
    const xml = gunzipSync(res.rawPayload).toString();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const expected = [
      '/', '/methodology/', '/methodology/measurement/', '/methodology/rating-scale/', '/exports/',
      ...reports.map((r) => `/reports/${r.reportId}/`), ...reports.map((r) => `/subjects/${r.subjectId}/`), '/browse/a/', '/browse/b/', '/browse/c/',
    ].map((p) => SITE_URL + p);
    expect([...locs].sort()).toEqual([...expected].sort());
    for (const l of locs) expect(new URL(l).pathname).not.toMatch(/^\/(v1|mcp)(\/|$)/);
    // Every page listed is served.
    for (const l of locs) expect((await get(new URL(l).pathname)).statusCode, l).toBe(200);
  });
});

describe('the API, negotiated', () => {
  it('a claims-list JSON page comes back as br or gzip, the same bytes once decoded, with Vary', async () => {
    const { out, raw } = await negotiated(`/v1/subjects/${reports[0]!.subjectId}/claims?page_size=50`, key);
    expect(raw.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(raw.body).claims.length).toBeGreaterThan(0);
    sizes.claims_json = out;
  });

  it('small answers and problem bodies are sent as they are, and still parse', async () => {
    const status = await get('/health', { 'accept-encoding': 'br, gzip' });
    expect(status.statusCode).toBe(200);
    expect(status.headers['content-encoding']).toBeUndefined();
    const missing = await get('/v1/subjects/sub_nonexistent', { ...key, 'accept-encoding': 'br, gzip' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = decode(missing.headers['content-encoding'] as string | undefined, missing.rawPayload);
    expect(JSON.parse(body.toString())).toMatchObject({ status: 404 });
  });

  it('the export still streams when compressed: chunked, no Content-Length, decodes to the uncompressed export', async () => {
    const plain = await get('/v1/export', key);
    expect(plain.statusCode).toBe(200);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    for (const enc of ['gzip', 'br'] as const) {
      const res = await new Promise<{ headers: Record<string, unknown>; chunks: Buffer[] }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/v1/export', headers: { ...key, 'accept-encoding': enc } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => resolve({ headers: r.headers, chunks }));
          r.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.headers['content-encoding']).toBe(enc);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers['content-length']).toBeUndefined();
      expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
      expect(decode(enc, Buffer.concat(res.chunks)).toString()).toBe(plain.body);
    }
  });
});
