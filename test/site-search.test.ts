import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import type { LightMyRequestResponse } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../jobs/site/builds.ts';
import { SEARCH_PAGE_SIZE } from '../core/site/search-page.ts';
import { subjectSearchCountSql } from '../core/subjects.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { HOSTILE, LAUNCH, addSubject, storeFakeReport, storeHostileReport, tempDataDir } from './site-fixtures.ts';

/**
 * The site's search (GET /search, core/site/search-page.ts): found by name
 * and alias, accents and case aside, best matches first, a page at a time;
 * refused queries answered 422 with the same page; stored names escaped; and
 * in a real browser with JavaScript off, from the header's form on the home
 * page to a subject's page, with axe-core's checks at 1280 and 390 px.
 */

const SHOTS = path.resolve(import.meta.dirname, '..', 'test-artifacts', 'site-screenshots');
const RATE = 300;

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let base: string;
let beforeBuild: LightMyRequestResponse;
const ids: Record<string, string> = {};
const reports: Record<string, string> = {};

const get = (url: string, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'GET', url, remoteAddress });
const search = (q: string, extra = '') => get(`/search?q=${encodeURIComponent(q)}${extra}`);
/** The subject ids of the hits, in the page's order. */
const hitIds = (html: string) => [...html.matchAll(/data-search-hit="([^"]+)"/g)].map((m) => m[1]!);
const setAliases = (id: string, aliases: string[]) => t.db.pool.query('UPDATE subjects SET aliases = $2 WHERE id = $1', [id, aliases]);

async function report(name: string, over: { kind?: 'person' | 'organisation' | 'outlet'; score?: number; topic?: string } = {}) {
  const r = await storeFakeReport(t.db.pool, { name, claims: 2, ...over });
  ids[name] = r.subjectId;
  reports[name] = r.reportId;
  return r;
}

beforeAll(async () => {
  data = await tempDataDir('site-search');
  t = await startTestApp({ DATA_DIR: data.dir, RATE_LIMIT_PER_MINUTE: String(RATE) }, 'site_search');
  beforeBuild = await search('avery');
  // Ordering: an exact name, a prefix, a word's prefix, a substring, and one that does not match.
  for (const name of ['Bravery Foundation', 'Jordan Avery', 'Avery Bridge Trust', 'Avery', 'Harbour Light Ferries']) await report(name, { score: 64.3 });
  await report('Northern Rail Holdings', { score: 41.5 });
  await setAliases(ids['Northern Rail Holdings']!, ['NRH Group']);
  await report('Zoë Ångström', { kind: 'person', score: 70.1 });
  await report('Straßenbahn Verein');
  await report('Ingrid Topicsson', { kind: 'person', topic: 'housing' });
  for (let i = 1; i <= 45; i++) await report(`Pager Test ${String(i).padStart(2, '0')}`);
  await storeHostileReport(t.db.pool);
  // Not published, so never found: a demo subject, and a subject of the corpus with no report.
  await report('Avery Demo Set');
  await t.db.pool.query('UPDATE subjects SET demo = true WHERE id = $1', [ids['Avery Demo Set']]);
  ids['Avery Unreported'] = await addSubject(t.db.pool, 'Avery Unreported');
  await buildSite(t.db.pool, { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 7 }, { reason: 'test' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}, 180_000);
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('GET /search', () => {
  it('answers 503 with Retry-After before the site is built, as every page does', () => {
    expect(beforeBuild.statusCode).toBe(503);
    expect(beforeBuild.headers['retry-after']).toBe('5');
  });

  it('is public, HTML with the site\'s CSP (forms to the site only), and not in the OpenAPI document', async () => {
    const res = await search('avery');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    expect(res.body).toMatch(/<form class="site-search" action="\/search" method="get" role="search"/);
    // The query is shown again in the header's box.
    expect(res.body).toMatch(/<input id="site-search-q" name="q" type="search"[^>]* value="avery"/);
    const doc = (await get('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/search'))).toBe(false);
  });

  it('orders an exact name first, then a prefix, a word\'s prefix, then any substring; unpublished subjects are never found', async () => {
    const res = await search('avery');
    expect(hitIds(res.body)).toEqual([ids['Avery'], ids['Avery Bridge Trust'], ids['Jordan Avery'], ids['Bravery Foundation']]);
    expect(res.body).toContain('4 subjects match');
    // Whitespace and case do not matter.
    expect(hitIds((await search('  AVERY  bridge ')).body)).toEqual([ids['Avery Bridge Trust']]);
  });

  it('shows each hit\'s name, kind, headline score with its range and review label, and links to the subject and its latest report', async () => {
    const html = (await search('Avery Bridge')).body;
    const hit = html.slice(html.indexOf('data-search-hit='), html.indexOf('</li>', html.indexOf('data-search-hit=')));
    expect(hit).toContain(`href="/subjects/${ids['Avery Bridge Trust']}/"`);
    expect(hit).toContain(`href="/reports/${reports['Avery Bridge Trust']}/"`);
    expect(hit).toContain('>Avery Bridge Trust</a>');
    expect(hit).toContain('<span class="tag">organisation</span>');
    expect(hit).toMatch(/<strong data-hit-score>64\.3<\/strong> \(80% range 52\.3–73\.3\)/);
    expect(hit).toContain('machine-generated, unreviewed');
  });

  it('lists a subject with reports on single topics only without a headline, linking its page', async () => {
    const html = (await search('topicsson')).body;
    expect(hitIds(html)).toEqual([ids['Ingrid Topicsson']]);
    expect(html).toContain('No report on the whole record yet');
    expect(html).not.toContain(`/reports/${reports['Ingrid Topicsson']}/`);
  });

  it('finds a subject by an alias, and says which alias matched', async () => {
    const html = (await search('nrh')).body;
    expect(hitIds(html)).toEqual([ids['Northern Rail Holdings']]);
    expect(html).toMatch(/also known as <span data-matched-alias>NRH Group<\/span>/);
    // Found by its name, no alias is named.
    expect((await search('northern rail')).body).not.toContain('also known as');
  });

  it('ignores accents and case, both ways', async () => {
    for (const q of ['zoe angstrom', 'ZOË', 'Zoë Ångström', 'ångstrom', 'ANGSTROM']) expect(hitIds((await search(q)).body), q).toEqual([ids['Zoë Ångström']]);
    expect(hitIds((await search('strassenbahn')).body)).toEqual([ids['Straßenbahn Verein']]);
  });

  it('takes the term literally: % and _ are not wildcards', async () => {
    for (const q of ['%', 'Pager%', 'Pager_Test', '%%%']) {
      const res = await search(q);
      expect(res.statusCode, q).toBe(200);
      expect(hitIds(res.body), q).toEqual([]);
    }
    // Only the one name with an underscore in it (the hostile one's `window.__xss`).
    expect((await search('_')).body).toContain('1 subject matches');
  });

  it(`pages ${SEARCH_PAGE_SIZE} a page, with next and previous links; a page past the last links back to the first`, async () => {
    const p1 = (await search('pager test')).body;
    expect(hitIds(p1)).toEqual(Array.from({ length: 20 }, (_, i) => ids[`Pager Test ${String(i + 1).padStart(2, '0')}`]));
    expect(p1).toContain('45 subjects match; 1–20 shown, page 1 of 3');
    expect(p1).toContain('<a href="/search?q=pager+test&amp;page=2" rel="next">');
    expect(p1).not.toContain('rel="prev"');
    const p2 = (await search('pager test', '&page=2')).body;
    expect(hitIds(p2)[0]).toBe(ids['Pager Test 21']);
    expect(p2).toContain('<a href="/search?q=pager+test" rel="prev">');
    expect(p2).toContain('<a href="/search?q=pager+test&amp;page=3" rel="next">');
    const p3 = (await search('pager test', '&page=3')).body;
    expect(hitIds(p3)).toEqual(['41', '42', '43', '44', '45'].map((n) => ids[`Pager Test ${n}`]));
    expect(p3).toContain('<ol class="search-results" start="41">');
    expect(p3).not.toContain('rel="next"');
    const past = await search('pager test', '&page=9');
    expect(past.statusCode).toBe(200);
    expect(hitIds(past.body)).toEqual([]);
    expect(past.body).toContain('Page 9 is past the last page of results (3)');
    expect(past.body).toContain('<a href="/search?q=pager+test">Back to the first page</a>');
  });

  it('says clearly when nothing matches, and links the browse-by-letter index', async () => {
    const res = await search('no such subject anywhere');
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<p data-search-none>No subject matches “no such subject anywhere”/);
    expect(res.body).toContain('<a href="/#browse" data-browse-link>all subjects, A to Z</a>');
  });

  it('renders a hostile stored name and a hostile query as text', async () => {
    const res = await search('Evil <img');
    expect(hitIds(res.body)).toHaveLength(1);
    expect(res.body).toContain('Evil &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt; &amp; &quot;Co&quot;');
    expect(res.body).not.toContain(HOSTILE.name);
    const q = '"><script>window.__xss=1</script><img src=x onerror=alert(1)>';
    const attack = await search(q);
    expect(attack.statusCode).toBe(200);
    // Text escaped; in the quoted attribute the quote is (its `<` cannot end it). The browser test below runs both pages.
    expect(attack.body).toContain('<h1>Subjects matching “&quot;&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;”</h1>');
    expect(attack.body).toContain('value="&quot;><script>window.__xss=1</script><img src=x onerror=alert(1)>"');
    expect(attack.body.split('<script').length - 1).toBe(1);
  });

  it('answers 422 with the search page, saying what to correct, for an empty, over-long or repeated q, or a bad page', async () => {
    const cases: [string, RegExp][] = [
      ['/search', /Type a name/],
      ['/search?q=', /Type a name/],
      ['/search?q=%20%20%09', /Type a name/],
      [`/search?q=${'a'.repeat(101)}`, /101 characters long; use at most 100/],
      [`/search?q=${encodeURIComponent('é'.repeat(101))}`, /101 characters long/],
      ['/search?q=a&q=b', /more than once/],
      ['/search?q=avery&page=0', /page must be a whole number from 1 to 10000/],
      ['/search?q=avery&page=abc', /page must be a whole number/],
      ['/search?q=avery&page=10001', /page must be a whole number/],
      ['/search?q=avery&page=1&page=2', /page must be a whole number/],
    ];
    for (const [url, problem] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(422);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'none'");
      expect(res.body, url).toMatch(/<p class="search-problem" data-search-problem>/);
      expect(res.body, url).toMatch(problem);
      expect(res.body, url).toContain('href="/#browse"');
    }
    // 100 characters (code points, not UTF-16 units) are allowed.
    expect((await search('😀'.repeat(100))).statusCode).toBe(200);
    expect((await search('a'.repeat(100))).statusCode).toBe(200);
  });

  it('answers every odd input without a 500, a stack trace or SQL', async () => {
    for (const url of ['/search?q=%00', '/search?q=a%00b', '/search?q=%ED%A0%80', '/search?q=%5C', '/search?q=%27%3B%20DROP%20TABLE%20subjects%3B--', '/search?q[a]=1', '/search?q=%EF%BC%85', '/search?page=2']) {
      const res = await get(url);
      expect([200, 422], url).toContain(res.statusCode);
      expect(res.body, url).not.toMatch(/\bat .*\.ts:\d+|SELECT|syntax error|search_fold/);
    }
    expect((await get('/search?q=avery')).statusCode).toBe(200);
  });

  it(`counts searches per client address: over ${RATE} a minute gets 429 with Retry-After`, async () => {
    const address = '198.51.100.7';
    for (let i = 0; i < RATE; i++) expect((await get('/search?q=', address)).statusCode).toBe(422);
    const over = await get('/search?q=avery', address);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await get('/search?q=avery', '198.51.100.8')).statusCode).toBe(200);
  });

  it('finds substrings through the trigram index (migration 018)', async () => {
    // 5,000 more published subjects (each with a report), so that reading every subject would cost the planner more than the index.
    await t.db.pool.query(`INSERT INTO subjects (id, name, kind, name_keys) SELECT 'sub_bulk' || g, 'Bulk Subject ' || md5(g::text), 'organisation', ARRAY['bulk'] FROM generate_series(1, 5000) g`);
    await t.db.pool.query(`INSERT INTO reports (id, subject_id, method_version, depth, report) SELECT 'rep_bulk' || g, 'sub_bulk' || g, '0.0.0+bulk', 'quick', '{}' FROM generate_series(1, 5000) g`);
    await t.db.pool.query('ANALYZE subjects; ANALYZE reports');
    const { rows } = await t.db.pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${subjectSearchCountSql()}`, ['harbour light']);
    expect(JSON.stringify(rows[0]!['QUERY PLAN'])).toContain('"Index Name":"subjects_search"');
    expect(hitIds((await search('harbour light')).body)).toEqual([ids['Harbour Light Ferries']]);
  });
});

describe('in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch(LAUNCH);
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());

  it('JavaScript off: from the header form on the home page to the results, then to the subject\'s page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    try {
      const page = await ctx.newPage();
      const csp: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) csp.push(m.text());
      });
      expect((await page.goto(`${base}/`))?.status()).toBe(200);
      const box = page.getByRole('search').getByLabel('Find a subject');
      await box.fill('harbour');
      await Promise.all([page.waitForURL(/\/search\?q=harbour$/), box.press('Enter')]);
      await expect(page.locator('h1').textContent()).resolves.toBe('Subjects matching “harbour”');
      await expect(page.locator('#site-search-q').inputValue()).resolves.toBe('harbour');
      await Promise.all([page.waitForURL(new RegExp(`/subjects/${ids['Harbour Light Ferries']}/$`)), page.getByRole('link', { name: 'Harbour Light Ferries' }).click()]);
      await expect(page.locator('h1').textContent()).resolves.toContain('Harbour Light Ferries');
      // The button sends the form too.
      await page.getByRole('search').getByLabel('Find a subject').fill('zoe');
      await Promise.all([page.waitForURL(/\/search\?q=zoe$/), page.getByRole('button', { name: 'Search' }).click()]);
      expect(await page.locator('[data-search-hit]').count()).toBe(1);
      expect(csp).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('runs no script from a hostile stored name or query, even without the CSP (escaping alone)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: true, bypassCSP: true });
    try {
      const page = await ctx.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const attack = '"><script>window.__xss=1</script><img src=x onerror="window.__xss=2;alert(1)">';
      for (const url of ['/search?q=Evil', `/search?q=${encodeURIComponent(attack)}`]) {
        await page.goto(`${base}${url}`);
        expect(await page.evaluate<number>(`('__xss' in window ? 1 : 0) + document.querySelectorAll('script, img').length`), url).toBe(0);
      }
      // Shown as sent, as text and as the box's value.
      await expect(page.locator('#site-search-q').inputValue()).resolves.toBe(attack);
      await page.goto(`${base}/search?q=Evil`);
      await expect(page.locator('[data-search-hit] .hit-name').textContent()).resolves.toBe(HOSTILE.name);
      expect(dialogs).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  for (const width of [1280, 390]) {
    it(`the results page passes axe-core's WCAG 2.1 A/AA and best-practice rules at ${width} px, and fits the screen`, async () => {
      // axe is injected through a CSP-free context: the site's own pages allow no script.
      const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: true, bypassCSP: true });
      try {
        const page = await ctx.newPage();
        for (const url of ['/search?q=avery', '/search?q=pager&page=2', '/search?q=', '/search?q=nothing+here']) {
          const res = await page.goto(`${base}${url}`);
          expect([200, 422], url).toContain(res?.status());
          await page.evaluate(axe.source);
          const result = await page.evaluate<axe.AxeResults>(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })`);
          expect(result.violations.map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })), url).toEqual([]);
          expect(await page.evaluate<number>('document.documentElement.scrollWidth'), url).toBeLessThanOrEqual(width);
        }
        await page.goto(`${base}/search?q=avery`);
        await page.screenshot({ path: path.join(SHOTS, `search-${width}.png`), fullPage: true });
      } finally {
        await ctx.close();
      }
    });
  }
});
