import { describe, expect, it } from 'vitest';
import { MAX_SUBJECTS, MIN_SUBJECTS, cutPages, isMark, letterIndex, pageFor, pageNav, recutLetter } from './browse-pages.ts';
import type { BrowseEntry } from './page-data.ts';
import { browseKey, pageFile, pagePath } from './page-paths.ts';

const entry = (name: string, id: string): BrowseEntry => ({
  subject: { subject_id: id, name, kind: 'organisation', description: null, path: `/subjects/${id}/` },
  latest: {
    report_id: `rep_${id}`, path: `/reports/rep_${id}/`, subject_id: id, generated_at: '2026-01-01T00:00:00.000Z', generated_on: '2026-01-01', method_version: '1.0.0',
    headline: { score: 50, interval_80: [40, 60], confidence: 'low', n_resolved: 3 }, review_status: 'machine-generated, unreviewed', topic: null, topic_label: null,
  },
});
const collator = new Intl.Collator('en');
const sorted = (xs: BrowseEntry[]) => [...xs].sort((a, b) => collator.compare(a.subject.name, b.subject.name) || collator.compare(a.subject.subject_id, b.subject.subject_id));
const ids = (pages: BrowseEntry[][]) => pages.map((p) => p.map((e) => `${e.subject.subject_id} ${e.latest.report_id}`));
/** A fixed pseudo-random sequence, so that a failure can be replayed. */
function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

describe('browse page keys', () => {
  it('puts page 1 of a letter at /browse/<letter>/ and page n at /browse/<letter>/<n>/, nothing else', () => {
    expect(pagePath({ view: 'browse', key: browseKey('a') })).toBe('/browse/a/');
    expect(pageFile({ view: 'browse', key: browseKey('other', 12) })).toBe('browse/other/12/index.html');
    for (const key of ['a/1', 'a/01', 'ab', 'a/../b', 'a/2/3', 'A', '', 'a/']) expect(() => pagePath({ view: 'browse', key }), key).toThrow(/unsafe/);
  });
});

describe('cutting a letter into pages', () => {
  const r = rng(7);
  const letter = sorted(Array.from({ length: 1500 }, (_, i) => entry(`Pine ${Math.floor(r() * 1e9)}`, `sub_${i.toString(16).padStart(16, '0')}`)));

  it('gives pages of MIN to MAX subjects (the last may be shorter), each subject once, in order, each ending at a mark or at MAX', () => {
    const pages = cutPages(letter);
    expect(pages.length).toBeGreaterThan(10);
    expect(pages.flat()).toEqual(letter);
    for (const [i, p] of pages.entries()) {
      expect(p.length).toBeLessThanOrEqual(MAX_SUBJECTS);
      if (i < pages.length - 1) {
        expect(p.length).toBeGreaterThanOrEqual(MIN_SUBJECTS);
        expect(p.length === MAX_SUBJECTS || isMark(p.at(-1)!.subject.subject_id)).toBe(true);
      }
    }
  });

  it('finds the page a subject sorts into from the first subject of each page', () => {
    const pages = cutPages(letter);
    const index = letterIndex('p', pages);
    for (const [i, p] of pages.entries()) for (const e of [p[0]!, p.at(-1)!]) expect(pageFor(index, { name: e.subject.name, subject_id: e.subject.subject_id })).toBe(i);
    expect(pageFor(index, { name: 'Pine', subject_id: 'sub_0' })).toBe(0);
  });

  it('cut again after new subjects, reading from their pages on, gives the pages a cut of the whole letter gives, and touches few', async () => {
    let pages = cutPages(letter);
    let all = letter;
    let recut = 0;
    let read = 0;
    for (let t = 0; t < 150; t++) {
      // Mostly one new subject, sometimes a burst, sometimes a new headline for a listed one.
      const burst = t % 40 === 0 ? 30 : 1;
      const upserts = t % 7 === 3
        ? [{ ...all[Math.floor(r() * all.length)]!, latest: { ...entry('x', 'x').latest, report_id: `rep_new${t}` } }]
        : Array.from({ length: burst }, (_, k) => entry(`Pine ${Math.floor(r() * 1e9)}`, `sub_new${t}_${k}`));
      const cut = await recutLetter(letterIndex('p', pages), async (i) => (read++, pages[i]!), upserts);
      const replaced = new Set(upserts.map((e) => e.subject.subject_id));
      all = sorted([...all.filter((e) => !replaced.has(e.subject.subject_id)), ...upserts]);
      pages = [...pages.slice(0, cut.start), ...cut.pages, ...pages.slice(cut.end)];
      expect(ids(pages), `step ${t}`).toEqual(ids(cutPages(all)));
      if (burst === 1) recut += cut.pages.length;
    }
    // One subject at a time: its page, and seldom the next (the cutting meets the old cut again at once).
    expect(recut / 146).toBeLessThan(1.6);
    expect(read / 150).toBeLessThan(4);
  });

  it('starts a letter that had no page', async () => {
    const cut = await recutLetter({ letter: 'q', pages: [] }, async () => {
      throw new Error('nothing to read');
    }, [entry('Quince', 'sub_2'), entry('Quay', 'sub_1')]);
    expect(cut).toMatchObject({ start: 0, end: 0 });
    expect(ids(cut.pages)).toEqual([['sub_1 rep_sub_1', 'sub_2 rep_sub_2']]);
  });
});

describe('page links', () => {
  it('lists every page up to nine, else the first, the last and two either side, with gaps', () => {
    expect(pageNav(1, 1)).toEqual([1]);
    expect(pageNav(4, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageNav(1, 40)).toEqual([1, 2, 3, null, 40]);
    expect(pageNav(20, 40)).toEqual([1, null, 18, 19, 20, 21, 22, null, 40]);
    expect(pageNav(4, 40)).toEqual([1, 2, 3, 4, 5, 6, null, 40]);
    expect(pageNav(40, 40)).toEqual([1, null, 38, 39, 40]);
  });
});
