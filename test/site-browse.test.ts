import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { MAX_SUBJECTS, MIN_SUBJECTS, isMark } from '../core/site/browse-pages.ts';
import { clientDir, readCurrent } from '../core/site/layout.ts';
import { buildSite, type SiteOptions } from '../jobs/site/builds.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { storeFakeReport, tempDataDir } from './site-fixtures.ts';

/**
 * Browse pages, paged (core/site/browse-pages.ts): a letter of more subjects
 * than a page holds is cut into pages with their links; an incremental
 * build rewrites only the browse pages a new report changes (the page its
 * subject is on; every page of the letter when their number changes); and
 * a full build makes the very same pages.
 */

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let o: SiteOptions;
/** Subjects under P: `Pine 0000`, `Pine 0002`, … (even numbers: a new one can sort between any two). */
const P = 320;
const pine = (n: number) => `Pine ${String(n).padStart(4, '0')}`;
const names = new Map<string, string>();

const client = async () => clientDir((await readCurrent(o.siteDir))!.dir);
const browseFile = (n: number) => (n === 1 ? 'browse/p/index.html' : `browse/p/${n}/index.html`);
const read = async (rel: string) => readFile(path.join(await client(), rel), 'utf8');

/** What a browse page shows: "page k of N" (0 when it has no page links), its subjects in order, its links. */
async function browse(n: number) {
  const html = await read(browseFile(n));
  const list = html.slice(html.indexOf('<ul class="subject-list">'), html.indexOf('</ul>', html.indexOf('<ul class="subject-list">')));
  const of = [...html.matchAll(/data-browse-page-of>Page (\d+) of (\d+)</g)].map((m) => [Number(m[1]), Number(m[2])]);
  return {
    html, of,
    pages: of[0]?.[1] ?? 0,
    subjects: [...list.matchAll(/href="\/subjects\/([a-z0-9_]+)\/"/g)].map((m) => m[1]!),
    prev: [...html.matchAll(/<a href="([^"]+)" rel="prev"/g)].map((m) => m[1]),
    next: [...html.matchAll(/<a href="([^"]+)" rel="next"/g)].map((m) => m[1]),
  };
}

/** Every page of the letter P, in order. */
async function letterP() {
  const first = await browse(1);
  const all = [first];
  for (let n = 2; n <= first.pages; n++) all.push(await browse(n));
  return all;
}

/** Each browse page file with its inode: a page the build rewrote is a new file (renamed over the old one). */
async function browseFiles(): Promise<Map<string, number>> {
  const root = await client();
  const out = new Map<string, number>();
  const walk = async (rel: string) => {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      if (e.isDirectory()) await walk(path.join(rel, e.name));
      else if (e.name === 'index.html') out.set(path.join(rel, e.name), (await stat(path.join(root, rel, e.name))).ino);
    }
  };
  await walk('browse');
  return out;
}
const rewritten = (before: Map<string, number>, after: Map<string, number>) => [...after].filter(([rel, ino]) => before.get(rel) !== ino).map(([rel]) => rel).sort();

async function hashes(): Promise<Map<string, string>> {
  const root = await client();
  const out = new Map<string, string>();
  for (const rel of (await browseFiles()).keys()) out.set(rel, createHash('sha256').update(await readFile(path.join(root, rel))).digest('hex'));
  return out;
}

beforeAll(async () => {
  data = await tempDataDir('site-browse');
  t = await startTestApp({ DATA_DIR: data.dir }, 'site_browse');
  o = { siteDir: t.config.siteDir, siteUrl: 'https://reliability.example', exportKeepDays: 2 };
  for (let i = 0; i < P; i++) {
    const r = await storeFakeReport(t.db.pool, { name: pine(2 * i), claims: 1, score: 50 });
    names.set(r.subjectId, pine(2 * i));
  }
  await storeFakeReport(t.db.pool, { name: 'Cobalt Times', claims: 1 });
  expect(await buildSite(t.db.pool, o, { reason: 'test: first' })).toMatchObject({ kind: 'full' });
}, 240_000);
afterAll(async () => {
  await t?.close();
  await data?.remove();
});

describe('a letter of more subjects than a page holds', () => {
  it('is cut into pages, each with "page k of N", previous and next links above and below, every subject once, in order', async () => {
    const pages = await letterP();
    const n = pages.length;
    expect(n).toBeGreaterThanOrEqual(Math.ceil(P / MAX_SUBJECTS));
    for (const [i, p] of pages.entries()) {
      const k = i + 1;
      expect(p.of, `page ${k}`).toEqual([[k, n], [k, n]]);
      expect(p.prev).toEqual(k === 1 ? [] : Array(2).fill(k === 2 ? '/browse/p/' : `/browse/p/${k - 1}/`));
      expect(p.next).toEqual(k === n ? [] : Array(2).fill(`/browse/p/${k + 1}/`));
      // ...and in the head, for crawlers and readers that follow rel=prev/next.
      const head = p.html.slice(0, p.html.indexOf('</head>'));
      expect(head.includes(`<link rel="prev"`), `page ${k} head prev`).toBe(k > 1);
      expect(head.includes(`<link rel="next" href="/browse/p/${k + 1}/"`), `page ${k} head next`).toBe(k < n);
      // Every page links to every other (few pages: all of them).
      for (let j = 2; j <= n; j++) if (j !== k) expect(p.html).toContain(`<a href="/browse/p/${j}/">${j}</a>`);
      expect(p.subjects.length).toBeLessThanOrEqual(MAX_SUBJECTS);
      if (k < n) expect(p.subjects.length).toBeGreaterThanOrEqual(MIN_SUBJECTS);
      expect(p.html).toContain(`<title>Subjects: P, page ${k} of ${n} · Reliability Scoring Service</title>`);
    }
    const listed = pages.flatMap((p) => p.subjects);
    expect(listed).toHaveLength(P);
    expect(new Set(listed)).toEqual(new Set(names.keys()));
    expect(listed.map((id) => names.get(id))).toEqual([...names.values()].sort());
    expect(await stat(path.join(await client(), 'browse', 'p', String(n + 1))).catch(() => null)).toBeNull();
    // Served at its address, listed in the sitemap; the index counts the letter's subjects and links its first page.
    expect((await t.app.inject({ method: 'GET', url: '/browse/p/2/' })).body).toBe(pages[1]!.html);
    const sitemap = await read('sitemap.xml');
    for (let k = 1; k <= n; k++) expect(sitemap).toContain(`<loc>https://reliability.example/browse/p/${k === 1 ? '' : `${k}/`}</loc>`);
    expect(await read('index.html')).toContain(`<a href="/browse/p/" aria-label="P: ${P} subjects">P</a>`);
  });

  it('a letter of a few subjects is one page, without page links', async () => {
    const c = await read('browse/c/index.html');
    expect(c).toContain('Cobalt Times');
    expect(c).not.toContain('data-browse-pager');
    expect(c).not.toContain('rel="next"');
  });
});

describe('an incremental build', () => {
  it('a new report for a listed subject rewrites the one browse page it is on, and no other', async () => {
    const pages = await letterP();
    const k = pages.length;
    const subject = pages[k - 1]!.subjects[3]!;
    const before = await browseFiles();
    await storeFakeReport(t.db.pool, { name: names.get(subject)!, claims: 1, score: 88.5 });
    expect(await buildSite(t.db.pool, o, { reason: 'test: a new headline' })).toMatchObject({ kind: 'incremental' });
    expect(rewritten(before, await browseFiles())).toEqual([browseFile(k)]);
    const after = await browse(k);
    expect(after.subjects).toEqual(pages[k - 1]!.subjects);
    expect(after.html).toContain('<strong>88.5</strong>');
  });

  it('a report on one topic changes no browse page (the headline is the whole record\'s)', async () => {
    const before = await browseFiles();
    const subject = (await browse(1)).subjects[0]!;
    await storeFakeReport(t.db.pool, { name: names.get(subject)!, claims: 1, score: 3.5, topic: 'housing' });
    expect(await buildSite(t.db.pool, o, { reason: 'test: a topic report' })).toMatchObject({ kind: 'incremental' });
    expect(rewritten(before, await browseFiles())).toEqual([]);
  });

  it('a new subject appears on the page it sorts into, and only that page is rewritten', async () => {
    const pages = await letterP();
    // A name that sorts past the first MIN_SUBJECTS + 1 subjects of a page that is not full, and whose id is no mark:
    // no cut moves (core/site/browse-pages.ts), so its page is the only one that changes.
    let pick: { k: number; name: string } | null = null;
    for (const [i, p] of pages.entries()) {
      if (p.subjects.length >= MAX_SUBJECTS - 1 || p.subjects.length < MIN_SUBJECTS + 3) continue;
      for (let j = MIN_SUBJECTS + 1; j < p.subjects.length - 1 && !pick; j++) {
        const name = `${names.get(p.subjects[j]!)!.slice(0, -1)}${Number(names.get(p.subjects[j]!)!.slice(-1)) + 1}`;
        if (!isMark(subjectIdFor('organisation', name))) pick = { k: i + 1, name };
      }
      if (pick) break;
    }
    if (!pick) throw new Error('the letter has no page to put a new subject in without moving a cut');
    const before = await browseFiles();
    const r = await storeFakeReport(t.db.pool, { name: pick.name, claims: 1 });
    names.set(r.subjectId, pick.name);
    expect(await buildSite(t.db.pool, o, { reason: 'test: a new subject' })).toMatchObject({ kind: 'incremental', new_reports: [r.reportId] });
    expect(rewritten(before, await browseFiles())).toEqual([browseFile(pick.k)]);
    const after = await letterP();
    expect(after).toHaveLength(pages.length);
    expect(after[pick.k - 1]!.subjects).toContain(r.subjectId);
    expect(after.flatMap((p) => p.subjects).map((id) => names.get(id))).toEqual([...names.values()].sort());
  });

  it('new subjects that add a page: every page of the letter is rewritten, the new one is in the sitemap, and a full build makes the same pages', async () => {
    const n = (await letterP()).length;
    const before = await browseFiles();
    for (let i = 0; i < 150; i++) {
      const r = await storeFakeReport(t.db.pool, { name: pine(2 * (P + i)), claims: 1 });
      names.set(r.subjectId, pine(2 * (P + i)));
    }
    const inc = await buildSite(t.db.pool, o, { reason: 'test: many new subjects' });
    expect(inc).toMatchObject({ kind: 'incremental' });
    const pages = await letterP();
    expect(pages.length).toBeGreaterThan(n);
    expect(rewritten(before, await browseFiles())).toEqual(pages.map((_, i) => browseFile(i + 1)).sort());
    for (const [i, p] of pages.entries()) expect(p.of[0]).toEqual([i + 1, pages.length]);
    expect(pages.flatMap((p) => p.subjects).map((id) => names.get(id))).toEqual([...names.values()].sort());
    const sitemap = await read('sitemaps/sitemap-2.xml').catch(() => read('sitemap.xml'));
    expect(sitemap).toContain(`<loc>https://reliability.example/browse/p/${pages.length}/</loc>`);

    const incremental = await hashes();
    // Every page rendered from the database (not taken from the live version by the page cache).
    const full = await buildSite(t.db.pool, o, { reason: 'test: full, to compare', full: true, cache: false });
    expect(full).toMatchObject({ kind: 'full', pages: inc.pages });
    const rebuilt = await hashes();
    expect([...incremental.keys()].sort()).toEqual([...rebuilt.keys()].sort());
    for (const [rel, hash] of rebuilt) expect(incremental.get(rel), rel).toBe(hash);
  });
});
