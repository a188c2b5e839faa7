import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../jobs/site/builds.ts';
import { runNightlyExport } from '../jobs/nightly-export.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { HOSTILE, LAUNCH, storeFakeReport, storeHostileReport, storeReply, tempDataDir } from './site-fixtures.ts';

/**
 * The published pages in a real browser (Debian's Chromium through
 * playwright-core): the review label, the drawn score range and the claims,
 * with JavaScript off; no script running from stored text (a reply whose
 * statement is an XSS payload), with the CSP and without it; an automated
 * accessibility check (axe-core); a phone-sized viewport. Screenshots are kept
 * in test-artifacts/ (git-ignored).
 */

const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'test-artifacts');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let base: string;
let browser: Browser;
let report: Awaited<ReturnType<typeof storeFakeReport>>;
let hostile: Awaited<ReturnType<typeof storeHostileReport>>;
let key: string;

beforeAll(async () => {
  data = await tempDataDir('site-browser');
  t = await startTestApp({ DATA_DIR: data.dir }, 'site_browser');
  report = await storeFakeReport(t.db.pool, { name: 'Harbour Light Ferries', kind: 'organisation', claims: 9, score: 58.2 });
  await storeReply(t.db.pool, report.claims[4]!.claim_id, report.subjectId, { name: 'Ola Brandt', role: 'Operations director', statement: 'The timetable changed in May; the count in the claim covers April only.', counter_evidence_url: 'https://harbourlight.example/timetable' });
  hostile = await storeHostileReport(t.db.pool);
  await storeFakeReport(t.db.pool, { name: 'Ines Marlowe', kind: 'person', claims: 3 });
  const o = { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 7 };
  await buildSite(t.db.pool, o, { reason: 'test' });
  await runNightlyExport(t.db.pool, o, '2026-11-21');
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  key = await t.key();
  browser = await chromium.launch(LAUNCH);
  await mkdir(ARTIFACTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t.close();
  await data.remove();
});

type Watch = { cspViolations: string[]; dialogs: string[]; errors: string[] };

async function open(ctx: BrowserContext, url: string): Promise<{ page: Page; watch: Watch }> {
  const page = await ctx.newPage();
  const watch: Watch = { cspViolations: [], dialogs: [], errors: [] };
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) watch.cspViolations.push(m.text());
  });
  page.on('pageerror', (e) => watch.errors.push(e.message));
  page.on('dialog', (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  const res = await page.goto(`${base}${url}`);
  expect(res?.status(), url).toBe(200);
  return { page, watch };
}

describe('a report page, JavaScript off', () => {
  let ctx: BrowserContext;
  beforeAll(async () => {
    ctx = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
  });
  afterAll(() => ctx.close());

  it('shows the review label beside the headline score, every per-type score and every verdict', async () => {
    const { page } = await open(ctx, `/reports/${report.reportId}/`);
    const headline = page.locator('.headline-score');
    await expect(headline.locator('[data-headline-score]').textContent()).resolves.toBe('58.2');
    expect(await headline.locator('[data-review-label]').isVisible()).toBe(true);
    await expect(headline.locator('[data-review-label]').textContent()).resolves.toBe('machine-generated, unreviewed');
    const types = page.locator('[data-score-type]');
    expect(await types.count()).toBe(3);
    for (const s of await types.all()) expect(await s.locator('[data-review-label]').isVisible()).toBe(true);
    const verdicts = page.locator('.verdict');
    expect(await verdicts.count()).toBe(9 + 2);
    for (const v of await verdicts.all()) {
      expect(await v.locator('.outcome').isVisible()).toBe(true);
      expect(await v.locator('[data-review-label]').isVisible()).toBe(true);
    }
  });

  it('draws the 80% range on the 0–100 scale, with the score marked inside it', async () => {
    const { page } = await open(ctx, `/reports/${report.reportId}/`);
    const svg = page.locator('.headline svg[data-score-range]');
    const attr = async (a: string) => Number(await svg.getAttribute(a));
    const [low, high, score] = [await attr('data-low'), await attr('data-high'), await attr('data-score')];
    const box = (await svg.boundingBox())!;
    const band = (await svg.locator('[data-range-band]').boundingBox())!;
    const mark = (await svg.locator('[data-range-mark]').boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(box.height).toBeGreaterThan(20);
    // Where the band and the mark sit, in points of the scale.
    const at = (px: number) => ((px - box.x) / box.width) * 100;
    expect(at(band.x)).toBeCloseTo(low, 0);
    expect(at(band.x + band.width)).toBeCloseTo(high, 0);
    expect(at(mark.x + mark.width / 2)).toBeCloseTo(score, 0);
    expect(await svg.getAttribute('aria-label')).toBe(`Score ${score} out of 100, 80% range ${low} to ${high}`);
    await expect(page.locator('.headline').textContent()).resolves.toContain(`80% range ${low} to ${high}`);
  });

  it('shows every claim with its quote, source, fixed test, outcome, rationale, evidence and reply, and runs no script', async () => {
    const { page } = await open(ctx, `/reports/${report.reportId}/`);
    const claims = page.locator('article.claim');
    expect(await claims.count()).toBe(9);
    // Listed by type and outcome, settled first (test/site-scorecard.test.ts checks the order): found here by id.
    for (const c of report.claims) {
      const a = page.locator(`article.claim#${c.claim_id}`);
      await expect(a.locator('[data-quote]').textContent()).resolves.toBe(c.quote);
      expect(await a.locator('[data-source] a.ext').getAttribute('href')).toBe((c.source as { url: string }).url);
      await expect(a.locator('.facts').textContent()).resolves.toContain(c.resolution_criteria);
      await expect(a.locator('.facts').textContent()).resolves.toContain(c.rationale);
      expect(await a.locator('[data-outcome]').getAttribute('data-outcome')).toBe(c.outcome);
      expect(await a.locator('.evidence a.ext').getAttribute('href')).toMatch(/^https:\/\/stats\.example\//);
    }
    await expect(page.locator(`article#${report.claims[4]!.claim_id} [data-response-statement]`).textContent()).resolves.toBe('The timetable changed in May; the count in the claim covers April only.');
    expect(await page.locator('script:not([type="application/ld+json"])').count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'site-report-desktop.png'), fullPage: true });
  });
});

describe('stored text', () => {
  // Any payload sets window.__xss; any script element that is not JSON-LD would be one that got in.
  const payloadRan = (page: Page) => page.evaluate<number>(`('__xss' in window ? 1 : 0) + document.querySelectorAll('script:not([type="application/ld+json"])').length`);

  for (const [label, options] of [
    ['without the CSP (escaping alone)', { bypassCSP: true }],
    ['with the CSP', {}],
  ] as const) {
    it(`runs no script from a hostile reply, quote, name or link, ${label}`, async () => {
      const ctx = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: true, ...options });
      try {
        for (const url of [`/reports/${hostile.reportId}/`, `/subjects/${hostile.subjectId}/`, '/browse/e/', '/']) {
          const { page, watch } = await open(ctx, url);
          expect(await payloadRan(page), url).toBe(0);
          expect(watch.dialogs, url).toEqual([]);
          expect(watch.errors, url).toEqual([]);
          // Nothing was there for the CSP to block: it reports no violation.
          expect(watch.cspViolations, url).toEqual([]);
        }
        const { page } = await open(ctx, `/reports/${hostile.reportId}/`);
        // The hostile text is shown as it was sent, as text.
        await expect(page.locator('[data-response-statement]').textContent()).resolves.toBe(HOSTILE.replyStatement);
        await expect(page.locator('h1').textContent()).resolves.toBe(HOSTILE.name);
        await expect(page.locator('[data-quote]').first().textContent()).resolves.toBe(HOSTILE.quote);
        // Links that are not http(s) are not links.
        for (const href of await page.locator('a[href]').evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href))) expect(href).toMatch(/^https?:\/\//);
        // The ClaimReview data survives intact for its readers.
        const ld = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((x) => JSON.parse(x) as { claimReviewed: string });
        expect(ld[0]!.claimReviewed).toBe(HOSTILE.quote);
      } finally {
        await ctx.close();
      }
    });
  }

  it('runs no script on the page rendered on demand either', async () => {
    const ctx = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: true, extraHTTPHeaders: bearer(key) });
    try {
      const { page, watch } = await open(ctx, `/v1/reports/${hostile.reportId}/html`);
      expect(await payloadRan(page)).toBe(0);
      expect([...watch.dialogs, ...watch.errors, ...watch.cspViolations]).toEqual([]);
      await expect(page.locator('[data-response-statement]').textContent()).resolves.toBe(HOSTILE.replyStatement);
    } finally {
      await ctx.close();
    }
  });
});

describe('accessibility and small screens', () => {
  const pages = () => [`/reports/${report.reportId}/`, `/reports/${hostile.reportId}/`, `/subjects/${report.subjectId}/`, '/browse/h/', '/', '/methodology/', '/methodology/measurement/', '/methodology/rating-scale/', '/exports/'];

  for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    it(`every kind of page passes axe-core's WCAG 2.1 A/AA and best-practice rules (${name})`, async () => {
      // axe is injected through the CSP-free context: the site's own pages allow no script.
      const ctx = await browser.newContext({ viewport, javaScriptEnabled: true, bypassCSP: true });
      try {
        for (const url of pages()) {
          const { page } = await open(ctx, url);
          await page.evaluate(axe.source);
          const result = await page.evaluate<axe.AxeResults>(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })`);
          const violations = result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
          expect(violations, `${url} (${name})`).toEqual([]);
          expect(result.passes.length, url).toBeGreaterThan(10);
        }
      } finally {
        await ctx.close();
      }
    });
  }

  it('reads on a phone: no sideways scrolling, readable text, the range drawn across the screen', async () => {
    const ctx = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      for (const url of pages()) {
        const { page } = await open(ctx, url);
        const { scroll, font } = await page.evaluate<{ scroll: number; font: number }>(`({ scroll: document.documentElement.scrollWidth, font: parseFloat(getComputedStyle(document.body).fontSize) })`);
        expect(scroll, url).toBeLessThanOrEqual(PHONE.width);
        expect(font).toBeGreaterThanOrEqual(16);
      }
      const { page } = await open(ctx, `/reports/${report.reportId}/`);
      const svg = (await page.locator('.headline svg[data-score-range]').boundingBox())!;
      expect(svg.width).toBeGreaterThan(PHONE.width * 0.7);
      expect(svg.x + svg.width).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: path.join(ARTIFACTS, 'site-report-phone.png') });
      await page.screenshot({ path: path.join(ARTIFACTS, 'site-report-phone-full.png'), fullPage: true });
      await (await open(ctx, '/')).page.screenshot({ path: path.join(ARTIFACTS, 'site-index-phone.png'), fullPage: true });
    } finally {
      await ctx.close();
    }
  });
});
