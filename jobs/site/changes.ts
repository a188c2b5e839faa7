import type { Queryable } from '../../core/db/pool.ts';
import { latestMeasurement } from '../../core/methodology.ts';

/**
 * What changed in the database since a version of the site was built, read
 * in the build's own REPEATABLE READ transaction without reading the whole
 * site: every version records the snapshot it was built from
 * (pg_current_snapshot()), and a report or reply is new to it when the
 * transaction that last wrote the row (`site_xid`, migration 017) is not
 * visible in that snapshot. Rows committed after the snapshot was taken, in
 * whatever order their transactions began, are all found; the index on
 * `site_xid` keeps the read to rows written since the snapshot's xmin.
 */

export type SiteChanges = {
  /** This transaction's snapshot: what the version about to be built holds. */
  snapshot: string;
  /** Reports written (stored, remade, signed off) since: their pages, their subjects' pages. */
  reports: { id: string; subject_id: string }[];
  /** Reports with a claim that got a reply (or a reply whose status changed), or a review, since: their pages only. */
  repliedReports: string[];
  /** A report was removed since: only a full build can take pages away. */
  removed: boolean;
  measurementAt: string | null;
};

export async function currentSnapshot(tx: Queryable): Promise<string> {
  return (await tx.query<{ s: string }>('SELECT pg_current_snapshot()::text AS s')).rows[0]!.s;
}

export async function changesSince(tx: Queryable, since: string): Promise<SiteChanges> {
  const snapshot = await currentSnapshot(tx);
  const removed = (await tx.query(`SELECT 1 FROM site_removals WHERE NOT pg_visible_in_snapshot(xid, $1::pg_snapshot)`, [since])).rowCount! > 0;
  const reports = (
    await tx.query<{ id: string; subject_id: string }>(
      `SELECT r.id, r.subject_id FROM reports r JOIN subjects s ON s.id = r.subject_id
        WHERE r.site_xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(r.site_xid, $1::pg_snapshot) AND NOT s.demo
        ORDER BY r.generated_at, r.id`,
      [since],
    )
  ).rows;
  const repliedReports = (
    await tx.query<{ report_id: string }>(
      `SELECT DISTINCT c.report_id FROM responses x JOIN claims c ON c.claim_id = x.claim_id JOIN subjects s ON s.id = c.subject_id
        WHERE x.site_xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(x.site_xid, $1::pg_snapshot) AND NOT s.demo
        ORDER BY c.report_id`,
      [since],
    )
  ).rows.map((r) => r.report_id);
  const reviewedReports = (await hasReviewRecord(tx)) ? await reviewedSince(tx, since) : [];
  const measurementAt = (await latestMeasurement(tx))?.measured_at ?? null;
  return { snapshot, reports, repliedReports: [...new Set([...repliedReports, ...reviewedReports])].sort(), removed, measurementAt };
}

/** Whether the editorial review's record (migration 015) is there, with the column migration 017 gives it. */
async function hasReviewRecord(tx: Queryable): Promise<boolean> {
  const { rows } = await tx.query<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'review_events' AND column_name = 'site_xid') AS ok`,
  );
  return rows[0]!.ok;
}

/**
 * Reports whose page an entry of the review record changed since: a claim's
 * review, its lapse, a decision on a reply (core/reviews/record.ts says which
 * entries touch which pages). A sign-off or its withdrawal rewrites the
 * report's row, so it is among the changed reports already (with its
 * subject's page, browse page and the index).
 */
async function reviewedSince(tx: Queryable, since: string): Promise<string[]> {
  const { rows } = await tx.query<{ report_id: string }>(
    `SELECT DISTINCT c.report_id FROM review_events e JOIN claims c ON c.claim_id = e.claim_id JOIN subjects s ON s.id = c.subject_id
      WHERE e.site_xid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(e.site_xid, $1::pg_snapshot) AND NOT s.demo
        AND e.action IN ('claim_review', 'review_lapsed', 'reply_decision')`,
    [since],
  );
  return rows.map((r) => r.report_id);
}
