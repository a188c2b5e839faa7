import type { FetchedDocument, KnownSubject, Providers } from '../../core/providers/types.ts';
import { nameKey } from '../../core/corpus/pack.ts';
import { onOwnSite } from '../../core/research/rules.ts';

export { onOwnSite };

/**
 * Stage "discover": the documents in which the subject speaks, newest first.
 *
 * Speakers are listed by name, so two subjects who share a name (namesakes)
 * would each receive the other's statements. A document whose speakers match
 * several subjects goes to the one it points to, by this fixed rule, else to
 * none of them (it is left out, and counted):
 *   +3 the document lies on the subject's own site (same host, path prefix);
 *   +2 for each of the subject's aliases, not shared with a namesake, that the
 *      document names (text or publisher);
 *   +1 for each word of the subject's description, not found in a namesake's
 *      description, that the text contains (5+ letters; at most 3 points).
 * The highest score wins only if it is strictly higher than every other. Before that, a
 * speaker listed by a subject's own name settles it for that subject against one who
 * has the name only as an alias.
 */

export type Discovery = { documents: FetchedDocument[]; ambiguous: string[] };

const STOP = new Set(['about', 'after', 'their', 'there', 'these', 'which', 'where', 'while', 'sample', 'invented', 'data']);

function words(s: string | null): Set<string> {
  return new Set((s ?? '').toLowerCase().match(/[a-z][a-z'-]{4,}/g)?.filter((w) => !STOP.has(w)) ?? []);
}

function pointsTo(doc: FetchedDocument, s: KnownSubject, rivals: readonly KnownSubject[]): number {
  let score = onOwnSite(doc.url, s.urls) ? 3 : 0;
  const haystack = `${doc.publisher}\n${doc.text}`.toLowerCase();
  const rivalAliases = new Set(rivals.flatMap((r) => [r.name, ...r.aliases]).map(nameKey));
  for (const alias of s.aliases) {
    if (!rivalAliases.has(nameKey(alias)) && haystack.includes(alias.toLowerCase())) score += 2;
  }
  const rivalWords = new Set(rivals.flatMap((r) => [...words(r.description)]));
  const text = words(doc.text);
  let described = 0;
  for (const w of words(s.description)) if (!rivalWords.has(w) && text.has(w)) described++;
  return score + Math.min(described, 3);
}

export async function discoverStatements(
  subject: KnownSubject,
  providers: Pick<Providers, 'statements' | 'knowledge'>,
  opts: { limit: number },
): Promise<Discovery> {
  const docs = await providers.statements.statementsBy(subject, { limit: opts.limit });
  const namesakes = new Map<string, KnownSubject[]>();
  const documents: FetchedDocument[] = [];
  const ambiguous: string[] = [];
  for (const doc of docs) {
    const claimants = new Map<string, KnownSubject>();
    for (const speaker of doc.speakers) {
      const key = nameKey(speaker);
      if (!namesakes.has(key)) namesakes.set(key, await providers.knowledge.lookup(speaker));
      for (const s of namesakes.get(key)!) claimants.set(s.subject_id, s);
    }
    claimants.set(subject.subject_id, subject);
    if (claimants.size === 1) {
      documents.push(doc);
      continue;
    }
    const all = [...claimants.values()];
    // Only namesakes compete: a co-speaker with another name is not a rival.
    const mine = new Set([subject.name, ...subject.aliases].map(nameKey));
    const rivals = all.filter((s) => s.subject_id !== subject.subject_id && [s.name, ...s.aliases].some((n) => mine.has(nameKey(n))));
    if (rivals.length === 0) {
      documents.push(doc);
      continue;
    }
    // A speaker listed by a subject's own name is that subject's before any other's who has the name only as an alias
    // (an institute named among its director's aliases still speaks for itself in its own annual review).
    const named = (x: KnownSubject) => doc.speakers.some((sp) => nameKey(sp) === nameKey(x.name));
    const rivalNamed = rivals.some(named);
    if (named(subject) !== rivalNamed) {
      if (named(subject)) documents.push(doc);
      continue;
    }
    const own = pointsTo(doc, subject, rivals);
    const best = Math.max(...rivals.map((r) => pointsTo(doc, r, [subject, ...rivals.filter((x) => x !== r)])));
    if (own > best) documents.push(doc);
    else if (own === best) ambiguous.push(doc.url);
  }
  return { documents, ambiguous };
}
