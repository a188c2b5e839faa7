import { randomBytes } from 'node:crypto';
import { findClaim } from './claims.ts';
import { withTransaction, type Pool, type Queryable } from './db/pool.ts';
import { DomainError, LimitError, NotFoundError, secondsUntilUtcMidnight } from './errors.ts';
import { RESPONSES_INLINE } from './schemas/common.ts';
import type { ResponseRequest } from './schemas/requests.ts';
import type { ClaimResponse } from './schemas/resources.ts';

/**
 * Replies and corrections stored against claims (SPEC.md, "Responses"). A
 * reply is shown on its claim, as sent, with the status below until a person
 * has reviewed it (then with the reviewer's decision and note: core/reviews/
 * replies.ts); the service does not judge it. The key that sent it is
 * kept (for abuse handling and the caps below) but never shown.
 *
 * Replies are bounded, since every page that shows a claim carries them: at
 * most `perClaim` on one claim in all (409 past it), and per key at most
 * `perKeyPerClaimPerDay` on one claim and `perKeyPerDay` in all per UTC day
 * (429 until 00:00 UTC). A claim carries only its RESPONSES_INLINE newest
 * replies, with their count and the path of the paged list of them all.
 */

export const RESPONSE_STATUS = 'response received, not yet reviewed' as const;

export { RESPONSES_INLINE };

export type ResponseLimits = { perClaim: number; perKeyPerClaimPerDay: number; perKeyPerDay: number };

/** Where all of a claim's replies are listed, a page at a time. */
export const responsesPath = (claimId: string) => `/v1/claims/${encodeURIComponent(claimId)}/responses`;

// Advisory lock classes (the two-integer form): one lock per key, one per claim.
const KEY_LOCK = 7_271_016;
const CLAIM_LOCK = 7_271_017;
// The start of today, UTC, in the transaction's own clock.
const TODAY = `(date_trunc('day', now() AT TIME ZONE 'utc') AT TIME ZONE 'utc')`;

const newResponseId = () => `rsp_${randomBytes(10).toString('hex')}`;

export type ResponseRow = {
  id: string; claim_id: string; subject_id: string; name: string; role: string | null; statement: string;
  counter_evidence_url: string | null; received_at: Date; status: string;
  decision: 'accepted' | 'not_accepted' | null; review_note: string | null; reviewed_by: string | null; reviewed_at: Date | null;
};

export const RESPONSE_COLUMNS = 'id, claim_id, subject_id, name, role, statement, counter_evidence_url, received_at, status, decision, review_note, reviewed_by, reviewed_at';
const COLUMNS = RESPONSE_COLUMNS;

/** A reply as a claim carries it, with the reviewer's decision once there is one (core/reviews/replies.ts). */
export function toClaimResponse(r: ResponseRow): ClaimResponse {
  return {
    response_id: r.id, name: r.name, role: r.role, statement: r.statement,
    counter_evidence_url: r.counter_evidence_url, received_at: r.received_at.toISOString(), status: r.status,
    review: r.decision && r.review_note && r.reviewed_by && r.reviewed_at
      ? { decision: r.decision, note: r.review_note, reviewer: r.reviewed_by, reviewed_at: r.reviewed_at.toISOString() }
      : null,
  };
}

async function claimOrNotFound(db: Queryable, claimId: string) {
  const claim = await findClaim(db, claimId);
  if (!claim) {
    throw new NotFoundError(`No claim ${claimId}. Claim ids come from a subject's claims (GET /v1/subjects/{subject_id}/claims) or the demo sets; a check result's chk_ id is not a stored claim.`);
  }
  return claim;
}

export async function storeResponse(pool: Pool, keyId: number, body: ResponseRequest, limits: ResponseLimits) {
  const claim = await claimOrNotFound(pool, body.claim_id);
  return withTransaction(pool, async (tx) => {
    // Counted and stored under a lock on the key and one on the claim, held to
    // the commit: requests racing at a cap leave exactly the cap. Always the
    // key's first, then the claim's: one order, so two of them never deadlock.
    await tx.query('SELECT pg_advisory_xact_lock($1, $2::int)', [KEY_LOCK, keyId]);
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CLAIM_LOCK, claim.claim_id]);
    const { rows: [n] } = await tx.query<{ on_claim: number; key_on_claim_today: number; key_today: number }>(
      `SELECT (SELECT count(*) FROM responses WHERE claim_id = $1)::int AS on_claim,
              (SELECT count(*) FROM responses WHERE claim_id = $1 AND key_id = $2 AND received_at >= ${TODAY})::int AS key_on_claim_today,
              (SELECT count(*) FROM responses WHERE key_id = $2 AND received_at >= ${TODAY})::int AS key_today`,
      [claim.claim_id, keyId],
    );
    if (n!.on_claim >= limits.perClaim) {
      throw new DomainError(409, 'claim-replies-full', `Claim ${claim.claim_id} holds ${n!.on_claim} replies, the most one claim takes; no more can be added to it. Read them at ${responsesPath(claim.claim_id)}.`);
    }
    const wait = secondsUntilUtcMidnight();
    if (n!.key_on_claim_today >= limits.perKeyPerClaimPerDay) {
      throw new LimitError('reply-limit', `This key has sent ${limits.perKeyPerClaimPerDay} replies to claim ${claim.claim_id} today, the most a key may send to one claim a day; send more after 00:00 UTC (in ${wait} s).`, wait);
    }
    if (n!.key_today >= limits.perKeyPerDay) {
      throw new LimitError('reply-limit', `This key has sent ${limits.perKeyPerDay} replies today, the most a key may send a day; send more after 00:00 UTC (in ${wait} s).`, wait);
    }
    const { rows } = await tx.query<ResponseRow>(
      `INSERT INTO responses (id, claim_id, subject_id, name, role, statement, counter_evidence_url, key_id, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, claim_id, subject_id, received_at, status`,
      [newResponseId(), claim.claim_id, claim.subject_id, body.name, body.role ?? null, body.statement, body.counter_evidence_url ?? null, keyId, RESPONSE_STATUS],
    );
    const row = rows[0]!;
    return { response_id: row.id, claim_id: row.claim_id, subject_id: row.subject_id, status: RESPONSE_STATUS, received_at: row.received_at.toISOString() };
  });
}

export type InlineResponses = { responses: ClaimResponse[]; total: number };

/** Each claim's RESPONSES_INLINE newest replies, newest first, and how many it has in all. */
export async function responsesFor(db: Queryable, claimIds: readonly string[]): Promise<Map<string, InlineResponses>> {
  const out = new Map<string, InlineResponses>();
  if (claimIds.length === 0) return out;
  // Numbered over ids only, then the few shown are read whole.
  const { rows } = await db.query<ResponseRow & { total: number }>(
    `SELECT ${COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')}, x.total
       FROM (SELECT id, count(*) OVER (PARTITION BY claim_id)::int AS total,
                    row_number() OVER (PARTITION BY claim_id ORDER BY received_at DESC, id DESC) AS n
               FROM responses WHERE claim_id = ANY($1::text[])) x
       JOIN responses r ON r.id = x.id
      WHERE x.n <= $2
      ORDER BY r.claim_id, x.n`,
    [claimIds, RESPONSES_INLINE],
  );
  for (const r of rows) {
    const entry = out.get(r.claim_id) ?? { responses: [], total: r.total };
    entry.responses.push(toClaimResponse(r));
    out.set(r.claim_id, entry);
  }
  return out;
}

export type WithResponses = { responses: ClaimResponse[]; responses_total: number; responses_url: string };

/** Joins each claim's newest replies, their count and the path of them all onto it: what every route serving a Claim does. */
export async function withResponses<C extends { claim_id: string }>(db: Queryable, claims: readonly C[]): Promise<Array<C & WithResponses>> {
  const byClaim = await responsesFor(db, claims.map((c) => c.claim_id));
  return claims.map((c) => {
    const r = byClaim.get(c.claim_id);
    return { ...c, responses: r?.responses ?? [], responses_total: r?.total ?? 0, responses_url: responsesPath(c.claim_id) };
  });
}

/** One page of a claim's replies, newest first (404 for an unknown claim). */
export async function responsesPage(db: Queryable, claimId: string, page: number, pageSize: number) {
  const claim = await claimOrNotFound(db, claimId);
  const total = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM responses WHERE claim_id = $1', [claim.claim_id])).rows[0]!.n;
  const { rows } = await db.query<ResponseRow>(
    `SELECT ${COLUMNS} FROM responses WHERE claim_id = $1 ORDER BY received_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [claim.claim_id, pageSize, (page - 1) * pageSize],
  );
  return {
    claim_id: claim.claim_id,
    subject_id: claim.subject_id,
    responses: rows.map(toClaimResponse),
    paging: { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) },
  };
}
