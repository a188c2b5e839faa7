/**
 * Small readings shared by the web adapters: a provider's date as YYYY-MM-DD,
 * a URL's host as a publisher, and a URL key for leaving pages out.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * A provider's date as YYYY-MM-DD, or null. Takes ISO dates and timestamps
 * (the date as written, not moved to another time zone: "published on" is the
 * publisher's day) and "March 4, 2024"; a relative age ("3 days ago") says
 * too little and gives null.
 */
export function isoDay(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(v);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const written = /^([A-Za-z]+)\.? (\d{1,2}), (\d{4})$/.exec(v);
  if (written) {
    const m = MONTHS.findIndex((name) => name.startsWith(written[1]!.toLowerCase()) && written[1]!.length >= 3);
    if (m >= 0) return realDay(Number(written[3]), m + 1, Number(written[2]));
  }
  return null;
}

function realDay(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1000) return null;
  return date.toISOString().slice(0, 10);
}

/** The host of a URL without "www.", or '' when it is not a URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** A URL as compared for exclusion: host case, fragment and a trailing slash do not tell pages apart. */
export function urlKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : '';
    return `${u.protocol}//${u.host.toLowerCase()}${path}${u.search}`;
  } catch {
    return url.trim();
  }
}

/** Hits in the provider's order, without excluded or repeated pages, at most `limit`. */
export function keepHits<T extends { url: string }>(hits: readonly T[], limit: number, excludeUrls: readonly string[] = []): T[] {
  const seen = new Set(excludeUrls.map(urlKey));
  const out: T[] = [];
  for (const h of hits) {
    if (out.length >= limit) break;
    const key = urlKey(h.url);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(h);
  }
  return out;
}
