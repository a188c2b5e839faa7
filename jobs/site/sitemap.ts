import { access, link, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Journal } from './journal.ts';
import { ENCODINGS, writeSiteFile } from './precompress.ts';

/**
 * robots.txt and sitemap.xml of the public site: written whole by every full
 * build from the pages the version holds, and extended by each incremental
 * build with the pages it adds (stageSitemapAdditions, which rewrites only
 * the sitemap's tail), so the sitemap lists exactly the pages there are.
 *
 * The sitemap protocol wants absolute URLs: with SITE_URL set they are; unset,
 * the sitemap lists root-relative paths (readable, but crawlers need SITE_URL
 * to use it) and robots.txt names no sitemap.
 */

/** Per the sitemap protocol: at most 50,000 URLs a file; past that, an index of files of that many. */
export const SITEMAP_MAX_URLS = 50_000;
const KEYED_DIRS = ['reports', 'subjects', 'browse'] as const;
const SINGLE_PAGES = ['/', '/methodology/', '/methodology/measurement/', '/methodology/rating-scale/', '/exports/'];

export function robotsTxt(siteUrl: string | null): string {
  const lines = ['User-agent: *', 'Allow: /', 'Disallow: /v1/', 'Disallow: /mcp'];
  if (siteUrl) lines.push('', `Sitemap: ${siteUrl.replace(/\/+$/, '')}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const exists = (p: string) => access(p).then(() => true, () => false);

/** Every public page of a built client folder, as site paths: the single pages, each report, subject and browse page, and the newest export manifest. */
export async function sitePaths(client: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of SINGLE_PAGES) if (await exists(path.join(client, p, 'index.html'))) out.push(p);
  const folders = async (rel: string) =>
    (await readdir(path.join(client, rel), { withFileTypes: true }).catch(() => [])).filter((n) => n.isDirectory()).map((n) => n.name).sort();
  for (const dir of KEYED_DIRS) {
    for (const e of await folders(dir)) {
      out.push(`/${dir}/${e}/`);
      // A browse letter's next pages: /browse/<letter>/<n>/, in page order.
      if (dir === 'browse') for (const n of (await folders(`${dir}/${e}`)).sort((a, b) => Number(a) - Number(b))) out.push(`/${dir}/${e}/${n}/`);
    }
  }
  // The nights' own files come and go with SITE_EXPORT_KEEP_DAYS (between builds); latest.json and the exports page stay.
  if (await exists(path.join(client, 'exports', 'latest.json'))) out.push('/exports/latest.json');
  return out;
}

function urlset(locs: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${xmlEscape(l)}</loc></url>\n`).join('')}</urlset>\n`;
}

/** Writes robots.txt and sitemap.xml (or, past SITEMAP_MAX_URLS, sitemap.xml as an index of sitemaps/sitemap-<n>.xml) into a client folder. */
export async function writeCrawlerFiles(client: string, siteUrl: string | null, maxUrls = SITEMAP_MAX_URLS): Promise<{ urls: number }> {
  const origin = siteUrl ? siteUrl.replace(/\/+$/, '') : '';
  const locs = (await sitePaths(client)).map((p) => origin + p);
  await writeSiteFile(path.join(client, 'robots.txt'), robotsTxt(siteUrl));
  if (locs.length <= maxUrls) {
    await writeSiteFile(path.join(client, 'sitemap.xml'), urlset(locs));
    return { urls: locs.length };
  }
  const parts: string[] = [];
  for (let i = 0; i * maxUrls < locs.length; i++) {
    const rel = `/sitemaps/sitemap-${i + 1}.xml`;
    await writeSiteFile(path.join(client, rel), urlset(locs.slice(i * maxUrls, (i + 1) * maxUrls)));
    parts.push(origin + rel);
  }
  const index = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts.map((l) => `<sitemap><loc>${xmlEscape(l)}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
  await writeSiteFile(path.join(client, 'sitemap.xml'), index);
  return { urls: locs.length };
}

/**
 * Past this many addresses, an incremental build no longer rewrites a sitemap
 * file: it adds a part to the index. Each build then rewrites at most one
 * part of at most this many addresses (and the index when it adds a part),
 * so the sitemap costs the same on a site of any size.
 */
export const SITEMAP_TAIL_URLS = 1_000;

const countUrls = (xml: string) => xml.split('<url>').length - 1;
const urlLines = (locs: string[]) => locs.map((l) => `<url><loc>${xmlEscape(l)}</loc></url>\n`).join('');
const appendUrls = (xml: string, locs: string[]) => xml.replace(/<\/urlset>\s*$/, `${urlLines(locs)}</urlset>\n`);
const sitemapIndex = (locs: string[]) => `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<sitemap><loc>${xmlEscape(l)}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;

/**
 * Stages the sitemap of a version that adds pages (`paths`, site paths) to
 * the live one, reading and writing only its tail: a small sitemap.xml gets
 * the addresses appended; a larger one becomes part 1 of an index (its file,
 * hard-linked, not rewritten), and the addresses go into the index's last
 * part while it holds fewer than SITEMAP_TAIL_URLS, or else into a new part.
 */
export async function stageSitemapAdditions(journal: Journal, liveClient: string, paths: string[], siteUrl: string | null, tail = SITEMAP_TAIL_URLS): Promise<void> {
  if (paths.length === 0) return;
  const origin = siteUrl ? siteUrl.replace(/\/+$/, '') : '';
  const locs = paths.map((p) => origin + p);
  const current = await readFile(path.join(liveClient, 'sitemap.xml'), 'utf8').catch(() => null);
  if (current === null || current.includes('<urlset')) {
    const xml = current ?? urlset([]);
    if (countUrls(xml) + locs.length <= tail) {
      await journal.writeSiteFile('client/sitemap.xml', appendUrls(xml, locs));
      return;
    }
    // The whole sitemap so far becomes part 1, as it is (with its compressed copies): nothing is rewritten.
    for (const ext of ['', ...ENCODINGS.map((e) => e.ext)]) {
      const target = journal.stagedPath(`client/sitemaps/sitemap-1.xml${ext}`);
      await mkdir(path.dirname(target), { recursive: true });
      const ok = await link(path.join(liveClient, `sitemap.xml${ext}`), target).then(() => true, () => false);
      if (ok) journal.track(`client/sitemaps/sitemap-1.xml${ext}`);
    }
    await journal.writeSiteFile('client/sitemaps/sitemap-2.xml', urlset(locs));
    await journal.writeSiteFile('client/sitemap.xml', sitemapIndex([`${origin}/sitemaps/sitemap-1.xml`, `${origin}/sitemaps/sitemap-2.xml`]));
    return;
  }
  const parts = [...current.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  const last = parts.at(-1);
  const lastFile = last ? new URL(last, 'http://site.invalid').pathname : null;
  const lastXml = lastFile ? await readFile(path.join(liveClient, lastFile), 'utf8').catch(() => null) : null;
  if (lastFile && lastXml && countUrls(lastXml) + locs.length <= tail) {
    await journal.writeSiteFile(`client${lastFile}`, appendUrls(lastXml, locs));
    return;
  }
  const rel = `/sitemaps/sitemap-${parts.length + 1}.xml`;
  await journal.writeSiteFile(`client${rel}`, urlset(locs));
  await journal.writeSiteFile('client/sitemap.xml', sitemapIndex([...parts, origin + rel]));
}
