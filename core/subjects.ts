import type { Identify } from './providers/identify.ts';
import type { Queryable } from './db/pool.ts';
import { toKnownSubject } from './providers/local/corpus.ts';
import type { KnowledgeProvider, KnownSubject, Office, SubjectKind } from './providers/types.ts';
import { isStale } from './reports/read.ts';
import { latestReportSql } from './reports/repository.ts';
import { pagingOf } from './schemas/common.ts';
import type { ResolveRequest } from './schemas/requests.ts';

/** Subjects as the API lists them: the subject, and its newest stored report on its whole record. */

type Row = {
  id: string; name: string; kind: SubjectKind; aliases: string[]; description: string | null; public_figure: boolean;
  offices: Office[]; urls: string[]; handles: string[]; demo: boolean;
  report_id: string | null; generated_at: Date | null; score: number | null;
};

function detail(r: Row, now: Date) {
  const s = toKnownSubject(r);
  return {
    subject_id: s.subject_id, name: s.name, kind: s.kind, aliases: s.aliases, description: s.description,
    public_figure: s.public_figure, serving_politician: s.serving_politician, demo: s.demo,
    latest_report: r.report_id && r.generated_at
      ? { report_id: r.report_id, generated_at: r.generated_at.toISOString(), score: r.score, stale: isStale(r.generated_at, now), html_url: `/v1/reports/${r.report_id}/html` }
      : null,
  };
}

const SELECT = `SELECT s.id, s.name, s.kind, s.aliases, s.description, s.public_figure, s.offices, s.urls, s.handles, s.demo,
       r.id AS report_id, r.generated_at, (r.report->'score'->>'score')::float8 AS score
  FROM subjects s
  LEFT JOIN LATERAL (${latestReportSql('id, generated_at, report', 's.id', null)}) r ON true`;

/**
 * Subjects with at least one stored report on their whole record, newest
 * such report first. A report on one topic is not the subject's latest
 * report: it neither lists a subject nor moves it.
 */
export async function listReportedSubjects(db: Queryable, page: { page: number; pageSize: number }, now = new Date()) {
  const reported = `${SELECT} WHERE r.id IS NOT NULL`;
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${reported}) q`)).rows[0]!.n;
  const { rows } = await db.query<Row>(
    `${reported} ORDER BY r.generated_at DESC, s.id LIMIT $1 OFFSET $2`,
    [page.pageSize, (page.page - 1) * page.pageSize],
  );
  return { subjects: rows.map((r) => detail(r, now)), paging: pagingOf(page.page, page.pageSize, total) };
}

export async function getSubject(db: Queryable, id: string, now = new Date()) {
  const { rows } = await db.query<Row>(`${SELECT} WHERE s.id = $1`, [id]);
  return rows[0] ? detail(rows[0], now) : null;
}

/**
 * POST /v1/subjects/resolve. A name (with kind) is looked up among known
 * subjects; a block of text is read with compromise for the people and
 * organisations it names, each looked up in turn (the text itself is neither
 * stored nor logged). Every candidate says whether a report may be made
 * under the rules, and why not.
 */
export async function resolveSubjects(knowledge: KnowledgeProvider, body: ResolveRequest, identify?: Identify) {
  const names: { name: string; kind: SubjectKind | null }[] = [];
  if (body.name?.trim()) names.push({ name: body.name.trim(), kind: body.kind ?? null });
  if (body.text) {
    // Loaded on first use: the language model is not needed to start the service.
    const { default: nlp } = await import('compromise');
    const doc = nlp(body.text);
    for (const n of doc.people().out('array') as string[]) names.push({ name: tidy(n), kind: 'person' });
    for (const n of doc.organizations().out('array') as string[]) names.push({ name: tidy(n), kind: null });
    // Known names and aliases that compromise did not tag (outlets, unusual names).
    for (const n of doc.match('#ProperNoun+').out('array') as string[]) names.push({ name: tidy(n), kind: null });
  }
  const seen = new Set<string>();
  const candidates = [];
  // Identifiers first: a URL on a subject's own site or one of its handles names it outright.
  if ((body.urls?.length ?? 0) > 0 || (body.handles?.length ?? 0) > 0) {
    for (const s of await knowledge.byIdentifiers(body.urls ?? [], body.handles ?? [])) {
      if (body.kind && s.kind !== body.kind) continue;
      if (body.name && !found(s, body.name)) continue;
      seen.add(s.subject_id);
      candidates.push(candidate(s));
    }
    if (candidates.length > 0 && body.name) names.shift();
  }
  for (const { name, kind } of names) {
    if (!name) continue;
    let found = await knowledge.lookup(name, kind);
    // The model is asked about the name sent, never about every proper noun of a text (each call is paid).
    if (found.length === 0 && identify && name === body.name?.trim()) found = await identify(name, kind);
    if (found.length === 0 && body.text && !body.name) continue; // a word in a text that names no one we know
    if (found.length === 0) {
      const key = `?${name.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push({
        subject_id: null, name, kind, description: null, known: false, public_figure: null, serving_politician: null,
        eligible: false, needs_consent_ref: false,
        reason: 'Not known to the service: the offline engine knows the subjects of its source packs, and this name is in none of them.',
      });
      continue;
    }
    for (const s of found) {
      if (seen.has(s.subject_id)) continue;
      seen.add(s.subject_id);
      candidates.push(candidate(s));
    }
  }
  return { candidates };
}

function found(s: KnownSubject, name: string): boolean {
  const key = name.trim().toLowerCase();
  return [s.name, ...s.aliases].some((n) => n.toLowerCase() === key);
}

function tidy(s: string): string {
  return s.replace(/['’]s$/i, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.]+$/gu, '').replace(/\.$/, '').trim();
}

export function candidate(s: KnownSubject) {
  const reason = s.serving_politician
    ? 'Holds political office now: the service makes no report on serving politicians.'
    : !s.public_figure
      ? 'Not a public figure: a report needs consent_ref.'
      : null;
  return {
    subject_id: s.subject_id, name: s.name, kind: s.kind, description: s.description, known: true,
    public_figure: s.public_figure, serving_politician: s.serving_politician,
    eligible: !s.serving_politician, needs_consent_ref: !s.public_figure, reason,
  };
}

/**
 * Finding a published subject by name (GET /search on the site). Published,
 * as the site publishes them (core/site/page-data.ts loadSummaries): not a
 * demo subject, and with at least one stored report, so that every hit's
 * subject page exists. Matched on the name and every alias, folded by the
 * database's search_fold (lower case, accents off; migration 018), as a
 * substring, through migration 018's trigram index where pg_trgm exists.
 *
 * Order: an exact name or alias first, then one that starts with the term,
 * then one with a word that starts with it, then any other substring; within
 * a tier by folded name, then name and id, so that paging is stable. Each
 * hit carries the alias it matched by when it matched better by an alias
 * than by its name, and its headline (the latest report on its whole record,
 * latestReportSql's rule) when it has one.
 */
export type SubjectSearchHit = {
  subject_id: string; name: string; kind: SubjectKind; matched_alias: string | null;
  report_id: string | null; generated_at: Date | null; score: unknown; review_status: string | null;
};

// `$1` is the term, already trimmed with its white space collapsed. Folded
// here, then escaped for LIKE (after folding: folding may make a `%` out of a full-width one).
const SEARCH_TERM = `WITH t AS (SELECT search_fold($1) AS term),
  p AS (SELECT term, replace(replace(replace(term, '\\', '\\\\'), '%', '\\%'), '_', '\\_') AS esc FROM t)`;
// Published subjects whose name or an alias holds the term. The LIKE is on migration 018's indexed expression, written exactly as the index is.
const SEARCH_FROM = `FROM subjects s CROSS JOIN p
  WHERE subject_search_text(s.name, s.aliases) LIKE '%' || p.esc || '%'
    AND NOT s.demo AND EXISTS (SELECT 1 FROM reports r WHERE r.subject_id = s.id)`;
// The tier of one folded name `f` against the term of row `q`: 0 exact, 1 prefix, 2 a word's prefix, 3 substring, null no match.
const tier = (f: string, q: string) =>
  `CASE WHEN ${f} = ${q}.term THEN 0 WHEN starts_with(${f}, ${q}.term) THEN 1 WHEN ${f} LIKE '% ' || ${q}.esc || '%' THEN 2 WHEN ${f} LIKE '%' || ${q}.esc || '%' THEN 3 END`;

/** The SQL of one page of hits: `$1` the term, `$2` the page size, `$3` the offset. */
export function subjectSearchSql(): string {
  return `${SEARCH_TERM},
  matched AS (SELECT s.id, s.name, s.kind, s.aliases, p.term, p.esc ${SEARCH_FROM}),
  hits AS (
    SELECT m.id, m.name, m.kind, best.tier, best.alias
      FROM matched m
      CROSS JOIN LATERAL (
        SELECT x.tier, CASE WHEN x.i > 1 THEN x.n END AS alias
          FROM (SELECT n, i, ${tier('search_fold(n)', 'm')} AS tier FROM unnest(ARRAY[m.name] || m.aliases) WITH ORDINALITY AS u(n, i)) x
         WHERE x.tier IS NOT NULL
         ORDER BY x.tier, x.i LIMIT 1
      ) best
  )
  SELECT h.id AS subject_id, h.name, h.kind, h.alias AS matched_alias,
         r.id AS report_id, r.generated_at, r.report->'score' AS score, r.report->>'review_status' AS review_status
    FROM hits h
    LEFT JOIN LATERAL (${latestReportSql('id, generated_at, report', 'h.id', null)}) r ON true
   ORDER BY h.tier, search_fold(h.name), h.name, h.id
   LIMIT $2 OFFSET $3`;
}

/** The SQL of the number of hits: `$1` the term. */
export function subjectSearchCountSql(): string {
  return `${SEARCH_TERM} SELECT count(*)::int AS n ${SEARCH_FROM}`;
}

export async function searchSubjects(db: Queryable, term: string, page: { page: number; pageSize: number }): Promise<{ hits: SubjectSearchHit[]; total: number }> {
  const [count, hits] = await Promise.all([
    db.query<{ n: number }>(subjectSearchCountSql(), [term]),
    db.query<SubjectSearchHit>(subjectSearchSql(), [term, page.pageSize, (page.page - 1) * page.pageSize]),
  ]);
  return { hits: hits.rows, total: count.rows[0]!.n };
}
