import type { FetchedDocument, KnownSubject, Providers } from '../../core/providers/types.ts';
import { searchQuery, selectEvidence } from '../../core/research/evidence.ts';
import type { CandidateClaim, EvidenceItem } from '../../core/research/types.ts';

/**
 * The evidence stage's input-output half, at the edge: search the corpus (or
 * the configured search provider) for a claim and fetch each hit. Reading the
 * fetched documents is the pure stage `selectEvidence` in core/research.
 */

const FETCH_BATCH = 8;

export async function findDocuments(claim: CandidateClaim, providers: Pick<Providers, 'search' | 'fetch'>, limit: number): Promise<FetchedDocument[]> {
  if (limit <= 0) return [];
  const query = searchQuery(claim);
  if (query === '') return [];
  const hits = await providers.search.search(query, { limit: Math.max(limit * 4, 20), excludeUrls: [claim.source.url] });
  const docs: FetchedDocument[] = [];
  for (let i = 0; i < hits.length; i += FETCH_BATCH) {
    const batch = await Promise.all(hits.slice(i, i + FETCH_BATCH).map((h) => providers.fetch.fetch(h.url)));
    for (const d of batch) if (d && d.url !== claim.source.url) docs.push(d);
  }
  return docs;
}

/** Search, fetch and read in one call (the evidence stage whole, for tests and single claims). */
export async function gatherEvidence(
  claim: CandidateClaim,
  subject: KnownSubject,
  providers: Pick<Providers, 'search' | 'fetch'>,
  opts: { limit?: number } = {},
): Promise<EvidenceItem[]> {
  const limit = opts.limit ?? 5;
  return selectEvidence(claim, subject, await findDocuments(claim, providers, limit), limit);
}
