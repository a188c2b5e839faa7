import type { Queryable } from '../db/pool.ts';
import type { Topic } from '../method/outcomes.ts';

/**
 * The reports aggregate: every read of the `reports` table goes through here.
 *
 * The rule this module exists for (issue #15): a report is made either on the
 * subject's whole record (topic null) or on one of the method's topics. A
 * topic report is a view of its own. "The subject's latest report" (its
 * headline: the subject list, a plain POST /v1/reports, the claims list, the
 * label queue, the export's whole-record rows, the site's index, browse and
 * subject pages) is the newest whole-record report, never a topic report;
 * "the latest report on a topic" is the newest report stored under that
 * topic. Once this was written as SQL in five places and one copy forgot the
 * topic, so a topic report became the headline; now it is written once, as
 * SQL (latestReportSql) and, for rows already read newest first, as a
 * function (latestOf), side by side. test/report-repository.test.ts tests it.
 */

/** What a report is on: the whole record (null) or one topic. */
export type ReportScope = Topic | null;

export type ReportRow = {
  id: string;
  subject_id: string;
  topic: Topic | null;
  generated_at: Date;
  method_version: string;
  report: Record<string, unknown>;
};

/** A stored report as PostgreSQL returns it: the report is JSON text, spliced into the envelope unparsed (see core/json.ts). */
export type StoredText = { id: string; topic: Topic | null; generatedAt: Date; report: string };

/** Newest first; the id breaks ties between reports stored in the same microsecond, so "latest" is always one report. */
const newest = (alias = '') => `${alias}generated_at DESC, ${alias}id DESC`;
const COLUMNS = 'id, subject_id, topic, generated_at, method_version, report';

/**
 * SQL of the latest report of one subject in one scope: at most one row of
 * `reports` with `columns`. `subject` is an SQL expression (a placeholder such
 * as `$1`, or an outer query's column such as `s.id` in a lateral join);
 * `topic` is null for the whole record, or the placeholder holding the topic.
 * Migration 012's index answers both forms.
 */
export function latestReportSql(columns: string, subject: string, topic: string | null): string {
  return `SELECT ${columns} FROM reports WHERE subject_id = ${subject} AND ${topic === null ? 'topic IS NULL' : `topic = ${topic}`} ORDER BY ${newest()} LIMIT 1`;
}

/** The same rule over rows already read newest first (as reportSummaries returns them): the first of the subject in the scope. */
export function latestOf<R extends { subject_id: string; topic: Topic | null }>(newestFirst: readonly R[], subjectId: string, scope: ReportScope = null): R | null {
  return newestFirst.find((r) => r.subject_id === subjectId && r.topic === scope) ?? null;
}

/** latestOf for every subject at once: subject id → its latest row in the scope (subjects with none in it are absent). */
export function latestOfEach<R extends { subject_id: string; topic: Topic | null }>(newestFirst: readonly R[], scope: ReportScope = null): Map<string, R> {
  const latest = new Map<string, R>();
  for (const r of newestFirst) if (r.topic === scope && !latest.has(r.subject_id)) latest.set(r.subject_id, r);
  return latest;
}

/** Every row of the subject in the scope, in the order given: for the whole record (null) its reports on the whole record only, never those on a topic. */
export function reportsInScope<R extends { subject_id: string; topic: Topic | null }>(rows: readonly R[], subjectId: string, scope: ReportScope = null): R[] {
  return rows.filter((r) => r.subject_id === subjectId && r.topic === scope);
}

/** The subject's latest report on its whole record (scope null), or on one topic. */
export async function latestReport(db: Queryable, subjectId: string, scope: ReportScope = null): Promise<ReportRow | null> {
  const { rows } = await db.query<ReportRow>(latestReportSql(COLUMNS, '$1', scope === null ? null : '$2'), scope === null ? [subjectId] : [subjectId, scope]);
  return rows[0] ?? null;
}

const TEXT_COLUMNS = 'id, topic, generated_at, report::text AS report';
type TextRow = { id: string; topic: Topic | null; generated_at: Date; report: string };
const asText = (r: TextRow | undefined): StoredText | null => (r ? { id: r.id, topic: r.topic, generatedAt: r.generated_at, report: r.report } : null);

/** latestReport with the report as JSON text, for the stored-report envelope. */
export async function latestReportText(db: Queryable, subjectId: string, scope: ReportScope = null): Promise<StoredText | null> {
  const { rows } = await db.query<TextRow>(latestReportSql(TEXT_COLUMNS, '$1', scope === null ? null : '$2'), scope === null ? [subjectId] : [subjectId, scope]);
  return asText(rows[0]);
}

export async function reportById(db: Queryable, id: string): Promise<ReportRow | null> {
  const { rows } = await db.query<ReportRow>(`SELECT ${COLUMNS} FROM reports WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function reportTextById(db: Queryable, id: string): Promise<StoredText | null> {
  const { rows } = await db.query<TextRow>(`SELECT ${TEXT_COLUMNS} FROM reports WHERE id = $1`, [id]);
  return asText(rows[0]);
}

/**
 * What the export carries for one subject: its latest whole-record report
 * first, then the latest report of each topic it has one on, by topic. Each
 * is the report latestReport gives for its scope.
 */
export async function latestReportsByScope(db: Queryable, subjectId: string): Promise<ReportRow[]> {
  const { rows } = await db.query<ReportRow>(
    `SELECT DISTINCT ON (topic) ${COLUMNS} FROM reports WHERE subject_id = $1 ORDER BY topic NULLS FIRST, ${newest()}`,
    [subjectId],
  );
  return rows;
}

/** Reports by id (demo subjects' only when asked), in no particular order. */
export async function reportsByIds(db: Queryable, ids: readonly string[], o: { includeDemo?: boolean } = {}): Promise<ReportRow[]> {
  const { rows } = await db.query<ReportRow>(
    `SELECT r.id, r.subject_id, r.topic, r.generated_at, r.method_version, r.report FROM reports r JOIN subjects s ON s.id = r.subject_id
      WHERE r.id = ANY($1::text[]) AND ($2 OR NOT s.demo)`,
    [ids, o.includeDemo === true],
  );
  return rows;
}

export type ReportSummaryRow = { id: string; subject_id: string; topic: Topic | null; generated_at: Date; method_version: string; score: unknown; review_status: string | null };

/**
 * Every report of every subject but demo ones (or of these subjects only),
 * newest first, with its headline score and review status only (the site's
 * lists; latestOf picks from them).
 */
export async function reportSummaries(db: Queryable, o: { subjectIds?: readonly string[] } = {}): Promise<ReportSummaryRow[]> {
  const { rows } = await db.query<ReportSummaryRow>(
    `SELECT r.id, r.subject_id, r.topic, r.generated_at, r.method_version, r.report->'score' AS score, r.report->>'review_status' AS review_status FROM reports r JOIN subjects s ON s.id = r.subject_id
      WHERE NOT s.demo ${o.subjectIds ? 'AND r.subject_id = ANY($1::text[])' : ''} ORDER BY ${newest('r.')}`,
    o.subjectIds ? [o.subjectIds] : [],
  );
  return rows;
}

/**
 * The `limit` subjects (demo ones left out) whose latest reports on the whole
 * record are the newest, newest first: whose headlines the site's index lists,
 * each once. Read from the newest reports a batch at a time (twice as many
 * each round), so an incremental build reads a few rows, not every report,
 * however many reports the subjects at the top have.
 */
export async function latestWholeRecordSubjects(db: Queryable, limit: number): Promise<string[]> {
  const subjects = new Set<string>();
  for (let take = limit * 2; ; take *= 2) {
    const { rows } = await db.query<{ subject_id: string }>(
      `SELECT r.subject_id FROM reports r JOIN subjects s ON s.id = r.subject_id WHERE NOT s.demo AND r.topic IS NULL ORDER BY ${newest('r.')} LIMIT $1`,
      [take],
    );
    subjects.clear();
    for (const r of rows) if (subjects.size < limit) subjects.add(r.subject_id);
    if (subjects.size >= limit || rows.length < take) return [...subjects];
  }
}
