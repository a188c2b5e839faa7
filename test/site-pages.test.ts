import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATING_VALUES } from '../core/site/claim-review.ts';
import { clientDir, readCurrent } from '../core/site/layout.ts';
import { buildSite } from '../jobs/site/builds.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { HOSTILE, storeFakeReport, storeHostileReport, storeReply, tempDataDir } from './site-fixtures.ts';

/**
 * What a report page holds, read from the built HTML: every claim with its
 * parts, the review label beside every score and verdict, ClaimReview data
 * that stays valid JSON whatever the quotes hold, and text from outside
 * escaped everywhere (the browser suite checks that no script runs).
 */

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let normal: Awaited<ReturnType<typeof storeFakeReport>>;
let hostile: Awaited<ReturnType<typeof storeHostileReport>>;
let onHealth: Awaited<ReturnType<typeof storeFakeReport>>;
let page: string;
let evil: string;
let topicPage: string;

const ldBlocks = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

beforeAll(async () => {
  data = await tempDataDir('site-pages');
  t = await startTestApp({ DATA_DIR: data.dir }, 'site_pages');
  normal = await storeFakeReport(t.db.pool, { name: 'Cedar Health Trust', claims: 7 });
  await storeReply(t.db.pool, normal.claims[2]!.claim_id, normal.subjectId, { name: 'Dana Reyes', role: 'Head of communications', statement: 'The figure was revised in March.', counter_evidence_url: 'https://cedar.example/revision' });
  // More replies than a claim shows: the page carries the newest few, the count, and where the rest are.
  for (let i = 1; i <= 7; i++) await storeReply(t.db.pool, normal.claims[4]!.claim_id, normal.subjectId, { name: `Sender ${i}`, statement: `Reply ${i} of seven.` });
  hostile = await storeHostileReport(t.db.pool);
  // A newer report on one topic of the same subject: a view of its own, never the subject's headline.
  onHealth = await storeFakeReport(t.db.pool, { name: 'Cedar Health Trust', claims: 3, score: 12.5, topic: 'health' });
  await t.db.pool.query(`UPDATE reports SET generated_at = generated_at + interval '1 minute' WHERE id = $1`, [onHealth.reportId]);
  await buildSite(t.db.pool, { siteDir: t.config.siteDir, siteUrl: null, exportKeepDays: 7 }, { reason: 'test' });
  const dir = clientDir((await readCurrent(t.config.siteDir))!.dir);
  page = await readFile(path.join(dir, 'reports', normal.reportId, 'index.html'), 'utf8');
  evil = await readFile(path.join(dir, 'reports', hostile.reportId, 'index.html'), 'utf8');
  topicPage = await readFile(path.join(dir, 'reports', onHealth.reportId, 'index.html'), 'utf8');
});
afterAll(async () => {
  await t.close();
  await data.remove();
});

describe('a report page', () => {
  it('shows every claim with its quote, source, fixed test, outcome, rationale, evidence and replies', () => {
    expect(page.match(/<article class="claim"/g)).toHaveLength(7);
    for (const c of normal.claims) {
      const start = page.indexOf(`<article class="claim" id="${c.claim_id}"`);
      expect(start, c.claim_id).toBeGreaterThan(0);
      const article = page.slice(start, page.indexOf('</article>', start));
      expect(article).toContain(c.quote);
      expect(article).toContain(`href="${(c.source as { url: string }).url}"`);
      expect(article).toContain('Fixed test');
      expect(article).toContain(c.resolution_criteria);
      expect(article).toContain(`data-outcome="${c.outcome}"`);
      expect(article).toContain(c.rationale);
      for (const e of c.evidence as { url: string }[]) expect(article).toContain(`href="${e.url}"`);
    }
    expect(page).toContain('The figure was revised in March.');
    expect(page).toContain('Dana Reyes');
    expect(page).toContain('href="https://cedar.example/revision"');
    expect(page).toContain('response received, not yet reviewed');
  });

  it('shows a claim\'s newest replies, newest first, with their count and where to read the rest', () => {
    const articleOf = (claimId: string) => {
      const start = page.indexOf(`<article class="claim" id="${claimId}"`);
      return page.slice(start, page.indexOf('</article>', start));
    };
    const many = normal.claims[4]!.claim_id;
    const article = articleOf(many);
    expect(article).toMatch(/Responses \(7\)/);
    expect(article.match(/data-response=/g)).toHaveLength(5);
    for (const i of [3, 4, 5, 6, 7]) expect(article).toContain(`Reply ${i} of seven.`);
    for (const i of [1, 2]) expect(article).not.toContain(`Reply ${i} of seven.`);
    expect(article.indexOf('Reply 7 of seven.')).toBeLessThan(article.indexOf('Reply 3 of seven.'));
    expect(article).toContain('data-responses-more');
    expect(article).toContain(`GET /v1/claims/${many}/responses`);
    // A claim whose every reply is shown says nothing of more.
    const one = articleOf(normal.claims[2]!.claim_id);
    expect(one).toMatch(/Responses \(1\)/);
    expect(one).not.toContain('data-responses-more');
  });

  it('puts the review label beside the headline score, every per-type score and every verdict', () => {
    const labels = page.match(/<span class="review-label" data-review-label>machine-generated, unreviewed<\/span>/g) ?? [];
    const scores = (page.match(/data-score-type=/g) ?? []).length;
    const verdicts = (page.match(/<span class="verdict">/g) ?? []).length;
    expect(scores).toBe(3);
    expect(verdicts).toBe(7 + 2); // every claim, and the two featured ones
    // The headline, each per-type score, each verdict, and the verdict chart (counts of verdicts).
    expect(labels).toHaveLength(1 + scores + verdicts + 1);
    for (const v of page.split('<span class="verdict">').slice(1)) expect(v.slice(0, 400)).toMatch(/^<span class="outcome[^>]*>[^<]+<\/span> <span class="review-label"/);
  });

  it('draws the headline score and its 80% range, and writes them', () => {
    const svg = /<svg class="range range-large"[^>]*data-score="([\d.]+)" data-low="([\d.]+)" data-high="([\d.]+)"[\s\S]*?<\/svg>/.exec(page)!;
    expect(svg).not.toBeNull();
    const [score, low, high] = [Number(svg[1]), Number(svg[2]), Number(svg[3])];
    expect(low).toBeLessThan(score);
    expect(high).toBeGreaterThan(score);
    expect(svg[0]).toMatch(new RegExp(`<rect class="range-band" x="${low}" y="[\\d.]+" width="${Math.round((high - low) * 10) / 10}"`));
    expect(page).toContain(`80% range <strong>${low} to ${high}</strong>`);
  });

  it('carries a ClaimReview per claim, valid JSON-LD with the documented rating scale', () => {
    const reviews = ldBlocks(page).map((b) => JSON.parse(b) as Record<string, any>);
    expect(reviews).toHaveLength(7);
    // One per claim, in the page's order (by type and outcome), each naming its claim's anchor.
    const ids = reviews.map((r) => String(r.url).split('#')[1]);
    expect(new Set(ids)).toEqual(new Set(normal.claims.map((c) => c.claim_id)));
    for (const r of reviews) {
      const c = normal.claims.find((x) => r.url.endsWith(`#${x.claim_id}`))!;
      expect(r).toMatchObject({ '@context': 'https://schema.org', '@type': 'ClaimReview', claimReviewed: c.quote, url: `/reports/${normal.reportId}/#${c.claim_id}` });
      expect(r.itemReviewed).toMatchObject({ '@type': 'Claim', author: { '@type': 'Organization', name: 'Cedar Health Trust' }, appearance: { url: (c.source as { url: string }).url } });
      const value = (RATING_VALUES as Record<string, number | undefined>)[c.outcome];
      if (value === undefined) expect(r.reviewRating.ratingValue).toBeUndefined();
      else expect(r.reviewRating).toMatchObject({ ratingValue: value, bestRating: 5, worstRating: 1 });
      expect(r.reviewRating.alternateName).toMatch(/\(machine-generated, unreviewed\)$/);
      expect(r.reviewRating.ratingExplanation).toBe(c.rationale);
    }
  });
});

describe('text from outside', () => {
  it('never becomes markup: every executable script and event handler is absent, the text is shown escaped', () => {
    const tags = evil.match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBe(4);
    expect(new Set(tags)).toEqual(new Set(['<script type="application/ld+json">']));
    // No tag anywhere carries an event handler (attribute values blanked first: inside quotes,
    // `<` and `onerror=` are only text), and no link leaves http(s).
    const markup = evil.replace(/"[^"]*"/g, '""');
    expect(markup).toMatch(/<meta name="" content="">/);
    expect(markup).not.toMatch(/<[a-z][^>]*\son[a-z]+\s*=/i);
    expect(evil).not.toMatch(/href="(?!https?:\/\/|\/|#)/);
    expect(evil).toContain('Evil &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt; &amp; &quot;Co&quot;');
    expect(evil).toContain('&lt;script&gt;window.__xss=8&lt;/script&gt;');
    expect(evil).toContain('href="https://evil.example/%22%3E%3Cscript%3Ewindow.__xss=13%3C/script%3E"');
    // Unsafe links are shown as text, not followed.
    expect(evil).toContain('<span class="unlinked">&lt;b&gt;bold&lt;/b&gt; title</span>');
    expect(evil).toContain('<span class="unlinked">&lt;svg onload=window.__xss=6&gt;</span>');
  });

  it('keeps every ClaimReview valid JSON that cannot end its script element', () => {
    const blocks = ldBlocks(evil);
    expect(blocks).toHaveLength(4);
    for (const b of blocks) {
      expect(b).not.toMatch(/<\/|<!--|\u2028|\u2029/);
      JSON.parse(b);
    }
    const first = JSON.parse(blocks[0]!) as { claimReviewed: string; itemReviewed: { author: { name: string } } };
    expect(first.claimReviewed).toBe(HOSTILE.quote);
    expect(first.itemReviewed.author.name).toBe(HOSTILE.name);
    // A source that is not http(s) is left out of the data as well.
    expect(JSON.parse(blocks[1]!).itemReviewed.appearance).toBeUndefined();
  });

  it('is escaped the same way on the page rendered on demand', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/reports/${hostile.reportId}/html`, headers: bearer(await t.key()) });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(evil);
  });
});

describe('other pages', () => {
  it('the rating scale page documents every outcome\'s rating', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/methodology/rating-scale/' });
    expect(res.statusCode).toBe(200);
    for (const [outcome, value] of Object.entries(RATING_VALUES)) expect(res.body).toMatch(new RegExp(`data-rating="${outcome}">\\s*<th scope="row"><code>${outcome}</code></th>\\s*<td>${value}</td>`));
    expect(res.body).toMatch(/data-rating="unresolvable">\s*<th scope="row"><code>unresolvable<\/code><\/th>\s*<td>none<\/td>/);
  });

  it('the methodology pages carry the published method and the measurement state', async () => {
    const method = (await t.app.inject({ method: 'GET', url: '/methodology/' })).body;
    expect(method).toContain('<h1 id="how-the-reliability-score-is-made">How the reliability score is made</h1>');
    const m = (await t.app.inject({ method: 'GET', url: '/methodology/measurement/' })).body;
    expect(m).toContain('No measurement has been published yet');
  });

  it('the exports page links no latest.json before the first export (it would answer 404)', async () => {
    const exports = await t.app.inject({ method: 'GET', url: '/exports/' });
    expect(exports.statusCode).toBe(200);
    expect(exports.body).toContain('The first nightly export has not run yet');
    expect(exports.body).not.toContain('href="/exports/latest.json"');
    expect(existsSync(path.join(clientDir((await readCurrent(t.config.siteDir))!.dir), 'exports', 'latest.json'))).toBe(false);
  });

  it('the subject, browse and index pages list the reports with their scores and the label', async () => {
    const subject = (await t.app.inject({ method: 'GET', url: `/subjects/${normal.subjectId}/` })).body;
    expect(subject).toContain(`href="/reports/${normal.reportId}/"`);
    expect(subject).toContain('machine-generated, unreviewed');
    const browse = (await t.app.inject({ method: 'GET', url: '/browse/c/' })).body;
    expect(browse).toContain(`href="/subjects/${normal.subjectId}/"`);
    const index = (await t.app.inject({ method: 'GET', url: '/' })).body;
    expect(index).toContain('2 subjects, 3 reports');
    expect(index).toContain('href="/browse/e/"');
    expect(index).toContain('Evil &lt;img');
  });

  it('a report on one topic: its page says so; the subject\'s headline, browse entry and the index stay on the whole record', async () => {
    expect(topicPage).toContain('data-report-topic="health"');
    expect(topicPage).toMatch(/This report scores only the claims filed under the topic\s*<strong>health<\/strong>/);
    expect(topicPage).toMatch(/<h2 id="score-h">Reliability score on health<\/h2>/);
    expect(page).not.toContain('data-report-topic');
    const subject = (await t.app.inject({ method: 'GET', url: `/subjects/${normal.subjectId}/` })).body;
    const headline = subject.slice(subject.indexOf('id="latest-h"'), subject.indexOf('id="reports-h"'));
    expect(headline).toContain(`href="/reports/${normal.reportId}/"`);
    expect(headline).not.toContain('12.5');
    expect(subject).toContain(`href="/reports/${onHealth.reportId}/"`);
    expect(subject).toMatch(/<td data-report-topic="health"><span class="tag">Topic: Health<\/span><\/td>/);
    const browse = (await t.app.inject({ method: 'GET', url: '/browse/c/' })).body;
    expect(browse).not.toContain('12.5');
    const index = (await t.app.inject({ method: 'GET', url: '/' })).body;
    expect(index).toContain(`href="/reports/${normal.reportId}/"`);
    expect(index).not.toContain(`href="/reports/${onHealth.reportId}/"`);
  });
});
