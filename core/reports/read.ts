import type { Queryable } from '../db/pool.ts';
import { REVIEW_LABEL } from '../method/outcomes.ts';
import { RawJson } from '../json.ts';
import { withResponses } from '../responses.ts';
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

/** One page of a report's claims, in the report's order, with the filters applied. */
export async function claimsPage(db: Queryable, reportId: string, f: ClaimFilters, page: number, pageSize: number) {
  const where = ['report_id = $1'];
  const params: unknown[] = [reportId];
  for (const [col, value] of [['claim_type', f.claim_type], ['topic', f.topic], ['outcome', f.outcome]] as const) {
    if (value) {
      params.push(value);
      where.push(`${col} = $${params.length}`);
    }
  }
  const filter = where.join(' AND ');
  const total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM claims WHERE ${filter}`, params)).rows[0]!.n;
  params.push(pageSize, (page - 1) * pageSize);
  const { rows } = await db.query<{ claim_id: string; data: Record<string, unknown> }>(
    `SELECT claim_id, data FROM claims WHERE ${filter} ORDER BY position LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  // Replies are stored by claim id, so they stay on a claim when its report is remade.
  const claims = await withResponses(db, rows.map((r) => ({ ...r.data, claim_id: r.claim_id })));
  return {
    claims: claims.map((c) => ({ ...c, review_status: REVIEW_LABEL })),
    paging: { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) },
  };
}
