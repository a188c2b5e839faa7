import { VERSION_COLUMNS, type ClaimVersion } from '../claims.ts';
import type { Queryable } from '../db/pool.ts';
import { RawJson } from '../json.ts';
import { withResponses } from '../responses.ts';
import { withReviews } from '../reviews/claims.ts';
import type { StoredText } from './repository.ts';

/** Reports older than this are served with `stale: true` while a refresh runs (SPEC.md). */
export const FRESH_DAYS = 90;
const DAY_MS = 86_400_000;

export function isStale(generatedAt: Date, now = new Date()): boolean {
  return now.getTime() - generatedAt.getTime() >= FRESH_DAYS * DAY_MS;
}

/** The stored envelope as JSON text; `stale` is worked out at the moment of serving. */
export function envelopeJson(r: StoredText, now = new Date()): { json: RawJson; generatedAt: Date } {
  const head = JSON.stringify({ report_id: r.id, status: 'complete', generated_at: r.generatedAt.toISOString(), stale: isStale(r.generatedAt, now), topic: r.topic });
  const tail = JSON.stringify({ html_url: `/v1/reports/${r.id}/html` });
  return { json: new RawJson(`${head.slice(0, -1)},"report":${r.report},${tail.slice(1)}`), generatedAt: r.generatedAt };
}

export type ClaimFilters = { claim_type?: string | undefined; topic?: string | undefined; outcome?: string | undefined };

/**
 * One page of a report's claims, in the report's order, with the filters
 * applied. `outcome` filters by the outcome that stands: the reviewed one
 * where a person has reviewed the claim's version, else the machine's.
 */
export async function claimsPage(db: Queryable, reportId: string, f: ClaimFilters, page: number, pageSize: number) {
  const where = ['c.report_id = $1'];
  const params: unknown[] = [reportId];
  for (const [col, value] of [['c.claim_type', f.claim_type], ['c.topic', f.topic], ['coalesce(cr.outcome, c.outcome)', f.outcome]] as const) {
    if (value) {
      params.push(value);
      where.push(`${col} = $${params.length}`);
    }
  }
  const from = 'FROM claims c LEFT JOIN claim_reviews cr ON cr.claim_id = c.claim_id AND cr.content_hash = c.content_hash';
  const filter = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from} WHERE ${filter}`, params)).rows[0]!.n;
  params.push(pageSize, (page - 1) * pageSize);
  const { rows } = await db.query<{ claim_id: string; data: Record<string, unknown> } & ClaimVersion>(
    `SELECT c.claim_id, c.data, ${VERSION_COLUMNS.map((v) => `c.${v}`).join(', ')} ${from} WHERE ${filter} ORDER BY c.position LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  // Replies and reviews are stored by claim id (and a review by the claim's version), so they stay on a claim when its report is remade.
  const claims = await withResponses(db, await withReviews(db, rows));
  return {
    claims,
    paging: { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) },
  };
}
