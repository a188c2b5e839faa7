import { stringify } from 'csv-stringify/sync';
import { findClaim } from './claims.ts';
import type { Queryable } from './db/pool.ts';
import { NotFoundError } from './errors.ts';
import { REVIEW_LABEL } from './method/outcomes.ts';
import { latestReport } from './reports/repository.ts';
import { pagingOf } from './schemas/common.ts';
import type { LabelRequest } from './schemas/requests.ts';
import type { Label, LabelQueueItem } from './schemas/resources.ts';

/**
 * Reviewers' labels, for the human-labelled gold set (SPEC.md, "Labels").
 * A label belongs to the key that made it: one per key and claim, a second
 * replacing the first; no key ever reads another key's labels.
 *
 * The blind queue shows a subject's researched claims with what a reviewer
 * needs to judge them (quote, source, the fixed test, the evidence passages)
 * and withholds, until the caller has labelled the claim, everything that
 * gives the machine's verdict away: the outcome, the rationale,
 * `judges_disagree`, `on_time`, and for demo claims the published outcome.
 * The evidence is the judges' input, not their output: it was chosen before
 * they read it, and is shown in the evidence stage's own order.
 */

type Page = { page: number; pageSize: number };

type LabelRow = {
  claim_id: string; subject_id: string; verdict: Label['verdict']; on_time: boolean | null; note: string | null;
  reviewer: string | null; labelled_at: Date; revision: number;
};

const LABEL_COLUMNS = 'claim_id, subject_id, verdict, on_time, note, reviewer, labelled_at, revision';

function labelOut(r: LabelRow): Label {
  return { claim_id: r.claim_id, subject_id: r.subject_id, verdict: r.verdict, on_time: r.on_time, note: r.note, reviewer: r.reviewer, labelled_at: r.labelled_at.toISOString() };
}

type ClaimData = {
  claim_id: string; claim_type: LabelQueueItem['claim_type']; quote: string; said_on: string | null;
  source: LabelQueueItem['source']; resolution_criteria: string; evidence: LabelQueueItem['evidence'];
  outcome: NonNullable<LabelQueueItem['machine']>['outcome']; rationale: string; judges_disagree: boolean;
};

function machineOf(d: Pick<ClaimData, 'outcome' | 'rationale' | 'judges_disagree'>) {
  return { outcome: d.outcome, rationale: d.rationale, judges_disagree: d.judges_disagree === true, review_status: REVIEW_LABEL };
}

/** POST /v1/labels: stores (or replaces) the caller's verdict and reveals the machine's, and for demo claims the published one. */
export async function recordLabel(db: Queryable, keyId: number, body: LabelRequest) {
  const claim = await findClaim(db, body.claim_id);
  if (!claim) {
    throw new NotFoundError(`No claim ${body.claim_id}. Claims to label come from GET /v1/labels/claims?subject_id=…; a check result's chk_ id is not a stored claim.`);
  }
  // `revision` tells a replacement from a first label, even when two arrive at once.
  const { rows } = await db.query<LabelRow>(
    `INSERT INTO labels AS l (key_id, claim_id, subject_id, verdict, on_time, note, reviewer)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (key_id, claim_id) DO UPDATE
       SET verdict = EXCLUDED.verdict, on_time = EXCLUDED.on_time, note = EXCLUDED.note, reviewer = EXCLUDED.reviewer,
           subject_id = EXCLUDED.subject_id, labelled_at = now(), revision = l.revision + 1
     RETURNING ${LABEL_COLUMNS}`,
    [keyId, claim.claim_id, claim.subject_id, body.verdict, body.on_time ?? null, body.note ?? null, body.reviewer ?? null],
  );
  const row = rows[0]!;
  const published = claim.demo ?? (await demoOutcome(db, claim.claim_id));
  return {
    label: labelOut(row),
    replaced: row.revision > 1,
    machine: machineOf(claim.data as ClaimData),
    published: published ? { outcome: published.published_outcome, publisher_rating: published.publisher_rating, dataset: published.dataset } : null,
  };
}

/** A demo set's published outcome for a claim that findClaim found in a report first. */
async function demoOutcome(db: Queryable, claimId: string) {
  const { rows } = await db.query<{ dataset: string; publisher_rating: string; published_outcome: string | null }>(
    'SELECT dataset, publisher_rating, published_outcome FROM demo_claims WHERE claim_id = $1',
    [claimId],
  );
  return rows[0] ?? null;
}

const OWN_LABELS = 'FROM labels WHERE key_id = $1 AND ($2::text IS NULL OR subject_id = $2)';

/** GET /v1/labels?format=csv: every one of the caller's own labels, oldest first, optionally for one subject. */
export async function listLabels(db: Queryable, keyId: number, subjectId?: string): Promise<Label[]> {
  const { rows } = await db.query<LabelRow>(`SELECT ${LABEL_COLUMNS} ${OWN_LABELS} ORDER BY labelled_at, claim_id`, [keyId, subjectId ?? null]);
  return rows.map(labelOut);
}

/** GET /v1/labels: one page of the caller's own labels, in the same order. */
export async function labelsPage(db: Queryable, keyId: number, subjectId: string | undefined, page: Page) {
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${OWN_LABELS}`, [keyId, subjectId ?? null])).rows[0]!.n;
  const { rows } = await db.query<LabelRow>(
    `SELECT ${LABEL_COLUMNS} ${OWN_LABELS} ORDER BY labelled_at, claim_id LIMIT $3 OFFSET $4`,
    [keyId, subjectId ?? null, page.pageSize, (page.page - 1) * page.pageSize],
  );
  return { labels: rows.map(labelOut), paging: pagingOf(page.page, page.pageSize, total) };
}

/**
 * The queue's claims: those of the subject's latest report in its order, then
 * its demo claims, newest said first. A claim in both is listed once, where it
 * first stands.
 */
const QUEUE_SQL = `WITH q AS (
    SELECT c.claim_id, c.data, 0 AS part, c.position AS pos, NULL::text AS said FROM claims c WHERE c.report_id = $1
    UNION ALL
    SELECT d.claim_id, d.data, 1, 0, d.data->>'said_on' FROM demo_claims d WHERE d.subject_id = $2
  ), queue AS (
    SELECT DISTINCT ON (claim_id) claim_id, data, part, pos, said FROM q ORDER BY claim_id, part, pos, said DESC NULLS LAST
  )`;

/** GET /v1/labels/claims: one page of the subject's researched claims, blind until the caller has labelled each. */
export async function labelQueue(db: Queryable, keyId: number, subjectId: string, page: Page) {
  const subject = await db.query('SELECT 1 FROM subjects WHERE id = $1', [subjectId]);
  if (subject.rowCount === 0) throw new NotFoundError(`No subject ${subjectId}. Find subjects with GET /v1/subjects or POST /v1/subjects/resolve.`);
  const report = await latestReport(db, subjectId);
  const { rows: [counts] } = await db.query<{ total: number; labelled: number }>(
    `${QUEUE_SQL} SELECT count(*)::int AS total,
       (SELECT count(*) FROM labels l WHERE l.key_id = $3 AND l.claim_id IN (SELECT claim_id FROM queue))::int AS labelled
     FROM queue`,
    [report?.id ?? null, subjectId, keyId],
  );
  const { rows } = await db.query<{ data: ClaimData }>(
    `${QUEUE_SQL} SELECT data FROM queue ORDER BY part, pos, said DESC NULLS LAST, claim_id LIMIT $3 OFFSET $4`,
    [report?.id ?? null, subjectId, page.pageSize, (page.page - 1) * page.pageSize],
  );
  const claims = rows.map((r) => r.data);
  const own = await db.query<LabelRow>(`SELECT ${LABEL_COLUMNS} FROM labels WHERE key_id = $1 AND claim_id = ANY($2::text[])`, [keyId, claims.map((c) => c.claim_id)]);
  const mine = new Map(own.rows.map((r) => [r.claim_id, labelOut(r)]));
  const items: LabelQueueItem[] = claims.map((d) => {
    const label = mine.get(d.claim_id) ?? null;
    return {
      claim_id: d.claim_id, claim_type: d.claim_type, quote: d.quote, said_on: d.said_on, source: d.source,
      resolution_criteria: d.resolution_criteria, evidence: d.evidence,
      labelled: label !== null, label,
      // The rule of SPEC.md: nothing of the machine's verdict before the caller's own.
      machine: label ? machineOf(d) : null,
    };
  });
  return { subject_id: subjectId, report_id: report?.id ?? null, claims: items, labelled: counts!.labelled, paging: pagingOf(page.page, page.pageSize, counts!.total) };
}

export const LABEL_CSV_COLUMNS = ['claim_id', 'subject_id', 'verdict', 'on_time', 'note', 'reviewer', 'labelled_at'] as const;

/**
 * The label download as RFC 4180 CSV, written by csv-stringify: a header row,
 * CRLF line ends, a field quoted when it holds a quote, comma, CR or LF (LF
 * alone too: csv-stringify quotes only the record delimiter itself unless
 * told, and a lone LF ends a row for most readers), quotes doubled. A text
 * field that a spreadsheet would take for a formula (it starts with = + - @,
 * their full-width forms, a tab or a CR) gets a leading apostrophe (OWASP,
 * "CSV injection"), so opening the file runs nothing.
 */
export function labelsCsv(labels: readonly Label[]): string {
  return stringify(labels.map((l) => ({ ...l })), {
    columns: [...LABEL_CSV_COLUMNS],
    header: true,
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: { boolean: (v: boolean) => (v ? 'true' : 'false') },
  });
}
