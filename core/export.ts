import { stringify } from 'csv-stringify/sync';
import { VERSION_COLUMNS, type ClaimVersion } from './claims.ts';
import type { Queryable } from './db/pool.ts';
import { REVIEW_LABEL } from './method/outcomes.ts';
import { latestReportsByScope, type ReportRow } from './reports/repository.ts';
import { withReviews } from './reviews/claims.ts';
import { subjectRecord } from './reviews/record.ts';
import type { ReviewRecord } from './schemas/reviews.ts';

/**
 * Every subject's latest report as JSON Lines (records `subject`, `score`,
 * `claim`) or as one CSV table (`claims` or `scores`): what GET /v1/export
 * answers and what the nightly export writes. Generated a subject at a time,
 * so an export of any size streams in steady memory. Demo subjects (their
 * claims from the demo sets) only with `includeDemo`.
 *
 * A subject's latest report is the one on its whole record; after it come the
 * latest report on each topic it has one on, each a view of its own (core/
 * reports/repository.ts). Every row says which: `topic` on score records and
 * in the scores table, `report_topic` on claim records and in the claims
 * table (a claim's own `topic` is the topic it is filed under), null or empty
 * for the whole record.
 *
 * Editorial review (issue #18): a claim's `outcome` and `rationale` are the
 * verdict that stands (the reviewer's once its version is reviewed), with the
 * machine's beside them and the claim's real `review_status`; a score carries
 * its report's. After a subject's reports come its review record, every
 * entry (JSON Lines records `review`, or the CSV table `reviews`): whatever
 * report it was made on, nothing of it is dropped when a report is remade.
 */

export type ExportOptions = { format: 'jsonl' | 'csv'; table: 'claims' | 'scores' | 'reviews'; subjectId?: string | undefined; includeDemo: boolean };

export const CLAIM_COLUMNS = [
  'subject_id', 'subject_name', 'report_id', 'generated_at', 'report_topic', 'claim_id', 'claim_type', 'topic', 'said_on', 'quote', 'quote_verified',
  'source_url', 'source_title', 'source_outlet', 'resolution_criteria', 'due', 'outcome', 'on_time', 'judges_disagree', 'rationale',
  'evidence_urls', 'independent_evidence', 'dataset', 'published_outcome', 'review_status',
  'machine_outcome', 'review_decision', 'reviewed_by', 'reviewed_at',
] as const;

export const SCORE_COLUMNS = [
  'subject_id', 'subject_name', 'report_id', 'generated_at', 'method_version', 'topic', 'type', 'score', 'interval_low', 'interval_high',
  'n_resolved', 'confidence', 'review_status', 'signed_off_by', 'signed_off_at',
] as const;

export const REVIEW_RECORD_COLUMNS = [
  'record_id', 'action', 'subject_id', 'report_id', 'claim_id', 'response_id', 'reviewer', 'at', 'before', 'after', 'note',
] as const;

type SubjectRow = { id: string; name: string; kind: string; aliases: string[]; description: string | null; demo: boolean };
type ExportedReport = Omit<ReportRow, 'report'> & {
  report: { scores?: Record<string, ScoreEntry | undefined>; review_status?: string; review?: { signed_off_by: string | null; signed_off_at: string | null } };
};
type ScoreEntry = { score: number; interval_80: [number, number]; n_resolved: number; confidence: { level: string; reasons: string } };
type Claim = Record<string, unknown> & {
  evidence?: { url: string; independent_of_subject: boolean }[]; source?: { url: string; title: string | null; outlet: string | null };
  review_status?: string; machine_verdict?: { outcome: string }; review?: { decision: string | null; reviewer: string | null; reviewed_at: string | null };
};

async function* subjects(db: Queryable, o: ExportOptions): AsyncGenerator<SubjectRow> {
  // Keyset pages of subjects: the export never holds more than a page of them.
  let after = '';
  for (;;) {
    const { rows } = await db.query<SubjectRow>(
      `SELECT s.id, s.name, s.kind, s.aliases, s.description, s.demo FROM subjects s
        WHERE s.id > $1 AND ($2::text IS NULL OR s.id = $2) AND ($3 OR NOT s.demo)
          AND (EXISTS (SELECT 1 FROM reports r WHERE r.subject_id = s.id) OR ($3 AND EXISTS (SELECT 1 FROM demo_claims d WHERE d.subject_id = s.id)))
        ORDER BY s.id LIMIT 200`,
      [after, o.subjectId ?? null, o.includeDemo],
    );
    for (const r of rows) yield r;
    if (rows.length < 200) return;
    after = rows.at(-1)!.id;
  }
}

function claimRow(s: SubjectRow, report: ExportedReport | null, c: Claim, demo: { dataset: string; published_outcome: string | null } | null) {
  const evidence = c.evidence ?? [];
  return {
    subject_id: s.id, subject_name: s.name, report_id: report?.id ?? '', generated_at: report?.generated_at.toISOString() ?? '', report_topic: report?.topic ?? '',
    claim_id: c.claim_id, claim_type: c.claim_type, topic: c.topic, said_on: c.said_on, quote: c.quote, quote_verified: c.quote_verified,
    source_url: c.source?.url ?? '', source_title: c.source?.title ?? '', source_outlet: c.source?.outlet ?? '',
    resolution_criteria: c.resolution_criteria, due: c.due ?? '', outcome: c.outcome, on_time: c.on_time ?? '', judges_disagree: c.judges_disagree,
    rationale: c.rationale, evidence_urls: evidence.map((e) => e.url).join(' '), independent_evidence: evidence.filter((e) => e.independent_of_subject).length,
    dataset: demo?.dataset ?? '', published_outcome: demo?.published_outcome ?? '', review_status: c.review_status ?? REVIEW_LABEL,
    machine_outcome: c.machine_verdict?.outcome ?? c.outcome, review_decision: c.review?.decision ?? '', reviewed_by: c.review?.reviewer ?? '', reviewed_at: c.review?.reviewed_at ?? '',
  };
}

function recordRow(e: ReviewRecord) {
  return { ...e, before: e.before === null ? '' : JSON.stringify(e.before), after: e.after === null ? '' : JSON.stringify(e.after) };
}

const reportReview = (r: ExportedReport) => r.report.review_status ?? REVIEW_LABEL;

function csv(rows: Record<string, unknown>[], columns: readonly string[], header: boolean): string {
  const cast = { boolean: (v: boolean) => (v ? 'true' : 'false') };
  return stringify(rows, { columns: [...columns], header, escape_formulas: true, cast });
}

/** Claims read a page at a time (keyset), so one subject with a large demo set streams in steady memory too. */
const CLAIM_PAGE = 500;

async function* reportClaims(db: Queryable, reportId: string): AsyncGenerator<{ claim: Claim; demo: null }[]> {
  let after = -1;
  for (;;) {
    const { rows } = await db.query<{ claim_id: string; data: Claim; position: number } & ClaimVersion>(
      `SELECT claim_id, data, position, ${VERSION_COLUMNS.join(', ')} FROM claims WHERE report_id = $1 AND position > $2 ORDER BY position LIMIT $3`,
      [reportId, after, CLAIM_PAGE],
    );
    if (rows.length) yield (await withReviews(db, rows)).map((claim) => ({ claim: claim as Claim, demo: null }));
    if (rows.length < CLAIM_PAGE) return;
    after = rows.at(-1)!.position;
  }
}

type DemoInfo = { dataset: string; published_outcome: string | null };

async function* demoClaims(db: Queryable, subjectId: string): AsyncGenerator<{ claim: Claim; demo: DemoInfo }[]> {
  let after = '';
  for (;;) {
    const { rows } = await db.query<{ claim_id: string; data: Claim; dataset: string; published_outcome: string | null }>(
      'SELECT claim_id, data, dataset, published_outcome FROM demo_claims WHERE subject_id = $1 AND claim_id > $2 ORDER BY claim_id LIMIT $3',
      [subjectId, after, CLAIM_PAGE],
    );
    if (rows.length) yield rows.map((r) => ({ claim: r.data, demo: { dataset: r.dataset, published_outcome: r.published_outcome } }));
    if (rows.length < CLAIM_PAGE) return;
    after = rows.at(-1)!.claim_id;
  }
}

export async function* exportLines(db: Queryable, o: ExportOptions): AsyncGenerator<string> {
  if (o.format === 'csv') yield csv([], o.table === 'claims' ? CLAIM_COLUMNS : o.table === 'scores' ? SCORE_COLUMNS : REVIEW_RECORD_COLUMNS, true);
  for await (const s of subjects(db, o)) {
    const reports = (await latestReportsByScope(db, s.id)) as ExportedReport[];
    const scoresOf = (r: ExportedReport) => Object.entries(r.report.scores ?? {}).filter((e): e is [string, ScoreEntry] => e[1] !== undefined);
    const demo = o.includeDemo && s.demo ? demoClaims(db, s.id) : null;

    if (o.format === 'jsonl') {
      yield `${JSON.stringify({ record: 'subject', subject_id: s.id, name: s.name, kind: s.kind, aliases: s.aliases, description: s.description, demo: s.demo })}\n`;
      for (const r of reports) {
        const head = scoresOf(r).map(([type, e]) =>
          JSON.stringify({ record: 'score', subject_id: s.id, report_id: r.id, topic: r.topic, generated_at: r.generated_at.toISOString(), method_version: r.method_version, type, ...e, review_status: reportReview(r) }),
        );
        if (head.length) yield `${head.join('\n')}\n`;
        for await (const page of reportClaims(db, r.id)) {
          yield `${page.map(({ claim }) => JSON.stringify({ record: 'claim', subject_id: s.id, report_id: r.id, report_topic: r.topic, ...claim })).join('\n')}\n`;
        }
      }
      if (demo) {
        for await (const page of demo) {
          yield `${page.map(({ claim, demo: d }) => JSON.stringify({ record: 'claim', subject_id: s.id, report_id: null, report_topic: null, ...claim, demo: d, review_status: REVIEW_LABEL })).join('\n')}\n`;
        }
      }
      for await (const page of subjectRecord(db, s.id)) yield `${page.map((e) => JSON.stringify({ record: 'review', ...e })).join('\n')}\n`;
    } else if (o.table === 'reviews') {
      for await (const page of subjectRecord(db, s.id)) yield csv(page.map(recordRow), REVIEW_RECORD_COLUMNS, false);
    } else if (o.table === 'claims') {
      for (const r of reports) for await (const page of reportClaims(db, r.id)) yield csv(page.map(({ claim }) => claimRow(s, r, claim, null)), CLAIM_COLUMNS, false);
      if (demo) for await (const page of demo) yield csv(page.map(({ claim, demo: d }) => claimRow(s, null, claim, d)), CLAIM_COLUMNS, false);
    } else {
      const rows = reports.flatMap((r) =>
        scoresOf(r).map(([type, e]) => ({
          subject_id: s.id, subject_name: s.name, report_id: r.id, generated_at: r.generated_at.toISOString(), method_version: r.method_version, topic: r.topic ?? '',
          type, score: e.score, interval_low: e.interval_80[0], interval_high: e.interval_80[1], n_resolved: e.n_resolved, confidence: e.confidence.level, review_status: reportReview(r),
          signed_off_by: r.report.review?.signed_off_by ?? '', signed_off_at: r.report.review?.signed_off_at ?? '',
        })),
      );
      if (rows.length) yield csv(rows, SCORE_COLUMNS, false);
    }
  }
}
