import { describe, expect, it } from 'vitest';
import { letterOf, pageFile, pagePath } from './page-data.ts';

describe('pages and their files', () => {
  it('gives each page one path and one file under the site root', () => {
    expect(pagePath({ view: 'report', key: 'rep_0a1b' })).toBe('/reports/rep_0a1b/');
    expect(pageFile({ view: 'subject', key: 'sub_12' })).toBe('subjects/sub_12/index.html');
    expect(pageFile({ view: 'index' })).toBe('index.html');
    expect(pageFile({ view: 'rating-scale' })).toBe('methodology/rating-scale/index.html');
  });

  it('never turns a key into a path outside its folder', () => {
    for (const key of ['../x', 'a/b', '', 'REP_1', 'rep_1\u0000', '.', 'x'.repeat(65)]) expect(() => pagePath({ view: 'report', key }), key).toThrow(/unsafe/);
  });
});

describe('letterOf', () => {
  it('files a name under its first letter, accents removed, or other', () => {
    expect(letterOf('Brightwater')).toBe('b');
    expect(letterOf('Élodie Martin')).toBe('e');
    expect(letterOf('  "Quoted" Ltd')).toBe('q');
    expect(letterOf('3M Company')).toBe('m');
    expect(letterOf('Ørsted')).toBe('other');
    expect(letterOf('東京新聞')).toBe('other');
    expect(letterOf('1234')).toBe('other');
  });
});
