import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { createKey } from '../core/keys.ts';
import { ClaimsPageSchema, StoredReportSchema } from '../core/schemas/resources.ts';
import { ReportReviewStateSchema } from '../core/schemas/reviews.ts';
import { makeReport } from '../jobs/research.ts';
import { buildSite, type SiteOptions } from '../jobs/site/builds.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { LAUNCH, tempDataDir } from './site-fixtures.ts';

/**
 * Editorial review on the published pages, in the real browser (Debian's
 * Chromium), on a report made by the real pipeline and reviewed through the
 * REST routes: the report made, two featured claims reviewed (one confirmed,
 * one corrected) and a reply accepted, then the report signed off; after
 * each step the site is rebuilt incrementally and read as a reader reads it.
 * Reviewed and unreviewed verdicts look different, and every unreviewed one
 * keeps the label. Screenshots of each step are kept in test-artifacts/.
 */

const ARTIFACTS = path.resolve(import.meta.dirname, '..', 'test-artifacts');
const LABEL = 'machine-generated, unreviewed';
const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;
let base: string;
let browser: Browser;
let ctx: BrowserContext;
let editor: Record<string, string>;
let reader: Record<string, string>;
let reportId: string;
let confirmed: string;
let corrected: string;
let machineOutcome: string;

const api = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
  const res = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
};
const claimsOf = async () => ClaimsPageSchema.parse((await api('GET', `/v1/subjects/${BRIGHTWATER}/claims?page_size=200`, reader)).body);
const reviewAs = async (claimId: string, outcome: string | null, reviewer: string, rationale: string) => {
  const c = (await claimsOf()).claims.find((x) => x.claim_id === claimId)!;
  const res = await api('POST', `/v1/claims/${claimId}/review`, editor, { version: c.review.version, outcome: outcome ?? c.outcome, rationale, reviewer });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
async function open(url: string): Promise<Page> {
  const page = await ctx.newPage();
  const res = await page.goto(`${base}${url}`);
  expect(res?.status(), url).toBe(200);
  return page;
}
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `review-${name}.png`), fullPage: true });

beforeAll(async () => {
  data = await tempDataDir('reviews-browser');
  t = await startTestApp({ DATA_DIR: data.dir, RATE_LIMIT_PER_MINUTE: '100000' }, 'reviews_browser');
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  reader = bearer(await t.key('reader'));
  editor = bearer((await createKey(t.db.pool, 'editor', ['read', 'review'])).key);
  const made = await makeReport(t.db.pool, BRIGHTWATER);
  reportId = made.reportId!;
  o = { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 7 };
  await buildSite(t.db.pool, o, { reason: 'test: first build' });
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await chromium.launch(LAUNCH);
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
  await mkdir(ARTIFACTS, { recursive: true });
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  await t.close();
  await data.remove();
});

describe('a report through editorial review, on its published pages', () => {
  it('1. as made: the headline and every verdict carry the label, with no claim reviewed yet', async () => {
    const page = await open(`/reports/${reportId}/`);
    await expect(page.locator('.headline-score [data-review-label]').textContent()).resolves.toBe(LABEL);
    const count = page.locator('[data-review-count]');
    expect(await count.getAttribute('data-review-count')).toBe('0');
    await expect(count.textContent()).resolves.toMatch(/0 of \d+\s+claims reviewed by a person/);
    expect(await page.locator('article.claim[data-review-status="reviewed"]').count()).toBe(0);
    expect(await page.locator('[data-reviewed]').count()).toBe(0);
    await shot(page, '1-made');
  });

  it('2. two featured claims reviewed (one confirmed, one corrected) and a reply accepted: they read as reviewed, the rest keep the label', async () => {
    const report = StoredReportSchema.parse((await api('GET', `/v1/reports/${reportId}`, reader)).body);
    [confirmed, corrected] = report.report.featured_claims.slice(0, 2).map((f) => f.claim_id) as [string, string];
    machineOutcome = (await claimsOf()).claims.find((c) => c.claim_id === corrected)!.outcome;
    await reviewAs(confirmed, null, 'Ada Editor', 'The regulator\'s report bears the figure out.');
    const reply = await api('POST', '/v1/responses', reader, { claim_id: corrected, name: 'Lena Marsh', role: 'Chief executive', statement: 'The audited accounts give a different figure.' });
    expect(reply.status).toBe(200);
    await reviewAs(corrected, machineOutcome === 'false' ? 'mostly_true' : 'false', 'Ben Checker', 'The audited accounts settle it the other way.');
    expect((await api('POST', `/v1/responses/${reply.body.response_id}/review`, editor, { decision: 'accepted', note: 'Accepted: the claim is corrected to the audited figure.', reviewer: 'Ben Checker' })).status).toBe(200);
    const built = await buildSite(t.db.pool, o, { reason: 'test: reviews' });
    expect(built).toMatchObject({ status: 'published', kind: 'incremental' });

    const page = await open(`/reports/${reportId}/`);
    const one = page.locator(`article#${confirmed}`);
    expect(await one.getAttribute('data-review-status')).toBe('reviewed');
    expect(await one.getAttribute('class')).toContain('claim-reviewed');
    await expect(one.locator('.verdict [data-review-label]').textContent()).resolves.toBe('✓ reviewed by a person');
    await expect(one.locator('[data-review-decision="confirmed"]').textContent()).resolves.toMatch(/Confirmed by Ada Editor on \d{4}-\d{2}-\d{2}/);
    const two = page.locator(`article#${corrected}`);
    await expect(two.locator('[data-review-decision="corrected"]').textContent()).resolves.toMatch(/Corrected by Ben Checker on .*the machine's outcome was/);
    expect(await two.locator('[data-machine-verdict]').getAttribute('data-machine-verdict')).toBe(machineOutcome);
    expect(await two.locator('.verdict [data-outcome]').getAttribute('data-outcome')).not.toBe(machineOutcome);
    await expect(two.locator('[data-response-decision="accepted"]').textContent()).resolves.toMatch(/Accepted by Ben Checker on .*: Accepted: the claim is corrected to the audited figure\./);
    await expect(two.locator('.response .tag').textContent()).resolves.toBe('reviewed: accepted');
    // The two look different from the rest, and every other verdict keeps the label.
    const [reviewedBg, openBg] = await Promise.all([
      one.locator('.verdict [data-review-label]').evaluate((e) => getComputedStyle(e).backgroundColor),
      page.locator('article.claim[data-review-status="machine-generated, unreviewed"] .verdict [data-review-label]').first().evaluate((e) => getComputedStyle(e).backgroundColor),
    ]);
    expect(reviewedBg).not.toBe(openBg);
    const others = page.locator('article.claim[data-review-status="machine-generated, unreviewed"]');
    expect(await others.count()).toBe((await page.locator('article.claim').count()) - 2);
    for (const a of await others.all()) await expect(a.locator('.verdict [data-review-label]').textContent()).resolves.toBe(LABEL);
    // The report itself keeps the label, with the count.
    await expect(page.locator('.headline-score [data-review-label]').textContent()).resolves.toBe(LABEL);
    expect(await page.locator('[data-review-count]').getAttribute('data-review-count')).toBe('2');
    await shot(page, '2-claims-reviewed');
  });

  it('3. signed off: the headline reads as reviewed, with the machine\'s score beside it, on the report, subject and index pages', async () => {
    for (;;) {
      const st = ReportReviewStateSchema.parse((await api('GET', `/v1/reports/${reportId}/review`, editor)).body);
      if (st.missing.length === 0) break;
      await reviewAs(st.missing[0]!, null, 'Ada Editor', 'Checked against the evidence.');
    }
    const signed = await api('POST', `/v1/reports/${reportId}/review`, editor, { reviewer: 'Ada Editor', note: 'Featured and weighty claims checked.' });
    expect(signed.status).toBe(200);
    const built = await buildSite(t.db.pool, o, { reason: 'test: sign-off' });
    // The report's page, and the pages that show its headline: subject, browse letter, index.
    expect(built).toMatchObject({ status: 'published', kind: 'incremental' });
    expect(built.rendered).toBeGreaterThanOrEqual(4);

    const page = await open(`/reports/${reportId}/`);
    await expect(page.locator('.headline-score [data-review-label]').textContent()).resolves.toBe('✓ reviewed by a person');
    await expect(page.locator('[data-headline-score]').textContent()).resolves.toBe(String(signed.body.reviewed_score.score));
    const note = page.locator('[data-signed-off]');
    await expect(note.textContent()).resolves.toMatch(/Signed off by Ada Editor on \d{4}-\d{2}-\d{2}/);
    await expect(note.locator('[data-machine-score]').textContent()).resolves.toBe(String(signed.body.machine_score.score));
    expect(await page.locator('[data-review-count]').count()).toBe(0);
    // Claims no one reviewed still carry the label.
    const open_ = page.locator('article.claim[data-review-status="machine-generated, unreviewed"]');
    for (const a of await open_.all()) await expect(a.locator('.verdict [data-review-label]').textContent()).resolves.toBe(LABEL);
    await shot(page, '3-signed-off');

    const subject = await open(`/subjects/${BRIGHTWATER}/`);
    await expect(subject.locator('.headline [data-review-label]').textContent()).resolves.toBe('✓ reviewed by a person');
    await shot(subject, '3-subject');
    const index = await open('/');
    const row = index.locator('.report-list li', { hasText: 'Brightwater Utilities' });
    await expect(row.locator('[data-review-label]').textContent()).resolves.toBe('✓ reviewed by a person');
    // The page on demand is the published page, byte for byte.
    expect((await t.app.inject({ method: 'GET', url: `/v1/reports/${reportId}/html`, headers: reader })).body).toBe(await (await page.request.get(`${base}/reports/${reportId}/`)).text());
  });

  it('the reviewed pages pass axe-core\'s WCAG 2.1 A/AA and best-practice rules', async () => {
    const a11y = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: true, bypassCSP: true });
    try {
      for (const url of [`/reports/${reportId}/`, `/subjects/${BRIGHTWATER}/`, '/']) {
        const page = await a11y.newPage();
        expect((await page.goto(`${base}${url}`))?.status()).toBe(200);
        await page.evaluate(axe.source);
        const result = await page.evaluate<axe.AxeResults>(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })`);
        expect(result.violations.map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })), url).toEqual([]);
      }
    } finally {
      await a11y.close();
    }
  });
});
