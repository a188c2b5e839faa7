import type { Queryable } from '../db/pool.ts';
import type { ReviewRecord } from '../schemas/reviews.ts';

/**
 * The review record (issue #18, item 6): every review, sign-off and reply
 * decision, and every lapse the service declares, appended to review_events
 * in the same transaction as the act itself, so the record never says
 * something happened that did not, nor misses what did. Never updated or
 * deleted; in the export (core/export.ts).
 *
 * Which pages an entry changes (for the site's builds, jobs/site/changes.ts):
 * `claim_review`, `review_lapsed` and `reply_decision` change the page of
 * every report carrying the claim; `report_signoff` and `signoff_withdrawn`
 * rewrite the report's own row, so its page and the pages showing its
 * headline (subject, browse letter, index) follow from that row.
 */

export type NewRecord = Omit<ReviewRecord, 'record_id' | 'at'> & { keyId?: number | null };

type Row = {
  id: number; action: ReviewRecord['action']; subject_id: string; report_id: string | null; claim_id: string | null; response_id: string | null;
  reviewer: string | null; at: Date; before: Record<string, unknown> | null; after: Record<string, unknown> | null; note: string | null;
};

export const RECORD_COLUMNS = 'id, action, subject_id, report_id, claim_id, response_id, reviewer, at, before, after, note';

export function recordOut(r: Row): ReviewRecord {
  return {
    record_id: r.id, action: r.action, subject_id: r.subject_id, report_id: r.report_id, claim_id: r.claim_id, response_id: r.response_id,
    reviewer: r.reviewer, at: r.at.toISOString(), before: r.before, after: r.after, note: r.note,
  };
}

export async function appendRecord(tx: Queryable, e: NewRecord): Promise<ReviewRecord> {
  const { rows } = await tx.query<Row>(
    `INSERT INTO review_events (action, subject_id, report_id, claim_id, response_id, reviewer, key_id, before, after, note)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${RECORD_COLUMNS}`,
    [e.action, e.subject_id, e.report_id, e.claim_id, e.response_id, e.reviewer, e.keyId ?? null,
      e.before === null ? null : JSON.stringify(e.before), e.after === null ? null : JSON.stringify(e.after), e.note],
  );
  return recordOut(rows[0]!);
}

const PAGE = 500;

/** A subject's whole record, oldest first, a page at a time (the export streams it). */
export async function* subjectRecord(db: Queryable, subjectId: string): AsyncGenerator<ReviewRecord[]> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<Row>(
      `SELECT ${RECORD_COLUMNS} FROM review_events WHERE subject_id = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [subjectId, after, PAGE],
    );
    if (rows.length) yield rows.map(recordOut);
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}
