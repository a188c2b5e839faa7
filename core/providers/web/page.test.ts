import { describe, expect, it } from 'vitest';
import { htmlShape, plainTextPage, readablePage, toDay, UnreadablePageError } from './page.ts';

const body = (extra = '') =>
  `<body><article>${extra}<p>${'The minister said the budget would rise by four percent next year. '.repeat(6)}</p>` +
  `<p>${'Critics answered that the figure ignored inflation entirely. '.repeat(6)}</p></article></body>`;
const page = (head: string, extra = '') => `<!doctype html><html><head><title>Budget rises</title>${head}</head>${body(extra)}</html>`;
const URL_ = 'https://www.example-news.com/2024/budget';

describe('readablePage', () => {
  it.each([
    ['article:published_time', '<meta property="article:published_time" content="2024-02-29T08:00:00Z">', '', '2024-02-29'],
    ['og:published_time', '<meta property="og:published_time" content="2024-01-15">', '', '2024-01-15'],
    ['JSON-LD in @graph', '<script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"NewsArticle","datePublished":"2023-11-02T10:00:00+01:00"}]}</script>', '', '2023-11-02'],
    ['a <time> in the article', '', '<time datetime="2022-07-04T12:00">4 July</time>', '2022-07-04'],
    ['the date meta', '<meta name="date" content="2021/05/06">', '', '2021-05-06'],
    ['an RFC 2822 date meta', '<meta name="date" content="Tue, 05 Mar 2024 10:00:00 GMT">', '', '2024-03-05'],
    ['no date at all', '', '', null],
    ['an impossible date', '<meta property="article:published_time" content="2023-02-30">', '', null],
    ['an ambiguous date', '<meta name="date" content="05/03/2024">', '', null],
  ])('reads the date from %s', (_what, head, extra, expected) => {
    expect(readablePage(page(head, extra), URL_).published).toBe(expected);
  });

  it('prefers the declared date over a <time> in the article, and keeps the publisher\'s local day', () => {
    const html = page('<meta property="article:published_time" content="2024-03-05T23:30:00-05:00">', '<time datetime="2020-01-01">then</time>');
    expect(readablePage(html, URL_).published).toBe('2024-03-05');
  });

  it.each([
    ['og:site_name', '<meta property="og:site_name" content="Example News"><meta name="application-name" content="EN App">', 'Example News'],
    ['application-name', '<meta name="application-name" content="EN App">', 'EN App'],
    ['the host name without www', '', 'example-news.com'],
  ])('names the publisher from %s', (_what, head, expected) => {
    expect(readablePage(page(head), URL_).publisher).toBe(expected);
  });

  it('runs no script of the page', () => {
    const html = page('<script>document.title = "HACKED"; document.body && (document.body.innerHTML = "<p>INJECTED</p>")</script>', '<script>document.write("<p>INJECTED</p>")</script><img src="x" onerror="document.title=\'HACKED\'">');
    const read = readablePage(html, URL_);
    expect(read.title).toBe('Budget rises');
    expect(read.text).not.toContain('INJECTED');
    expect(read.text).toContain('The minister said the budget would rise by four percent next year.');
  });

  it('keeps sentences exact and separates blocks', () => {
    const read = readablePage(page('', '<h2>What  was\n said</h2>'), URL_);
    const paragraphs = read.text.split('\n\n');
    expect(paragraphs[0]).toBe('What was said');
    expect(paragraphs[1]).toBe('The minister said the budget would rise by four percent next year. '.repeat(6).trim());
    expect(paragraphs[2]).toBe('Critics answered that the figure ignored inflation entirely. '.repeat(6).trim());
  });

  it('reads a page nested too deep for Readability from its whole text, quickly', () => {
    const deep = '<div>'.repeat(600) + '<p>bottom</p>' + '</div>'.repeat(600);
    const started = Date.now();
    expect(readablePage(`<html><body>${deep}</body></html>`, URL_).text).toBe('bottom');
    expect(Date.now() - started).toBeLessThan(3000); // Readability alone: about 5 s here, 25 s at depth 1,000
  });

  it.each([
    ['nesting', '<div>'.repeat(50_000)],
    ['nesting hidden by stray end tags', '<div></span>'.repeat(50_000)],
    ['a flood of elements', '<br>'.repeat(1_000_000)],
  ])('refuses before parsing a page of %s (jsdom would take minutes or gigabytes)', (_what, markup) => {
    const started = Date.now();
    expect(() => readablePage(`<html><body>${markup}</body></html>`, URL_)).toThrow(UnreadablePageError);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('htmlShape', () => {
  it('does not count what the parser would not nest', () => {
    const ordinary = '<ul>' + '<li><p>item <b>bold</b> <img src=x><br>'.repeat(5000) + '</ul>';
    expect(htmlShape(ordinary)).toBeNull();
    expect(htmlShape(`<script>${'<div>'.repeat(5000)}</script><!-- ${'<div>'.repeat(5000)} --><p>ok`)).toBeNull();
    expect(htmlShape('<span>'.repeat(1001))).toMatch(/nested/);
  });
});

describe('plainTextPage', () => {
  it('passes the text through untouched', () => {
    const text = 'Statement by the minister\r\n\r\n  Indented line.\n';
    expect(plainTextPage(text, 'http://www.gov.example/s.txt')).toEqual({ title: 'Statement by the minister', publisher: 'gov.example', published: null, text });
  });
});

describe('toDay', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['20240305', '2024-03-05'],
    ['2024-03-05 10:00', '2024-03-05'],
    ['1700-01-01', null],
    ['garbage', null],
    ['', null],
  ])('%s → %s', (raw, day) => {
    expect(toDay(raw)).toBe(day);
  });
});
