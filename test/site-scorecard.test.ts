import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import { JSDOM } from 'jsdom';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_TYPES, OUTCOMES, RESOLVED_OUTCOMES, REVIEW_LABEL } from '../core/method/outcomes.ts';
import { clientDir, readCurrent } from '../core/site/layout.ts';
import { buildSite, type SiteOptions } from '../jobs/site/builds.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { LAUNCH, storeFakeReport, tempDataDir } from './site-fixtures.ts';

/**
 * The report page as a scorecard and the subject's record over time (issue
 * #15), read from a site built on a real database: the verdict chart's
 * counts are the claims' outcomes; settled claims come first within each
 * type; every claim has its permalink and every jump link a target; the
 * fixed test, reasons and evidence fold into <details> while the quote,
 * verdict and review label stay in view; the subject page draws one point per
 * report on the whole record (none for a report on a topic) and marks a
 * change of method version; the home page lists a subject once. Then in
 * Chromium with JavaScript off, at 1280 and 390 px: axe-core, no sideways
 * scrolling, the page height of a 33-claim report, and screenshots in
 * test-artifacts/site-screenshots/ (git-ignored).
 */

const SHOTS = path.resolve(import.meta.dirname, '..', 'test-artifacts', 'site-screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const OLD_METHOD = '1.1.0+0123456789ab';

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;
let big: Awaited<ReturnType<typeof storeFakeReport>>;
/** Meridian Water Board's reports on its whole record, oldest first, and one on a topic (the newest). */
let record: { reportId: string; score: number; method: string }[];
let onTopic: string;
let meridian: string;
const html = new Map<string, Document>();

const page = async (rel: string) => {
  const file = path.join(clientDir((await readCurrent(o.siteDir))!.dir), rel, 'index.html');
  return new JSDOM(await readFile(file, 'utf8')).window.document;
};

/** Stores a report for Meridian Water Board `daysAgo` days back, made with `method` (the current one when absent). */
async function meridianReport(k: number, score: number, daysAgo: number, method?: string, topic: string | null = null) {
  const r = await storeFakeReport(t.db.pool, { name: 'Meridian Water Board', claims: 4, score, topic, claim: (i) => ({ quote: `Report ${k}: we fixed ${10 + i} mains this year.` }) });
  await t.db.pool.query(`UPDATE reports SET generated_at = now() - make_interval(days => $2) WHERE id = $1`, [r.reportId, daysAgo]);
  if (method) await t.db.pool.query(`UPDATE reports SET method_version = $2, report = jsonb_set(report, '{method_version}', to_jsonb($2::text)) WHERE id = $1`, [r.reportId, method]);
  return r;
}

beforeAll(async () => {
  data = await tempDataDir('site-scorecard');
  t = await startTestApp({ DATA_DIR: data.dir }, 'site_scorecard');
  o = { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 7 };
  // 33 claims: every type (i % 4) meets every outcome (i % 7), in an order that is not the page's.
  big = await storeFakeReport(t.db.pool, { name: 'Tall Report Council', claims: 33, score: 57.4 });
  const current = (await t.db.pool.query<{ method_version: string }>(`SELECT method_version FROM reports WHERE id = $1`, [big.reportId])).rows[0]!.method_version;
  const a = await meridianReport(1, 70, 90, OLD_METHOD);
  const b = await meridianReport(2, 58, 40);
  const c = await meridianReport(3, 61.5, 5);
  onTopic = (await meridianReport(4, 12.5, 1, undefined, 'health')).reportId;
  meridian = a.subjectId;
  record = [{ reportId: a.reportId, score: 70, method: OLD_METHOD }, { reportId: b.reportId, score: 58, method: current }, { reportId: c.reportId, score: 61.5, method: current }];
  await buildSite(t.db.pool, o, { reason: 'test' });
  html.set('report', await page(`reports/${big.reportId}`));
  html.set('subject', await page(`subjects/${meridian}`));
  html.set('index', await page(''));
}, 120_000);
afterAll(async () => {
  await t?.close();
  await data?.remove();
});

const doc = (k: string) => html.get(k)!;
const articles = () => [...doc('report').querySelectorAll('article.claim')];

describe('the report page as a scorecard', () => {
  it('charts the verdicts by claim type: every segment\'s count is the number of claims of its type and outcome', () => {
    const expected = new Map<string, number>();
    for (const c of big.claims) expected.set(`${c.claim_type}/${c.outcome}`, (expected.get(`${c.claim_type}/${c.outcome}`) ?? 0) + 1);
    const svg = doc('report').querySelector('svg[data-verdict-chart]')!;
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-labelledby')!.split(' ').map((id) => doc('report').getElementById(id)?.tagName)).toEqual(['title', 'desc']);
    const drawn = new Map([...svg.querySelectorAll('rect[data-outcome]')].map((r) => [`${r.getAttribute('data-type')}/${r.getAttribute('data-outcome')}`, Number(r.getAttribute('data-count'))]));
    expect(drawn).toEqual(expected);
    expect(expected.size).toBe(4 * 7);
    // Every type has its row, with its total.
    expect([...svg.querySelectorAll('g[data-row-type]')].map((g) => [g.getAttribute('data-row-type'), Number(g.getAttribute('data-total'))]))
      .toEqual(CLAIM_TYPES.map((type) => [type, big.claims.filter((c) => c.claim_type === type).length]));
    // The legend and the table for screen readers give the same figures.
    for (const outcome of OUTCOMES) {
      const n = big.claims.filter((c) => c.outcome === outcome).length;
      expect(Number(doc('report').querySelector(`[data-legend-outcome="${outcome}"]`)!.getAttribute('data-count')), outcome).toBe(n);
    }
    const table = doc('report').querySelector('table[data-verdict-table]')!;
    expect(table.querySelectorAll('tbody tr')).toHaveLength(CLAIM_TYPES.length);
    for (const row of table.querySelectorAll('tbody tr')) {
      const type = row.getAttribute('data-type');
      for (const cell of row.querySelectorAll('td[data-outcome]')) expect(Number(cell.textContent), `${type}/${cell.getAttribute('data-outcome')}`).toBe(expected.get(`${type}/${cell.getAttribute('data-outcome')}`) ?? 0);
    }
    expect(svg.querySelector('desc')!.textContent).toMatch(/^33 claims\. Factual claims: /);
  });

  it('lists claims by type, settled ones first (true to false, then unresolvable, then pending), each claim once', () => {
    const rank = (outcome: string) => OUTCOMES.indexOf(outcome as (typeof OUTCOMES)[number]);
    const order = big.claims
      .map((c, i) => ({ c, i }))
      .sort((x, y) => CLAIM_TYPES.indexOf(x.c.claim_type as never) - CLAIM_TYPES.indexOf(y.c.claim_type as never) || rank(x.c.outcome) - rank(y.c.outcome) || x.i - y.i)
      .map((x) => x.c.claim_id);
    expect(articles().map((a) => a.id)).toEqual(order);
    expect(order).not.toEqual(big.claims.map((c) => c.claim_id));
    for (const section of doc('report').querySelectorAll('section[data-claim-type]')) {
      const settled = [...section.querySelectorAll('article.claim [data-outcome]')].map((e) => (RESOLVED_OUTCOMES as readonly string[]).includes(e.getAttribute('data-outcome')!));
      expect(settled.indexOf(false), section.getAttribute('data-claim-type')!).toBeGreaterThan(0);
      expect(settled.slice(settled.indexOf(false))).not.toContain(true);
    }
  });

  it('gives each claim a permalink to its stable id (the claim id), and every jump link a target', () => {
    const d = doc('report');
    for (const a of articles()) {
      const link = a.querySelector('a[data-permalink]')!;
      expect(link.getAttribute('href')).toBe(`#${a.id}`);
      expect(link.textContent).toMatch(/^# Link to claim \d+$/);
      expect(a.id).toMatch(/^clm_[0-9a-f]{20}$/);
    }
    const ids = [...d.querySelectorAll('[id]')].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const jumps = [...d.querySelectorAll('nav[data-jump-links] a, nav[data-claim-index] a')].map((a) => a.getAttribute('href')!);
    // The sections, each of the four types, and each of their seven outcomes.
    expect(jumps.length).toBeGreaterThanOrEqual(6 + 4 + 4 * 7);
    for (const href of jumps) expect(d.getElementById(href.slice(1)), href).not.toBeNull();
    expect(jumps).toContain('#claims-promise');
    expect(jumps).toContain('#claims-factual-mostly-false');
    // The featured claims link to claims that are on the page.
    for (const a of d.querySelectorAll('.featured a')) expect(d.getElementById(a.getAttribute('href')!.slice(1))).not.toBeNull();
  });

  it('folds the fixed test, reasons and evidence into <details>; the quote, verdict and review label stay in view', () => {
    for (const [i, a] of articles().entries()) {
      const c = big.claims.find((x) => x.claim_id === a.id)!;
      const details = a.querySelector('details.claim-more')!;
      expect(details.hasAttribute('open')).toBe(false);
      expect(details.querySelector('summary')!.textContent).toMatch(/^Fixed test, reasons and evidence \(1\)$/);
      expect(details.textContent).toContain(c.resolution_criteria);
      expect(details.textContent).toContain(c.rationale);
      expect(details.querySelector('.evidence a.ext')!.getAttribute('href')).toBe((c.evidence as { url: string }[])[0]!.url);
      const quote = a.querySelector('[data-quote]')!;
      expect(quote.textContent).toBe(c.quote);
      expect(quote.closest('details')).toBeNull();
      const verdicts = a.querySelectorAll('.verdict');
      expect(verdicts.length, `claim ${i}`).toBe(1);
      expect(verdicts[0]!.closest('details')).toBeNull();
      expect(verdicts[0]!.querySelector('[data-outcome]')!.getAttribute('data-outcome')).toBe(c.outcome);
      expect(a.querySelector('[data-source] a.ext')!.getAttribute('href')).toBe((c.source as { url: string }).url);
    }
  });

  it('keeps the review label beside every score and verdict, the chart\'s included', () => {
    const d = doc('report');
    const verdicts = [...d.querySelectorAll('.verdict')];
    expect(verdicts).toHaveLength(33 + 2);
    for (const v of verdicts) {
      expect(v.children[0]!.matches('[data-outcome]')).toBe(true);
      expect(v.children[1]!.matches('[data-review-label]')).toBe(true);
      expect(v.children[1]!.textContent).toBe(REVIEW_LABEL);
    }
    expect(d.querySelector('[data-verdict-chart-figure] figcaption [data-review-label]')!.textContent).toBe(REVIEW_LABEL);
    expect(d.querySelector('.headline-score [data-review-label]')!.textContent).toBe(REVIEW_LABEL);
    for (const s of d.querySelectorAll('[data-score-type]')) expect(s.querySelector('[data-review-label]')).not.toBeNull();
  });
});
describe('a subject\'s record over time', () => {
  it('draws one point per report on the whole record, oldest first, none for the report on a topic', () => {
    const svg = doc('subject').querySelector('svg[data-record-chart]')!;
    expect(svg.getAttribute('role')).toBe('img');
    const points = [...svg.querySelectorAll('g[data-record-point]')];
    expect(points.map((p) => p.getAttribute('data-record-point'))).toEqual(record.map((r) => r.reportId));
    expect(points.map((p) => [Number(p.getAttribute('data-score')), p.getAttribute('data-method-version')])).toEqual(record.map((r) => [r.score, r.method]));
    expect(svg.innerHTML).not.toContain(onTopic);
    // Each point is labelled with its date and method version, and lower scores are drawn lower.
    const ys = points.map((p) => Number(p.querySelector('circle')!.getAttribute('cy')));
    expect(ys[0]).toBeLessThan(ys[2]!);
    expect(ys[2]).toBeLessThan(ys[1]!);
    for (const p of points) {
      expect(p.querySelector('.date-label')!.textContent).toBe(p.getAttribute('data-date'));
      expect(p.querySelector('.version-label')!.textContent).toBe(`v${p.getAttribute('data-method-version')!.split('+')[0]}`);
    }
    const rows = [...doc('subject').querySelectorAll('table[data-record-table] tbody tr')];
    expect(rows.map((r) => r.querySelectorAll('td')[1]!.textContent)).toEqual(['70', '58', '61.5']);
    // The subject's own table still lists every report, the one on a topic included.
    expect(doc('subject').querySelector(`a[href="/reports/${onTopic}/"]`)).not.toBeNull();
  });

  it('marks the change of method version between the first two reports, and says how far the score moved', () => {
    const marks = [...doc('subject').querySelectorAll('svg[data-record-chart] g[data-method-change]')];
    expect(marks).toHaveLength(1);
    expect([marks[0]!.getAttribute('data-from'), marks[0]!.getAttribute('data-to')]).toEqual([OLD_METHOD, record[1]!.method]);
    const x = (id: string) => parseFloat(doc('subject').querySelector(`g[data-record-point="${id}"] circle`)!.getAttribute('cx')!);
    const at = parseFloat(marks[0]!.querySelector('line')!.getAttribute('x1')!);
    expect(at).toBeGreaterThan(x(record[0]!.reportId));
    expect(at).toBeLessThan(x(record[1]!.reportId));
    const notes = [...doc('subject').querySelectorAll('[data-method-change-note]')];
    expect(notes).toHaveLength(1);
    expect(notes[0]!.textContent!.replace(/\s+/g, ' ')).toContain(`the method changed from ${OLD_METHOD} to ${record[1]!.method}, and the score moved \u221212 points (70 to 58)`);
    expect(doc('subject').querySelector('table[data-record-table]')!.textContent).toContain('M1: from');
  });

  it('the home page lists each subject once, with its headline', () => {
    const items = [...doc('index').querySelectorAll('.report-list li')];
    const names = items.map((li) => li.querySelector('a')!.textContent);
    expect(names.filter((n) => n === 'Meridian Water Board')).toHaveLength(1);
    expect(new Set(names).size).toBe(names.length);
    expect(items.find((li) => li.textContent!.includes('Meridian'))!.querySelector('a')!.getAttribute('href')).toBe(`/reports/${record[2]!.reportId}/`);
  });
});
describe('in Chromium, JavaScript off', () => {
  let browser: Browser;
  let base: string;
  beforeAll(async () => {
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch(LAUNCH);
    await mkdir(SHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());
  const pages = () => [['report', `/reports/${big.reportId}/`], ['subject', `/subjects/${meridian}/`]] as const;

  for (const [name, viewport] of [['1280', DESKTOP], ['390', PHONE]] as const) {
    it(`the report and subject pages pass axe-core's WCAG 2.1 A/AA and best-practice rules (${name} px)`, async () => {
      // axe runs as a script, so it is injected through a context without the CSP; the pages themselves run none.
      const ctx = await browser.newContext({ viewport, javaScriptEnabled: true, bypassCSP: true });
      try {
        for (const [, url] of pages()) {
          const p = await ctx.newPage();
          expect((await p.goto(`${base}${url}`))?.status()).toBe(200);
          await p.evaluate(axe.source);
          const result = await p.evaluate<axe.AxeResults>(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })`);
          expect(result.violations.map((v) => ({ id: v.id, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })), `${url} (${name})`).toEqual([]);
          expect(result.passes.map((r) => r.id)).toEqual(expect.arrayContaining(['svg-img-alt', 'color-contrast', 'heading-order']));
        }
      } finally {
        await ctx.close();
      }
    });

    it(`reads at ${name} px: no sideways scrolling, the charts across the column; screenshots; the 33-claim report's height`, async () => {
      const phone = viewport === PHONE;
      const ctx = await browser.newContext({ viewport, javaScriptEnabled: false, ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
      try {
        for (const [kind, url] of pages()) {
          const p = await ctx.newPage();
          await p.goto(`${base}${url}`);
          const { scroll, height } = await p.evaluate<{ scroll: number; height: number }>(`({ scroll: document.documentElement.scrollWidth, height: document.body.scrollHeight })`);
          expect(scroll, url).toBeLessThanOrEqual(viewport.width);
          const chart = (await p.locator(kind === 'report' ? 'svg[data-verdict-chart]' : 'svg[data-record-chart]').boundingBox())!;
          expect(chart.width).toBeGreaterThan(Math.min(viewport.width, 832) * 0.8);
          expect(chart.x + chart.width).toBeLessThanOrEqual(viewport.width);
          await p.screenshot({ path: path.join(SHOTS, `${kind}-${name}.png`), fullPage: true });
          if (kind === 'report') {
            await p.screenshot({ path: path.join(SHOTS, `report-top-${name}.png`) });
            await p.locator('section[aria-labelledby="verdicts-h"]').screenshot({ path: path.join(SHOTS, `report-verdicts-${name}.png`) });
          }
          if (kind === 'report') {
            await writeFile(path.join(SHOTS, `report-height-${name}.txt`), `${height}\n`);
            console.log(`33-claim report page: document.body.scrollHeight ${height} px at ${name} px`);
            // Before the scorecard (every claim's fixed test, reasons and evidence open) it was 18,064 px at 1280 and 25,555 at 390.
            expect(height).toBeLessThan(phone ? 17_000 : 12_000);
            // A folded claim opens with a click, no script needed, and shows its fixed test.
            const first = p.locator('article.claim').first();
            expect(await first.locator('.facts').isVisible()).toBe(false);
            await first.locator('summary').click();
            expect(await first.locator('.facts').isVisible()).toBe(true);
            await first.scrollIntoViewIfNeeded();
            await p.screenshot({ path: path.join(SHOTS, `report-claims-${name}.png`) });
          }
        }
      } finally {
        await ctx.close();
      }
    });
  }
});

describe('publishing a new report', () => {
  it('rewrites the subject page in an incremental build: one more point, and the home page still lists the subject once', async () => {
    const d = await meridianReport(5, 64, 0);
    const built = await buildSite(t.db.pool, o, { reason: 'test: new report' });
    expect(built).toMatchObject({ status: 'published', kind: 'incremental' });
    const subject = await page(`subjects/${meridian}`);
    const points = [...subject.querySelectorAll('svg[data-record-chart] g[data-record-point]')].map((p) => p.getAttribute('data-record-point'));
    expect(points).toEqual([...record.map((r) => r.reportId), d.reportId]);
    const names = [...(await page('')).querySelectorAll('.report-list li > a')].map((a) => a.textContent);
    expect(names.filter((n) => n === 'Meridian Water Board')).toHaveLength(1);
  });
});
