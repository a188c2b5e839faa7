import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL } from '../method/outcomes.ts';
import { latestOf, reportSummaries, reportsInScope } from '../reports/repository.ts';
import type { Common, Headline, ReportSummary, SubjectPage, SubjectRef } from './page-data.ts';
import { pagePath } from './page-paths.ts';
import { subjectRef, topicLabel } from './report-pages.ts';

/**
 * What the index, subject and browse pages are made from: every published
 * subject (one with any report, so that every report page's subject link
 * leads somewhere) and the scores of its reports, newest first. A subject's
 * headline is its latest report on its whole record (latestOf), never a
 * report on one topic.
 */
export type Summaries = { subjects: Map<string, SubjectRef & { aliases: string[] }>; reports: ReportSummary[] };

/** Every published subject's, or (`subjectIds`) only these subjects' (an incremental build's few pages). */
export async function loadSummaries(db: Queryable, o: { subjectIds?: readonly string[] } = {}): Promise<Summaries> {
  const subjects = new Map<string, SubjectRef & { aliases: string[] }>();
  const s = await db.query<{ id: string; name: string; kind: string; description: string | null; aliases: string[] }>(
    `SELECT s.id, s.name, s.kind, s.description, s.aliases FROM subjects s
      WHERE NOT s.demo AND EXISTS (SELECT 1 FROM reports r WHERE r.subject_id = s.id) ${o.subjectIds ? 'AND s.id = ANY($1::text[])' : ''} ORDER BY s.id`,
    o.subjectIds ? [o.subjectIds] : [],
  );
  for (const r of s.rows) subjects.set(r.id, { ...subjectRef({ subject_id: r.id, name: r.name, kind: r.kind, description: r.description }), aliases: r.aliases });
  const reports = (await reportSummaries(db, o)).map((x) => ({
    report_id: x.id, path: pagePath({ view: 'report', key: x.id }), subject_id: x.subject_id, generated_at: x.generated_at.toISOString(),
    generated_on: x.generated_at.toISOString().slice(0, 10), method_version: x.method_version, headline: x.score as Headline, review_status: x.review_status ?? REVIEW_LABEL,
    topic: x.topic, topic_label: topicLabel(x.topic),
  }));
  return { subjects, reports };
}

export function subjectPage(sum: Summaries, subjectId: string, c: Common): SubjectPage | null {
  const subject = sum.subjects.get(subjectId);
  if (!subject) return null;
  const reports = sum.reports.filter((r) => r.subject_id === subjectId);
  // The headline, by the repository's rule: the latest report on the whole record; the record chart, by the same scope.
  return { view: 'subject', path: subject.path, common: c, subject, latest: latestOf(reports, subjectId, null), reports, record: reportsInScope(reports, subjectId, null).reverse() };
}

/** The summaries narrowed to reports already published (so that no page links to one that is not). */
export function publishedOnly(sum: Summaries, reportIds: ReadonlySet<string>): Summaries {
  const reports = sum.reports.filter((r) => reportIds.has(r.report_id));
  const keep = new Set(reports.map((r) => r.subject_id));
  return { subjects: new Map([...sum.subjects].filter(([id]) => keep.has(id))), reports };
}
