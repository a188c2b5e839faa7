/**
 * Links the public pages may follow. Evidence, sources and counter-evidence
 * URLs come from outside (source packs, model output, replies): a page links
 * to one only when it is an absolute http(s) URL; anything else (javascript:,
 * data:, relative or malformed) is shown as text and never becomes an href.
 */
export function httpUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return null;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  // No credentials in a public link.
  if (u.username || u.password) return null;
  return u.href;
}
