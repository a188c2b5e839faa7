import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';

/**
 * What a fetched HTML page says, as the research pipeline reads it: the article
 * text without the site's navigation, and who published it when. Quotes are
 * later checked as verbatim substrings of `text`, so the text keeps every
 * character of the article's sentences; only whitespace is normalised, the way
 * a browser renders it (runs collapsed to one space, one blank line between
 * blocks).
 */
export type ReadablePage = {
  title: string;
  publisher: string;
  /** YYYY-MM-DD, as the publisher dated it; null when the page gives no date. */
  published: string | null;
  text: string;
};

/** Thrown for a page too big or too deeply nested to build a DOM of safely. */
export class UnreadablePageError extends Error {
  override name = 'UnreadablePageError';
}

export function readablePage(html: string, url: string): ReadablePage {
  const shape = htmlShape(html);
  if (shape) throw new UnreadablePageError(`page too complex to read (${shape})`);
  // No scripts run and no resource loads (stylesheets, images, frames): the
  // page is hostile input and parsing must not reach the network. These are
  // jsdom's defaults, spelled out so that a later edit cannot drift from them.
  // The virtual console swallows the page's CSS and parse complaints.
  const dom = new JSDOM(html, { url, runScripts: undefined, resources: undefined, virtualConsole: new VirtualConsole() });
  try {
    const doc = dom.window.document;
    // Metadata first: Readability rewrites the document as it works.
    const publisher = publisherOf(doc, url);
    const published = publishedOf(doc);
    const fallbackTitle = doc.title.trim();
    const article = readable(doc) ? new Readability(doc, { serializer: (node) => blockText(node) }).parse() : null;
    const text = article?.content ?? (doc.body ? blockText(doc.body) : '');
    const title = (article?.title ?? '').trim() || fallbackTitle || hostOf(url);
    return { title, publisher, published, text };
  } finally {
    dom.window.close();
  }
}

/**
 * Readability's work grows steeply with nesting depth (measured: 0.3 s at depth
 * 100, 2 s at 400, 25 s at 1,000) and with element count (2.6 s at 40,000), so a
 * hostile page could hold a worker for minutes. Real articles nest a few dozen
 * deep and have a few thousand elements; past these bounds the page's whole
 * text is taken instead (linear, see blockText).
 */
const MAX_DEPTH = 200;
const MAX_ELEMENTS = 50_000;

function readable(doc: Document): boolean {
  if (doc.getElementsByTagName('*').length > MAX_ELEMENTS) return false;
  const stack: [Element, number][] = doc.documentElement ? [[doc.documentElement, 0]] : [];
  while (stack.length > 0) {
    const [el, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return false;
    for (const child of el.children) stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * jsdom itself is the next hazard: building the DOM costs time quadratic in the
 * nesting depth (measured: 11 s at depth 20,000; over 100 s at 50,000) and about
 * 200 bytes of memory a byte of markup for flat pages (900 MB for a 4 MB page of
 * <br>). So the markup is measured before it is parsed, in one linear pass over
 * its tags: why it is refused, or null. The depth is an estimate, kept on a
 * stack of open names as the parser would (an end tag closes back to its open
 * element, an unmatched one is ignored), so stray end tags cannot hide depth;
 * elements whose end tag is optional or absent are not counted.
 */
const MAX_TAGS = 100_000;
const MAX_PARSE_DEPTH = 1_000;
const NOT_NESTING = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param',
  'p', 'li', 'dt', 'dd', 'option', 'optgroup', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'colgroup', 'caption', 'html', 'head', 'body']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'iframe']);

export function htmlShape(html: string): string | null {
  // [^<>]* rather than [^>]*: a '<' with no '>' cannot make one match scan the rest of the page.
  const tag = /<!--|<(\/?)([a-zA-Z][\w:-]*)[^<>]*?(\/?)>/g;
  const open: string[] = [];
  const counts = new Map<string, number>();
  let tags = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    if (m[0] === '<!--') {
      const end = html.indexOf('-->', tag.lastIndex);
      if (end < 0) break;
      tag.lastIndex = end + 3;
      continue;
    }
    const name = m[2]!.toLowerCase();
    if (++tags > MAX_TAGS) return `over ${MAX_TAGS} tags`;
    if (m[1]) {
      if ((counts.get(name) ?? 0) === 0) continue;
      for (let top = open.pop(); top !== undefined; top = open.pop()) {
        counts.set(top, counts.get(top)! - 1);
        if (top === name) break;
      }
      continue;
    }
    if (RAW_TEXT.has(name)) {
      // Raw text runs to its own end tag (found case-blind; lower-casing the page
      // could change its length and so every index).
      const close = new RegExp(`</${name}`, 'gi');
      close.lastIndex = tag.lastIndex;
      const end = close.exec(html);
      if (!end) break;
      tag.lastIndex = end.index;
      continue;
    }
    if (m[3] || NOT_NESTING.has(name)) continue;
    open.push(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (open.length > MAX_PARSE_DEPTH) return `nested over ${MAX_PARSE_DEPTH} deep`;
  }
  return null;
}

/** A plain-text page: its text as sent; the first line stands for a title. */
export function plainTextPage(body: string, url: string): ReadablePage {
  const firstLine = body.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
  return { title: firstLine.slice(0, 200) || hostOf(url), publisher: hostOf(url), published: null, text: body };
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return url;
  }
}

function meta(doc: Document, selector: string): string | null {
  const v = doc.querySelector(selector)?.getAttribute('content')?.trim();
  return v ? v : null;
}

function publisherOf(doc: Document, url: string): string {
  return meta(doc, 'meta[property="og:site_name"]') ?? meta(doc, 'meta[name="application-name"]') ?? hostOf(url);
}

/** The publication date, from the most to the least deliberate statement of it. */
function publishedOf(doc: Document): string | null {
  const candidates: (() => string | null | undefined)[] = [
    () => meta(doc, 'meta[property="article:published_time"]'),
    () => meta(doc, 'meta[property="og:published_time"]'),
    () => jsonLdDatePublished(doc),
    () => doc.querySelector('article time[datetime]')?.getAttribute('datetime'),
    () => {
      const el = doc.querySelector('[itemprop="datePublished"]');
      return el?.getAttribute('content') ?? el?.getAttribute('datetime');
    },
    () => meta(doc, 'meta[name="date" i]'),
    () => meta(doc, 'meta[name="dc.date" i]') ?? meta(doc, 'meta[name="dcterms.date" i]') ?? meta(doc, 'meta[name="citation_publication_date" i]'),
  ];
  for (const c of candidates) {
    const day = toDay(c());
    if (day) return day;
  }
  return null;
}

function jsonLdDatePublished(doc: Document): string | null {
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown;
    try {
      data = JSON.parse(script.textContent ?? '');
    } catch {
      continue; // a broken block is common; the next may be fine
    }
    const found = findKey(data, 'datePublished', 0);
    if (found) return found;
  }
  return null;
}

/** The first string value of a key, depth first through arrays, objects and @graph. */
function findKey(data: unknown, key: string, depth: number): string | null {
  if (depth > 8 || data === null || typeof data !== 'object') return null;
  if (Array.isArray(data)) {
    for (const item of data) {
      const v = findKey(item, key, depth + 1);
      if (v) return v;
    }
    return null;
  }
  const obj = data as Record<string, unknown>;
  if (typeof obj[key] === 'string') return obj[key];
  for (const v of Object.values(obj)) {
    const found = findKey(v, key, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * YYYY-MM-DD from the forms pages use. A date with a time keeps the date as
 * written: "2024-03-05T23:30-05:00" was published on the 5th where it was
 * published, whatever the day in UTC. Other forms (RFC 2822 dates in meta tags)
 * go through Date and are taken in UTC.
 */
export function toDay(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.trim();
  const iso = /^(\d{4})-?(\d{2})-?(\d{2})(?:$|[T\s])/.exec(s) ?? /^(\d{4})\/(\d{2})\/(\d{2})\b/.exec(s);
  if (iso) return validDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  if (!/[a-z]/i.test(s)) return null; // bare numbers and odd orders (05/03/2024) are ambiguous
  const t = Date.parse(s);
  if (Number.isNaN(t)) return null;
  const d = new Date(t);
  return validDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
}

function validDay(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  if (y < 1800 || y > new Date().getUTCFullYear() + 1) return null;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Elements that start a new paragraph when the page is rendered. */
const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DETAILS', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE',
  'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION',
  'SUMMARY', 'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'UL', 'CAPTION',
]);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'BUTTON']);
const BREAK = '\u0000'; // a paragraph boundary while the text is assembled; no page text holds it after collapse

/**
 * The text of a node as paragraphs. textContent alone would run "…end.</p><p>Next…"
 * together into "end.Next", breaking sentence boundaries that quotes depend on;
 * here block elements and <br> separate, and inside a paragraph whitespace is
 * collapsed as HTML renders it. <pre> keeps its lines.
 */
export function blockText(root: Node): string {
  const out: string[] = [];
  // An explicit stack, not recursion: a hostile page may nest elements deeper
  // than the call stack goes. Entries are nodes to visit, or text to emit after
  // a block's children.
  const stack: (readonly [Node, boolean] | string)[] = [[root, false]];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const [node, pre] = item;
    if (node.nodeType === 3) {
      const t = (node.nodeValue ?? '').replaceAll(BREAK, '');
      out.push(pre ? t.replace(/\r?\n/g, BREAK) : t);
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = ((node as Element).tagName ?? '').toUpperCase();
    if (SKIP.has(tag)) continue;
    if (tag === 'BR') {
      out.push(BREAK);
      continue;
    }
    const block = BLOCKS.has(tag);
    if (block) out.push(BREAK);
    if (tag === 'TD' || tag === 'TH') out.push(' ');
    if (block) stack.push(BREAK);
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, pre || tag === 'PRE']);
  }
  return out
    .join('')
    .split(BREAK)
    .map((p) => p.replace(/[\t\n\f\r ]+/g, ' ').trim())
    .filter((p) => p !== '')
    .join('\n\n');
}
