import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { writeSiteFile } from './precompress.ts';

/**
 * robots.txt and sitemap.xml of the public site, written by every full and
 * incremental build from the pages the version holds (so the sitemap lists
 * exactly the pages there are, whichever build made them).
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

/** Every public page of a built client folder, as site paths: the single pages, each report, subject and browse letter, and the newest export manifest. */
export async function sitePaths(client: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of SINGLE_PAGES) if (await exists(path.join(client, p, 'index.html'))) out.push(p);
  for (const dir of KEYED_DIRS) {
    const names = await readdir(path.join(client, dir), { withFileTypes: true }).catch(() => []);
    for (const e of names.filter((n) => n.isDirectory()).map((n) => n.name).sort()) out.push(`/${dir}/${e}/`);
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
