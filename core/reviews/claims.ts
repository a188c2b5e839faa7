import { VERSION_COLUMNS, findClaim, type ClaimVersion } from '../claims.ts';
import { withTransaction, type Pool, type Queryable } from '../db/pool.ts';
import { DomainError, NotFoundError } from '../errors.ts';
import { REVIEW_LABEL, type Outcome } from '../method/outcomes.ts';
import { withResponses } from '../responses.ts';
import { REVIEWED, type ClaimReviewState, type ReviewStatus } from '../schemas/review-state.ts';
import type { ClaimReviewRequest } from '../schemas/reviews.ts';
import { appendRecord } from './record.ts';
import { lockReportsCarrying, refreshReviewCounts, withdrawSignOffs } from './reports.ts';

/**
 * Reviews of claims (issue #18, item 2). A review is of one version of a
 * claim: its quote, fixed test and evidence, as hashed by PostgreSQL
 * (migration 015). It holds wherever that version stands, so it survives a
 * report remade with the claim unchanged; a remade report that changes any of
 * the three shows the claim unreviewed again, saying what changed and which
 * review lapsed. The machine's verdict stays in the claim's data untouched:
 * every reader joins the review on (withReviews), never copies it.
 */

/** Advisory lock class of a claim under review; also taken by storeReport for each claim it stores. */
export const REVIEW_CLAIM_LOCK = 7_271_018;

export type ReviewRow = ClaimVersion & {
  claim_id: string; outcome: Outcome; rationale: string; machine_outcome: Outcome; machine_rationale: string;
  decision: 'confirmed' | 'corrected'; reviewer: string; reviewed_at: Date; revision: number;
};

const REVIEW_COLUMNS = `claim_id, ${VERSION_COLUMNS.join(', ')}, outcome, rationale, machine_outcome, machine_rationale, decision, reviewer, reviewed_at, revision`;

/** The version token a client sends back: the content hash (enough of it) and how many reviews that version has had. */
export const versionToken = (contentHash: string, revision: number) => `${contentHash.slice(0, 16)}.${revision}`;

/** Every review of these claims, newest first within each claim. */
export async function reviewRows(db: Queryable, claimIds: readonly string[]): Promise<Map<string, ReviewRow[]>> {
  const out = new Map<string, ReviewRow[]>();
  if (claimIds.length === 0) return out;
  const { rows } = await db.query<ReviewRow>(
    `SELECT ${REVIEW_COLUMNS} FROM claim_reviews WHERE claim_id = ANY($1::text[]) ORDER BY claim_id, reviewed_at DESC, revision DESC`,
    [[...new Set(claimIds)]],
  );
  for (const r of rows) out.set(r.claim_id, [...(out.get(r.claim_id) ?? []), r]);
  return out;
}

const PART_WORDS = { quote: 'quote', fixed_test: 'fixed test', evidence: 'evidence' } as const;

/** Which parts of a claim differ between the version a review was of and this one. */
export function changedParts(was: ClaimVersion, now: ClaimVersion): ('quote' | 'fixed_test' | 'evidence')[] {
  return [
    ...(was.quote_hash !== now.quote_hash ? (['quote'] as const) : []),
    ...(was.test_hash !== now.test_hash ? (['fixed_test'] as const) : []),
    ...(was.evidence_hash !== now.evidence_hash ? (['evidence'] as const) : []),
  ];
}

const listWords = (words: string[]) => (words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`);

export function lapseReason(r: Pick<ReviewRow, 'reviewer' | 'reviewed_at' | 'outcome'>, parts: ('quote' | 'fixed_test' | 'evidence')[]): string {
  const what = parts.length ? `its ${listWords(parts.map((p) => PART_WORDS[p]))} changed` : 'it changed';
  return `Reviewed by ${r.reviewer} on ${r.reviewed_at.toISOString().slice(0, 10)} as ${r.outcome}, but ${what} when the report was remade, so that review no longer holds and the claim is unreviewed again.`;
}

export type ReviewFields = {
  outcome: Outcome;
  rationale: string;
  review_status: ReviewStatus;
  machine_verdict: { outcome: Outcome; rationale: string; judges_disagree: boolean };
  review: ClaimReviewState;
};

type MachineData = { outcome: Outcome; rationale: string; judges_disagree?: boolean };

/** A claim version with its review joined on: the verdict that stands, the machine's beside it, and where review stands. */
export function reviewFields(data: MachineData, v: ClaimVersion, reviews: readonly ReviewRow[]): ReviewFields {
  const machine = { outcome: data.outcome, rationale: data.rationale, judges_disagree: data.judges_disagree === true };
  const current = reviews.find((r) => r.content_hash === v.content_hash);
  if (current) {
    return {
      outcome: current.outcome,
      rationale: current.rationale,
      review_status: REVIEWED,
      machine_verdict: machine,
      review: {
        version: versionToken(v.content_hash, current.revision), decision: current.decision, reviewer: current.reviewer,
        reviewed_at: current.reviewed_at.toISOString(), rationale: current.rationale, revision: current.revision, lapsed: null,
      },
    };
  }
  // The newest review of another version: the one a reader would have seen last.
  const earlier = reviews[0];
  const parts = earlier ? changedParts(earlier, v) : [];
  return {
    outcome: machine.outcome,
    rationale: machine.rationale,
    review_status: REVIEW_LABEL,
    machine_verdict: machine,
    review: {
      version: versionToken(v.content_hash, 0), decision: null, reviewer: null, reviewed_at: null, rationale: null, revision: 0,
      lapsed: earlier ? { reason: lapseReason(earlier, parts), changed: parts, outcome: earlier.outcome, reviewer: earlier.reviewer, reviewed_at: earlier.reviewed_at.toISOString() } : null,
    },
  };
}

export type VersionedClaim = ClaimVersion & { claim_id: string; data: Record<string, unknown> };

/** The claims (stored data with their versions) as they are served: data, then the review joined on. */
export async function withReviews<T extends VersionedClaim>(db: Queryable, rows: readonly T[]): Promise<Array<Record<string, unknown> & { claim_id: string } & ReviewFields>> {
  const reviews = await reviewRows(db, rows.map((r) => r.claim_id));
  return rows.map((r) => ({ ...r.data, claim_id: r.claim_id, ...reviewFields(r.data as MachineData, r, reviews.get(r.claim_id) ?? []) }));
}

const notReviewable = (claimId: string) =>
  new NotFoundError(`No claim ${claimId} in any stored report. Claims to review come from GET /v1/reviews/queue or a subject's claims (GET /v1/subjects/{subject_id}/claims); demo claims and a check result's chk_ ids are not published verdicts and are not reviewed.`);

/**
 * POST /v1/claims/{claim_id}/review: confirms or replaces the machine's
 * outcome on the claim's current version (the newest report that carries
 * it). The client sends the version it read; anything else is refused (409),
 * so two reviewers acting at once leave exactly one review, and the other
 * is told what happened. In one transaction, under the claim's lock: the
 * review, its record entry, the withdrawal of any sign-off whose score this
 * changes, and the reviewed counts of every report that carries the claim.
 */
export async function reviewClaim(pool: Pool, keyId: number, claimId: string, body: ClaimReviewRequest) {
  return withTransaction(pool, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [REVIEW_CLAIM_LOCK, claimId]);
    const claim = await findClaim(tx, claimId);
    if (!claim || !claim.version || !claim.report_id) throw notReviewable(claimId);
    const v = claim.version;
    const reviews = (await reviewRows(tx, [claimId])).get(claimId) ?? [];
    const existing = reviews.find((r) => r.content_hash === v.content_hash) ?? null;
    const current = versionToken(v.content_hash, existing?.revision ?? 0);
    if (body.version !== current) {
      if (body.version.split('.')[0] !== v.content_hash.slice(0, 16)) {
        throw new DomainError(409, 'claim-changed', `Claim ${claimId} is not the version you read: its quote, fixed test or evidence changed since (the report was remade), and a review holds only for the version it was made on. Read the claim again (GET /v1/subjects/${claim.subject_id}/claims or the review queue) and review version ${current}.`, { current_version: current });
      }
      throw new DomainError(409, 'review-conflict', existing
        ? `Claim ${claimId} was reviewed since you read it: by ${existing.reviewer} at ${existing.reviewed_at.toISOString()}, as ${existing.outcome} (review ${existing.revision}). Read it again; to change that review, send version ${current}.`
        : `Version ${body.version} is not one claim ${claimId} has had; its current version is ${current}.`, { current_version: current });
    }
    const data = claim.data as MachineData & { subject_id?: string };
    const decision = body.outcome === data.outcome ? 'confirmed' : 'corrected';
    const { rows: [saved] } = await tx.query<ReviewRow>(
      `INSERT INTO claim_reviews AS r (claim_id, content_hash, subject_id, quote_hash, test_hash, evidence_hash, outcome, rationale, machine_outcome, machine_rationale, decision, reviewer, key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (claim_id, content_hash) DO UPDATE
         SET outcome = EXCLUDED.outcome, rationale = EXCLUDED.rationale, decision = EXCLUDED.decision, reviewer = EXCLUDED.reviewer,
             key_id = EXCLUDED.key_id, reviewed_at = now(), revision = r.revision + 1
       RETURNING ${REVIEW_COLUMNS}`,
      [claimId, v.content_hash, claim.subject_id, v.quote_hash, v.test_hash, v.evidence_hash, body.outcome, body.rationale, data.outcome, data.rationale, decision, body.reviewer, keyId],
    );
    const after = reviewFields(data, v, [saved!]);
    const record = await appendRecord(tx, {
      action: 'claim_review', subject_id: claim.subject_id, report_id: claim.report_id, claim_id: claimId, response_id: null,
      reviewer: body.reviewer, keyId,
      before: existing
        ? { review_status: REVIEWED, outcome: existing.outcome, rationale: existing.rationale, decision: existing.decision, reviewer: existing.reviewer, version: current }
        : { review_status: REVIEW_LABEL, outcome: data.outcome, rationale: data.rationale, version: current },
      after: { review_status: REVIEWED, outcome: after.outcome, rationale: after.rationale, decision, version: after.review.version, machine_outcome: data.outcome },
      note: body.rationale,
    });
    // Reports are locked in one order (lockReportsCarrying) before any is written, so reviews of two claims they share never deadlock.
    const reportIds = await lockReportsCarrying(tx, claimId);
    const withdrawn = await withdrawSignOffs(tx, { claimId, contentHash: v.content_hash, outcome: body.outcome, reviewer: body.reviewer, keyId });
    await refreshReviewCounts(tx, reportIds);
    const [served] = await withResponses(tx, [{ ...claim.data, claim_id: claimId, ...after }]);
    return { claim_id: claimId, subject_id: claim.subject_id, report_id: claim.report_id, claim: served!, record, signoffs_withdrawn: withdrawn };
  });
}
