import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL } from '../method/outcomes.ts';
import { agreementOf, forecastStats, type Agreement, type Cell, type ForecastStats, type ForecastTally } from './stats.ts';

/** What GET /v1/demo and the measurement read from the demo sets. */

export type SetSummary = Agreement & {
  dataset: string;
  subjects: number;
  forecast: ForecastStats | null;
  /** Which method versions judged the set's claims, with how many each. */
  method_versions: Record<string, number>;
  judged_at: string | null;
};

/** Every demo set (or one), summarised over all its claims. */
export async function setSummaries(db: Queryable, dataset: string | null = null): Promise<SetSummary[]> {
  const [cells, sets, forecasts, versions] = await Promise.all([
    db.query<{ dataset: string; reference: string | null; machine: string; n: number }>(
      `SELECT dataset, published_outcome AS reference, data->>'outcome' AS machine, count(*)::int AS n
         FROM demo_claims WHERE $1::text IS NULL OR dataset = $1 GROUP BY 1, 2, 3`,
      [dataset],
    ),
    db.query<{ dataset: string; subjects: number; judged_at: Date | null }>(
      `SELECT dataset, count(DISTINCT subject_id)::int AS subjects, max(judged_at) AS judged_at
         FROM demo_claims WHERE $1::text IS NULL OR dataset = $1 GROUP BY 1 ORDER BY 1`,
      [dataset],
    ),
    // Forecasts whose outcome is published: the Brier score's terms, and the favourite's calls.
    db.query<ForecastTally & { dataset: string }>(
      `SELECT dataset,
              count(*) FILTER (WHERE published_outcome IN ('true', 'false'))::int AS n,
              coalesce(sum((forecast_probability - CASE WHEN published_outcome = 'true' THEN 1 ELSE 0 END) ^ 2)
                       FILTER (WHERE published_outcome IN ('true', 'false')), 0)::float8 AS sum_sq,
              count(*) FILTER (WHERE published_outcome IN ('true', 'false') AND forecast_probability <> 0.5)::int AS decided,
              count(*) FILTER (WHERE (forecast_probability > 0.5 AND published_outcome = 'true')
                                  OR (forecast_probability < 0.5 AND published_outcome = 'false'))::int AS "right"
         FROM demo_claims WHERE forecast_probability IS NOT NULL AND ($1::text IS NULL OR dataset = $1) GROUP BY 1`,
      [dataset],
    ),
    db.query<{ dataset: string; method_version: string | null; n: number }>(
      `SELECT dataset, method_version, count(*)::int AS n FROM demo_claims WHERE $1::text IS NULL OR dataset = $1 GROUP BY 1, 2`,
      [dataset],
    ),
  ]);
  return sets.rows.map((s) => {
    const mine: Cell[] = cells.rows.filter((c) => c.dataset === s.dataset).map((c) => ({ reference: c.reference, machine: c.machine, n: c.n }));
    const f = forecasts.rows.find((x) => x.dataset === s.dataset);
    return {
      dataset: s.dataset,
      subjects: s.subjects,
      ...agreementOf(mine),
      forecast: f ? forecastStats(f) : null,
      method_versions: Object.fromEntries(versions.rows.filter((v) => v.dataset === s.dataset).map((v) => [v.method_version ?? 'unknown', v.n])),
      judged_at: s.judged_at ? s.judged_at.toISOString() : null,
    };
  });
}

type ClaimRow = {
  claim_id: string; dataset: string; subject_id: string; name: string; kind: string; description: string | null;
  data: Record<string, any>; publisher_rating: string; published_outcome: string | null; forecast_probability: number | null;
  reference_url: string | null; tested_from: string | null; method_version: string | null; judged_at: Date | null;
};

export type DemoQuery = { dataset?: string | undefined; subject_id?: string | undefined; page: number; page_size: number };

/**
 * A page of demo claims, each machine verdict beside the published outcome,
 * grouped under their subjects; ordered by subject name, subject id, data set
 * and claim id. The sets' figures are over whole sets (narrowed only by
 * `dataset`), never over the page.
 */
export async function demoOverview(db: Queryable, q: DemoQuery) {
  const filter = [q.dataset ?? null, q.subject_id ?? null];
  const where = '($1::text IS NULL OR d.dataset = $1) AND ($2::text IS NULL OR d.subject_id = $2)';
  const [sets, total, page] = await Promise.all([
    setSummaries(db, q.dataset ?? null),
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM demo_claims d WHERE ${where}`, filter),
    db.query<ClaimRow>(
      `SELECT d.claim_id, d.dataset, d.subject_id, s.name, s.kind, s.description, d.data, d.publisher_rating, d.published_outcome,
              d.forecast_probability, d.reference_url, d.statement->>'date' AS tested_from, d.method_version, d.judged_at
         FROM demo_claims d JOIN subjects s ON s.id = d.subject_id
        WHERE ${where}
        ORDER BY s.name, d.subject_id, d.dataset, d.claim_id
        LIMIT $3 OFFSET $4`,
      [...filter, q.page_size, (q.page - 1) * q.page_size],
    ),
  ]);
  const subjects = new Map<string, { subject_id: string; name: string; kind: string; description: string | null; claims: unknown[] }>();
  for (const r of page.rows) {
    const s = subjects.get(r.subject_id) ?? { subject_id: r.subject_id, name: r.name, kind: r.kind, description: r.description, claims: [] };
    subjects.set(r.subject_id, s);
    const c = r.data;
    s.claims.push({
      claim_id: r.claim_id,
      dataset: r.dataset,
      claim_type: c.claim_type,
      topic: c.topic,
      quote: c.quote,
      said_on: c.said_on ?? null,
      tested_from: r.tested_from,
      source: c.source,
      resolution_criteria: c.resolution_criteria,
      machine: {
        outcome: c.outcome,
        on_time: c.on_time ?? null,
        rationale: c.rationale,
        judges_disagree: c.judges_disagree,
        evidence: c.evidence ?? [],
        method_version: r.method_version,
        judged_at: r.judged_at ? r.judged_at.toISOString() : null,
      },
      published: {
        publisher_rating: r.publisher_rating,
        outcome: r.published_outcome,
        forecast_probability: r.forecast_probability,
        reference_url: r.reference_url,
      },
      review_status: REVIEW_LABEL,
    });
  }
  const n = total.rows[0]?.n ?? 0;
  return {
    sets,
    subjects: [...subjects.values()],
    paging: { page: q.page, page_size: q.page_size, total: n, total_pages: Math.ceil(n / q.page_size) },
  };
}
