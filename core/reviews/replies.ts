import { withTransaction, type Pool } from '../db/pool.ts';
import { NotFoundError } from '../errors.ts';
import { RESPONSE_COLUMNS, toClaimResponse, type ResponseRow } from '../responses.ts';
import { replyStatusOf } from '../schemas/review-state.ts';
import type { ReplyReviewRequest } from '../schemas/reviews.ts';
import { appendRecord } from './record.ts';

/**
 * A reviewer's decision on a subject's reply (issue #18, item 4): accepted
 * (the claim was, or is to be, corrected by a review of its own) or not
 * accepted, with a short note published beside the reply. The reply's row
 * is locked while it is decided, so two reviewers deciding at once are
 * ordered: the second decision stands, and the record keeps both, the
 * second's `before` being the first's `after`.
 */
export async function decideReply(pool: Pool, keyId: number, responseId: string, body: ReplyReviewRequest) {
  return withTransaction(pool, async (tx) => {
    const { rows: [was] } = await tx.query<ResponseRow>(`SELECT ${RESPONSE_COLUMNS} FROM responses WHERE id = $1 FOR UPDATE`, [responseId]);
    if (!was) throw new NotFoundError(`No reply ${responseId}. Reply ids (rsp_…) are on a claim's \`responses\` (GET /v1/claims/{claim_id}/responses lists them all) and in the review queue.`);
    const status = replyStatusOf(body.decision);
    const { rows: [now] } = await tx.query<ResponseRow>(
      `UPDATE responses SET decision = $2, review_note = $3, reviewed_by = $4, reviewed_at = now(), review_key_id = $5, status = $6
        WHERE id = $1 RETURNING ${RESPONSE_COLUMNS}`,
      [responseId, body.decision, body.note, body.reviewer, keyId, status],
    );
    const record = await appendRecord(tx, {
      action: 'reply_decision', subject_id: was.subject_id, report_id: null, claim_id: was.claim_id, response_id: responseId, reviewer: body.reviewer, keyId,
      before: { status: was.status, decision: was.decision, note: was.review_note },
      after: { status, decision: body.decision, note: body.note },
      note: body.note,
    });
    return { response: toClaimResponse(now!), claim_id: was.claim_id, subject_id: was.subject_id, record };
  });
}
