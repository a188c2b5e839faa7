import type { Queryable } from './db/pool.ts';

/** Which version of a claim a row holds: hashes of its quote, fixed test and evidence (migration 015's generated columns). */
export type ClaimVersion = { content_hash: string; quote_hash: string; test_hash: string; evidence_hash: string };
export const VERSION_COLUMNS = ['content_hash', 'quote_hash', 'test_hash', 'evidence_hash'] as const;

export type FoundClaim = {
  claim_id: string;
  subject_id: string;
  /** The report the claim was found in (the newest that carries it), and the claim's version there; null for demo claims. */
  report_id: string | null;
  version: ClaimVersion | null;
  /** The Claim object (less responses and review status). */
  data: Record<string, unknown>;
  /** For demo claims: what the publisher published. */
  demo: { dataset: string; publisher_rating: string; published_outcome: string | null } | null;
};

/**
 * A claim by id, wherever it lives: the newest report that carries it (claim
 * ids are stable across reports), else the demo sets.
 */
export async function findClaim(db: Queryable, claimId: string): Promise<FoundClaim | null> {
  const r = await db.query<{ subject_id: string; report_id: string; data: Record<string, unknown> } & ClaimVersion>(
    `SELECT c.subject_id, c.report_id, c.data, ${VERSION_COLUMNS.map((v) => `c.${v}`).join(', ')} FROM claims c JOIN reports r ON r.id = c.report_id
      WHERE c.claim_id = $1 ORDER BY r.generated_at DESC, r.id DESC LIMIT 1`,
    [claimId],
  );
  const found = r.rows[0];
  if (found) {
    const { content_hash, quote_hash, test_hash, evidence_hash } = found;
    return { claim_id: claimId, subject_id: found.subject_id, report_id: found.report_id, version: { content_hash, quote_hash, test_hash, evidence_hash }, data: found.data, demo: null };
  }
  const d = await db.query<{ subject_id: string; data: Record<string, unknown>; dataset: string; publisher_rating: string; published_outcome: string | null }>(
    'SELECT subject_id, data, dataset, publisher_rating, published_outcome FROM demo_claims WHERE claim_id = $1',
    [claimId],
  );
  const row = d.rows[0];
  if (!row) return null;
  return { claim_id: claimId, subject_id: row.subject_id, report_id: null, version: null, data: row.data, demo: { dataset: row.dataset, publisher_rating: row.publisher_rating, published_outcome: row.published_outcome } };
}
