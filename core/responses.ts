import { randomBytes } from 'node:crypto';
import { findClaim } from './claims.ts';
import type { Queryable } from './db/pool.ts';
import { NotFoundError } from './errors.ts';
import type { ResponseRequest } from './schemas/requests.ts';
import type { ClaimResponse } from './schemas/resources.ts';

/**
 * Replies and corrections stored against claims (SPEC.md, "Responses"). A
 * reply is shown on its claim, as sent, with the status below until a person
 * has reviewed it; the service does not judge it. The key that sent it is
 * kept (for abuse handling) but never shown.
 */

export const RESPONSE_STATUS = 'response received, not yet reviewed' as const;

const newResponseId = () => `rsp_${randomBytes(10).toString('hex')}`;

type ResponseRow = {
  id: string; claim_id: string; subject_id: string; name: string; role: string | null; statement: string;
  counter_evidence_url: string | null; received_at: Date; status: string;
};

export async function storeResponse(db: Queryable, keyId: number, body: ResponseRequest) {
  const claim = await findClaim(db, body.claim_id);
  if (!claim) {
    throw new NotFoundError(`No claim ${body.claim_id}. Claim ids come from a subject's claims (GET /v1/subjects/{subject_id}/claims) or the demo sets; a check result's chk_ id is not a stored claim.`);
  }
  const { rows } = await db.query<ResponseRow>(
    `INSERT INTO responses (id, claim_id, subject_id, name, role, statement, counter_evidence_url, key_id, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, claim_id, subject_id, received_at, status`,
    [newResponseId(), claim.claim_id, claim.subject_id, body.name, body.role ?? null, body.statement, body.counter_evidence_url ?? null, keyId, RESPONSE_STATUS],
  );
  const row = rows[0]!;
  return { response_id: row.id, claim_id: row.claim_id, subject_id: row.subject_id, status: RESPONSE_STATUS, received_at: row.received_at.toISOString() };
}

/** The replies stored against each of these claims, oldest first, as a Claim's `responses` shows them. */
export async function responsesFor(db: Queryable, claimIds: readonly string[]): Promise<Map<string, ClaimResponse[]>> {
  const out = new Map<string, ClaimResponse[]>();
  if (claimIds.length === 0) return out;
  const { rows } = await db.query<ResponseRow>(
    `SELECT id, claim_id, subject_id, name, role, statement, counter_evidence_url, received_at, status
       FROM responses WHERE claim_id = ANY($1::text[]) ORDER BY received_at, id`,
    [claimIds],
  );
  for (const r of rows) {
    const entry: ClaimResponse = {
      response_id: r.id, name: r.name, role: r.role, statement: r.statement,
      counter_evidence_url: r.counter_evidence_url, received_at: r.received_at.toISOString(), status: r.status,
    };
    out.set(r.claim_id, [...(out.get(r.claim_id) ?? []), entry]);
  }
  return out;
}

/** Joins each claim's replies onto it: what every route serving a Claim does. */
export async function withResponses<C extends { claim_id: string }>(db: Queryable, claims: readonly C[]): Promise<Array<C & { responses: ClaimResponse[] }>> {
  const byClaim = await responsesFor(db, claims.map((c) => c.claim_id));
  return claims.map((c) => ({ ...c, responses: byClaim.get(c.claim_id) ?? [] }));
}
