import type { FetchProvider, FetchedDocument, KnownSubject, SearchProvider, StatementProvider } from '../types.ts';

/**
 * Where a subject speaks, on the open web: a web search for the subject's
 * name (and its aliases), each hit fetched through the safe fetcher. A page
 * is kept when it is dated and names the subject; the extract stage then
 * decides which of its sentences are the subject's own words (its own site's
 * pages, quotations, transcripts, reported speech).
 */
export function webStatements(search: SearchProvider, fetch: FetchProvider, opts: { concurrency?: number } = {}): StatementProvider {
  return {
    name: `web(${search.name})`,
    async statementsBy(subject: KnownSubject, { limit }) {
      const names = [subject.name, ...subject.aliases].slice(0, 3);
      const seen = new Set<string>();
      const urls: string[] = [];
      for (const name of names) {
        for (const hit of await search.search(`"${name}"`, { limit: Math.min(limit, 20) })) {
          if (!seen.has(hit.url)) {
            seen.add(hit.url);
            urls.push(hit.url);
          }
        }
      }
      const lower = names.map((n) => n.toLowerCase());
      const out: FetchedDocument[] = [];
      let next = 0;
      const lane = async () => {
        while (next < urls.length && out.length < limit) {
          const doc = await fetch.fetch(urls[next++]!);
          if (!doc?.published) continue;
          const text = doc.text.toLowerCase();
          if (!lower.some((n) => text.includes(n))) continue;
          out.push({ ...doc, speakers: doc.speakers.length ? doc.speakers : [subject.name] });
        }
      };
      await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, lane));
      // Newest first, as the local corpus answers.
      return out.slice(0, limit).sort((a, b) => (b.published ?? '').localeCompare(a.published ?? '') || a.url.localeCompare(b.url));
    },
  };
}
