import { stringify } from 'csv-stringify/sync';
import type { Queryable } from './db/pool.ts';
import { REVIEW_LABEL } from './method/outcomes.ts';

/**
 * Every subject's latest report as JSON Lines (records `subject`, `score`,
 * `claim`) or as one CSV table (`claims` or `scores`): what GET /v1/export
 * answers and what the nightly export writes. Generated a subject at a time,
 * so an export of any size streams in steady memory. Demo subjects (their
 * claims from the demo sets) only with `includeDemo`.
 */

export type ExportOptions = { format: 'jsonl' | 'csv'; table: 'claims' | 'scores'; subjectId?: string | undefined; includeDemo: boolean };

export const CLAIM_COLUMNS = [
  'subject_id', 'subject_name', 'report_id', 'generated_at', 'claim_id', 'claim_type', 'topic', 'said_on', 'quote', 'quote_verified',
  'source_url', 'source_title', 'source_outlet', 'resolution_criteria', 'due', 'outcome', 'on_time', 'judges_disagree', 'rationale',
  'evidence_urls', 'independent_evidence', 'dataset', 'published_outcome', 'review_status',
] as const;

export const SCORE_COLUMNS = [
  'subject_id', 'subject_name', 'report_id', 'generated_at', 'method_version', 'type', 'score', 'interval_low', 'interval_high',
  'n_resolved', 'confidence', 'review_status',
] as const;

type SubjectRow = { id: string; name: string; kind: string; aliases: string[]; description: string | null; demo: boolean };
type ReportRow = { id: string; generated_at: Date; method_version: string; report: { scores?: Record<string, ScoreEntry | undefined> } };
type ScoreEntry = { score: number; interval_80: [number, number]; n_resolved: number; confidence: { level: string; reasons: string } };
type Claim = Record<string, unknown> & { evidence?: { url: string; independent_of_subject: boolean }[]; source?: { url: string; title: string | null; outlet: string | null } };

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

function claimRow(s: SubjectRow, report: ReportRow | null, c: Claim, demo: { dataset: string; published_outcome: string | null } | null) {
  const evidence = c.evidence ?? [];
  return {
    subject_id: s.id, subject_name: s.name, report_id: report?.id ?? '', generated_at: report?.generated_at.toISOString() ?? '',
    claim_id: c.claim_id, claim_type: c.claim_type, topic: c.topic, said_on: c.said_on, quote: c.quote, quote_verified: c.quote_verified,
    source_url: c.source?.url ?? '', source_title: c.source?.title ?? '', source_outlet: c.source?.outlet ?? '',
    resolution_criteria: c.resolution_criteria, due: c.due ?? '', outcome: c.outcome, on_time: c.on_time ?? '', judges_disagree: c.judges_disagree,
    rationale: c.rationale, evidence_urls: evidence.map((e) => e.url).join(' '), independent_evidence: evidence.filter((e) => e.independent_of_subject).length,
    dataset: demo?.dataset ?? '', published_outcome: demo?.published_outcome ?? '', review_status: REVIEW_LABEL,
  };
}

function csv(rows: Record<string, unknown>[], columns: readonly string[], header: boolean): string {
  const cast = { boolean: (v: boolean) => (v ? 'true' : 'false') };
  return stringify(rows, { columns: [...columns], header, escape_formulas: true, cast });
}

/** Claims read a page at a time (keyset), so one subject with a large demo set streams in steady memory too. */
const CLAIM_PAGE = 500;

async function* reportClaims(db: Queryable, reportId: string): AsyncGenerator<{ claim: Claim; demo: null }[]> {
  let after = -1;
  for (;;) {
    const { rows } = await db.query<{ data: Claim; position: number }>(
      'SELECT data, position FROM claims WHERE report_id = $1 AND position > $2 ORDER BY position LIMIT $3',
      [reportId, after, CLAIM_PAGE],
    );
    if (rows.length) yield rows.map((r) => ({ claim: r.data, demo: null }));
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
  if (o.format === 'csv') yield csv([], o.table === 'claims' ? CLAIM_COLUMNS : SCORE_COLUMNS, true);
  for await (const s of subjects(db, o)) {
    const report = (
      await db.query<ReportRow>(
        'SELECT id, generated_at, method_version, report FROM reports WHERE subject_id = $1 ORDER BY generated_at DESC, id DESC LIMIT 1',
        [s.id],
      )
    ).rows[0] ?? null;
    const pages = async function* () {
      if (report) yield* reportClaims(db, report.id);
      if (o.includeDemo && s.demo) yield* demoClaims(db, s.id);
    };
    const scores = Object.entries(report?.report.scores ?? {}).filter((e): e is [string, ScoreEntry] => e[1] !== undefined);

    if (o.format === 'jsonl') {
      const head = [JSON.stringify({ record: 'subject', subject_id: s.id, name: s.name, kind: s.kind, aliases: s.aliases, description: s.description, demo: s.demo })];
      for (const [type, e] of scores) {
        head.push(JSON.stringify({ record: 'score', subject_id: s.id, report_id: report!.id, generated_at: report!.generated_at.toISOString(), method_version: report!.method_version, type, ...e, review_status: REVIEW_LABEL }));
      }
      yield `${head.join('\n')}\n`;
      for await (const page of pages()) {
        const out = page.map(({ claim, demo }) => JSON.stringify({ record: 'claim', subject_id: s.id, report_id: report?.id ?? null, ...claim, ...(demo ? { demo } : {}), review_status: REVIEW_LABEL }));
        yield `${out.join('\n')}\n`;
      }
    } else if (o.table === 'claims') {
      for await (const page of pages()) yield csv(page.map(({ claim, demo }) => claimRow(s, report, claim, demo)), CLAIM_COLUMNS, false);
    } else if (scores.length) {
      yield csv(
        scores.map(([type, e]) => ({
          subject_id: s.id, subject_name: s.name, report_id: report!.id, generated_at: report!.generated_at.toISOString(), method_version: report!.method_version,
          type, score: e.score, interval_low: e.interval_80[0], interval_high: e.interval_80[1], n_resolved: e.n_resolved, confidence: e.confidence.level, review_status: REVIEW_LABEL,
        })),
        SCORE_COLUMNS,
        false,
      );
    }
  }
}
