/**
 * The method's rules about who a document belongs to, in one place: the
 * discover stage (which namesake a document points to), the extract stage
 * (whose voice a document's own sentences are) and the evidence stage
 * (whether a document is independent of a subject) all read these, so the
 * three can never disagree (methodology, "Evidence").
 */

const withScheme = (u: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `https://${u}`);
const hostOf = (u: URL) => u.host.toLowerCase().replace(/^www\./, '');

/**
 * Whether a URL lies on a site: the same host (case and a leading `www.`
 * aside) and, on path-segment boundaries, under the site's path
 * (`https://a.example/news` covers `/news` and `/news/x`, not `/newsroom`).
 * A site written without a scheme (`a.example/news`) is read as https.
 */
export function onSite(url: string, site: string): boolean {
  try {
    const a = new URL(withScheme(url));
    const b = new URL(withScheme(site));
    if (hostOf(a) !== hostOf(b)) return false;
    const base = b.pathname.replace(/\/+$/, '');
    return base === '' || a.pathname === base || a.pathname.startsWith(`${base}/`);
  } catch {
    return false;
  }
}

/** Whether a URL lies on one of a subject's own sites. */
export function onOwnSite(url: string, own: readonly string[]): boolean {
  return own.some((site) => onSite(url, site));
}

/** A name compared as a whole: case, spacing, punctuation and a leading "the" aside. */
export function nameForm(s: string): string {
  const w = s.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+(?:['’.,][\p{L}\p{N}]+)*/gu) ?? [];
  return w.join(' ').replace(/^the /, '');
}

/** Whether a publisher is the subject under its name or one of its aliases. */
export function publishedBy(publisher: string, names: readonly string[]): boolean {
  const p = nameForm(publisher);
  return p !== '' && names.some((n) => nameForm(n) === p);
}

/** The subject's own publication (its name or alias as publisher, or its own site): its narrator speaks for it. */
export function isOwnPublication(doc: { url: string; publisher: string }, subject: { name: string; aliases: readonly string[]; urls: readonly string[] }): boolean {
  return publishedBy(doc.publisher, [subject.name, ...subject.aliases]) || onOwnSite(doc.url, subject.urls);
}

/**
 * The organisations a person's description says they lead or work for ("chief
 * executive of Severnmoor Water since 2021", "director at the Fenmarsh
 * Institute"): capitalised names of two words or more (or an acronym) after
 * "of", "at", "for" or "with".
 */
export function affiliationsOf(description: string | null | undefined): string[] {
  const d = (description ?? '').replace(/^SAMPLE DATA \(invented\):\s*/i, '');
  const out: string[] = [];
  // "director of Wexmoor Rail", "managing director of the train operator Wexmoor Rail": a few lower-case words may
  // say what kind of body it is before its name.
  for (const m of d.matchAll(/\b(?:of|at|for|with)\s+(?:the\s+|a\s+|an\s+)?(?:[\p{Ll}-]+\s+){0,3}?((?:the\s+)?(?:\p{Lu}[\p{L}'’-]*|\p{Lu}{2,})(?:\s+(?:(?:and|of|for|the|&)\s+)*(?:\p{Lu}[\p{L}'’-]*|\p{Lu}{2,}))*)/gu)) {
    const name = m[1]!.replace(/^the\s+/i, '');
    if (name.split(/\s+/).length >= 2 || /^\p{Lu}{2,}$/u.test(name)) out.push(name);
  }
  return out;
}

/**
 * Independent of a subject (methodology, "Evidence"): published neither by the
 * subject nor under one of its aliases, and not on one of its own sites; for a
 * person, not published by the organisation they lead or work for either (an
 * institute's press release does not check its director's claim).
 */
export function isIndependent(
  doc: { url: string; publisher: string },
  subject: { name: string; kind?: string; aliases: readonly string[]; urls: readonly string[]; description?: string | null },
): boolean {
  const own = [subject.name, ...subject.aliases, ...(subject.kind === 'person' ? affiliationsOf(subject.description) : [])];
  return !publishedBy(doc.publisher, own) && !onOwnSite(doc.url, subject.urls);
}

/**
 * Invented sample documents judge only invented sample subjects (methodology,
 * "Evidence"): a document from a pack marked as sample data is never evidence
 * for a real subject's claim, nor for a demo-set claim (a published claim by a
 * real speaker).
 */
export function mayBeEvidence(doc: { sample?: boolean }, subject: { sample?: boolean; demo?: boolean }): boolean {
  return doc.sample !== true || (subject.sample === true && subject.demo !== true);
}

/**
 * A party's own statement (methodology, "Evidence"): a document whose publisher is among its speakers (a
 * press release, a column, a forecast) carries that party's claims, not findings. It never settles a claim
 * of anyone else; what the subject's own documents say about it is already not independent.
 */
export function isPartyStatement(doc: { publisher: string; speakers?: readonly string[] }): boolean {
  return (doc.speakers ?? []).some((s) => publishedBy(doc.publisher, [s]));
}
