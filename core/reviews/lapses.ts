import { VERSION_COLUMNS, type ClaimVersion } from '../claims.ts';
import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL, type Outcome } from '../method/outcomes.ts';
import { REVIEWED } from '../schemas/review-state.ts';
import { changedParts, lapseReason, versionToken, type ReviewRow } from './claims.ts';
import { appendRecord } from './record.ts';

/**
 * When a remade report changes a claim whose previous version was reviewed,
 * the review no longer holds for it (core/reviews/claims.ts shows the claim
 * unreviewed, with the reason, wherever the new version stands). This puts
 * the lapse in the record, once, when it happens: for each claim of the new
 * report whose version differs from the one in the newest earlier report
 * that carries it, when that earlier version was reviewed and this one is not.
 * Runs in storeReport's transaction, under the claims' review locks.
 */
export async function declareLapses(tx: Queryable, reportId: string, subjectId: string): Promise<number> {
  const cols = VERSION_COLUMNS.map((c) => `n.${c}`).join(', ');
  const { rows } = await tx.query<ClaimVersion & { claim_id: string; machine_outcome: Outcome; was: ReviewRow }>(
    `WITH n AS (SELECT claim_id, data, ${VERSION_COLUMNS.join(', ')} FROM claims WHERE report_id = $1),
          prev AS (
            SELECT DISTINCT ON (c.claim_id) c.claim_id, c.content_hash
              FROM claims c JOIN reports r ON r.id = c.report_id JOIN n ON n.claim_id = c.claim_id
             WHERE c.report_id <> $1
             ORDER BY c.claim_id, r.generated_at DESC, r.id DESC)
     SELECT n.claim_id, ${cols}, n.data->>'outcome' AS machine_outcome, to_jsonb(cr) AS was
       FROM n JOIN prev p ON p.claim_id = n.claim_id AND p.content_hash <> n.content_hash
       JOIN claim_reviews cr ON cr.claim_id = p.claim_id AND cr.content_hash = p.content_hash
      WHERE NOT EXISTS (SELECT 1 FROM claim_reviews x WHERE x.claim_id = n.claim_id AND x.content_hash = n.content_hash)
      ORDER BY n.claim_id`,
    [reportId],
  );
  for (const r of rows) {
    const was = { ...r.was, reviewed_at: new Date(r.was.reviewed_at as unknown as string) };
    const parts = changedParts(was, r);
    await appendRecord(tx, {
      action: 'review_lapsed', subject_id: subjectId, report_id: reportId, claim_id: r.claim_id, response_id: null, reviewer: null,
      before: { review_status: REVIEWED, outcome: was.outcome, rationale: was.rationale, reviewer: was.reviewer, reviewed_at: was.reviewed_at.toISOString(), version: versionToken(was.content_hash, was.revision) },
      after: { review_status: REVIEW_LABEL, outcome: r.machine_outcome, changed: parts, version: versionToken(r.content_hash, 0) },
      note: lapseReason(was, parts),
    });
  }
  return rows.length;
}
