import type { Queryable } from './db/pool.ts';

export type FoundClaim = {
  claim_id: string;
  subject_id: string;
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
  const r = await db.query<{ subject_id: string; data: Record<string, unknown> }>(
    `SELECT c.subject_id, c.data FROM claims c JOIN reports r ON r.id = c.report_id
      WHERE c.claim_id = $1 ORDER BY r.generated_at DESC LIMIT 1`,
    [claimId],
  );
  if (r.rows[0]) return { claim_id: claimId, subject_id: r.rows[0].subject_id, data: r.rows[0].data, demo: null };
  const d = await db.query<{ subject_id: string; data: Record<string, unknown>; dataset: string; publisher_rating: string; published_outcome: string | null }>(
    'SELECT subject_id, data, dataset, publisher_rating, published_outcome FROM demo_claims WHERE claim_id = $1',
    [claimId],
  );
  const row = d.rows[0];
  if (!row) return null;
  return { claim_id: claimId, subject_id: row.subject_id, data: row.data, demo: { dataset: row.dataset, publisher_rating: row.publisher_rating, published_outcome: row.published_outcome } };
}
