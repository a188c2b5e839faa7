import type { Queryable } from '../db/pool.ts';
import { nameKey, subjectIdFor } from '../corpus/pack.ts';
import type { SubjectKind } from '../providers/types.ts';
import type { DemoRow, Statement } from './rows.ts';

/**
 * Demo subjects and demo claims in the database. Writing the same rows again
 * changes nothing (not even timestamps): imports are idempotent.
 */

export type DemoSubjectResult = {
  /** Subjects created by this call. */
  created: number;
  /** Existing demo subjects whose description gained a data set. */
  updated: number;
  /** Subjects of the same name and kind that are not demo subjects: left exactly as they are. */
  not_demo: string[];
};

export function demoDescription(titles: readonly string[]): string {
  return `Demo subject, imported from ${titles.join('; ')}, with the outcomes published there. The service has not researched it: its claims come from that data set, each judged by the machine without seeing the published outcome.`;
}

/**
 * Creates the demo subjects of a data set (demo = true, public figures), or
 * adds the data set to an existing demo subject's description. A subject of
 * the same name and kind that the service researches (demo = false) is never
 * turned into a demo subject; the demo claims attach to it and it is reported.
 */
export async function upsertDemoSubjects(db: Queryable, subjects: ReadonlyArray<{ name: string; kind: SubjectKind }>, dataset: string, title: string): Promise<DemoSubjectResult> {
  const unique = [...new Map(subjects.map((s) => [`${s.kind}\n${s.name.trim().toLowerCase()}`, s])).values()];
  const out: DemoSubjectResult = { created: 0, updated: 0, not_demo: [] };
  for (let i = 0; i < unique.length; i += 500) {
    const batch = unique.slice(i, i + 500).map((s) => ({ ...s, id: subjectIdFor(s.kind, s.name) }));
    const { rows: existing } = await db.query<{ id: string; name: string; demo: boolean; extra: { demo_datasets?: Array<{ dataset: string; title: string }> } }>(
      'SELECT id, name, demo, extra FROM subjects WHERE id = ANY($1::text[])',
      [batch.map((s) => s.id)],
    );
    const byId = new Map(existing.map((r) => [r.id, r]));
    const create: unknown[] = [];
    const update: unknown[] = [];
    for (const s of batch) {
      const row = byId.get(s.id);
      if (!row) {
        const sets = [{ dataset, title }];
        create.push({ id: s.id, name: s.name, kind: s.kind, description: demoDescription([title]), extra: { demo_datasets: sets }, name_keys: [nameKey(s.name)] });
      } else if (!row.demo) {
        out.not_demo.push(row.name);
      } else {
        const sets = row.extra.demo_datasets ?? [];
        if (sets.some((d) => d.dataset === dataset)) continue;
        const next = [...sets, { dataset, title }].sort((a, b) => (a.dataset < b.dataset ? -1 : 1));
        update.push({ id: s.id, description: demoDescription([...new Set(next.map((d) => d.title))]), extra: { ...row.extra, demo_datasets: next } });
      }
    }
    if (create.length) {
      // A concurrent import may have made the same subject meanwhile: then it is theirs, unchanged.
      const r = await db.query(
        `INSERT INTO subjects (id, name, kind, description, public_figure, demo, extra, name_keys)
         SELECT id, name, kind, description, true, true, extra, name_keys
           FROM jsonb_to_recordset($1::jsonb) AS r(id text, name text, kind text, description text, extra jsonb, name_keys text[])
         ON CONFLICT DO NOTHING`,
        [JSON.stringify(create)],
      );
      out.created += r.rowCount ?? 0;
    }
    if (update.length) {
      const r = await db.query(
        `UPDATE subjects s SET description = u.description, extra = u.extra, updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS u(id text, description text, extra jsonb)
          WHERE s.id = u.id AND s.demo`,
        [JSON.stringify(update)],
      );
      out.updated += r.rowCount ?? 0;
    }
  }
  return out;
}

export type JudgedDemo = { row: DemoRow; statement: Statement; claim: Record<string, unknown> };

/**
 * Writes judged demo claims, keyed by claim id. A row already stored with the
 * same content is left alone (imported_at and judged_at keep their values);
 * one that changed (a new verdict, a new method version) is updated.
 * Returns how many were new and how many changed.
 */
export async function upsertDemoClaims(db: Queryable, judged: readonly JudgedDemo[], methodVersion: string): Promise<{ inserted: number; updated: number }> {
  if (judged.length === 0) return { inserted: 0, updated: 0 };
  const rows = judged.map(({ row, statement, claim }) => ({
    claim_id: statement.claim_id,
    subject_id: statement.subject_id,
    dataset: row.dataset,
    data: claim,
    publisher_rating: row.publisher_rating,
    published_outcome: row.published_outcome,
    forecast_probability: row.forecast_probability,
    source_id: row.source_id,
    reference_url: row.reference_url,
    statement,
  }));
  const { rows: written } = await db.query<{ inserted: boolean }>(
    `INSERT INTO demo_claims AS d (claim_id, subject_id, dataset, data, publisher_rating, published_outcome, forecast_probability,
                                   source_id, reference_url, statement, method_version, judged_at)
     SELECT claim_id, subject_id, dataset, data, publisher_rating, published_outcome, forecast_probability,
            source_id, reference_url, statement, $2, now()
       FROM jsonb_to_recordset($1::jsonb) AS r(claim_id text, subject_id text, dataset text, data jsonb, publisher_rating text,
            published_outcome text, forecast_probability double precision, source_id text, reference_url text, statement jsonb)
     ON CONFLICT (claim_id) DO UPDATE SET
       subject_id = excluded.subject_id, dataset = excluded.dataset, data = excluded.data, publisher_rating = excluded.publisher_rating,
       published_outcome = excluded.published_outcome, forecast_probability = excluded.forecast_probability,
       source_id = excluded.source_id, reference_url = excluded.reference_url, statement = excluded.statement,
       method_version = excluded.method_version, judged_at = now()
     WHERE (d.subject_id, d.dataset, d.data, d.publisher_rating, d.published_outcome, d.forecast_probability, d.source_id,
            d.reference_url, d.statement, d.method_version)
           IS DISTINCT FROM (excluded.subject_id, excluded.dataset, excluded.data, excluded.publisher_rating, excluded.published_outcome,
            excluded.forecast_probability, excluded.source_id, excluded.reference_url, excluded.statement, excluded.method_version)
     RETURNING (xmax = 0) AS inserted`,
    [toJson(rows), methodVersion],
  );
  const inserted = written.filter((w) => w.inserted).length;
  return { inserted, updated: written.length - inserted };
}

/** Demo claims judged by another method version than `current`, with their statements. */
export async function staleStatements(db: Queryable, current: string, limit: number): Promise<Array<{ claim_id: string; statement: Statement }>> {
  const { rows } = await db.query<{ claim_id: string; statement: Statement }>(
    `SELECT claim_id, statement FROM demo_claims
      WHERE statement IS NOT NULL AND method_version IS DISTINCT FROM $1
      ORDER BY claim_id LIMIT $2`,
    [current, limit],
  );
  return rows;
}

/** How many demo claims staleStatements would give, in all: what judging them again has to do. */
export async function countStaleStatements(db: Queryable, current: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM demo_claims WHERE statement IS NOT NULL AND method_version IS DISTINCT FROM $1', [current]);
  return rows[0]!.n;
}

/** Stores a new machine verdict for a demo claim. */
export async function storeRejudged(db: Queryable, claimId: string, claim: Record<string, unknown>, methodVersion: string): Promise<void> {
  await db.query('UPDATE demo_claims SET data = $2, method_version = $3, judged_at = now() WHERE claim_id = $1', [claimId, toJson(claim), methodVersion]);
}

/** As in the corpus store: PostgreSQL text holds neither NUL nor lone surrogates. */
function toJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' ? x.replace(/\u0000/g, '').toWellFormed() : x));
}
