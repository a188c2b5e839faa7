import type { Queryable } from './db/pool.ts';

export type QueueDepth = {
  depth: number;
  queued: number;
  active: number;
  by_queue: Record<string, { queued: number; active: number }>;
};

export type SpendStatus = { day: string; spent_usd: number; limit_usd: number; remaining_usd: number; calls: number };

/**
 * Jobs waiting (created, retry) and running (active), counted from pg-boss's
 * job table itself rather than its periodically refreshed queue cache, so the
 * figure is current; and today's spend, with the paid calls it is made of. One round trip. `schema` is pg-boss's
 * schema name (a fixed identifier of ours, never input).
 */
export async function serviceStatus(db: Queryable, schema: string, queues: readonly string[], limitUsd: number): Promise<{ queue: QueueDepth; spend: SpendStatus }> {
  const { rows } = await db.query<{ name: string | null; queued: number; active: number; spent: number; calls: number; day: string }>(
    `WITH depth AS (
       SELECT name,
              count(*) FILTER (WHERE state IN ('created', 'retry'))::int AS queued,
              count(*) FILTER (WHERE state = 'active')::int AS active
         FROM ${schema}.job
        WHERE name = ANY($1::text[]) AND state IN ('created', 'retry', 'active')
        GROUP BY name
     ), spend AS (
       SELECT coalesce(sum(amount_usd), 0) AS spent, count(*)::int AS calls, (now() AT TIME ZONE 'utc')::date::text AS day
         FROM spend_ledger WHERE day = (now() AT TIME ZONE 'utc')::date
     )
     SELECT d.name, coalesce(d.queued, 0) AS queued, coalesce(d.active, 0) AS active, s.spent, s.calls, s.day
       FROM spend s LEFT JOIN depth d ON true`,
    [queues],
  );
  const by_queue: QueueDepth['by_queue'] = Object.fromEntries(queues.map((q) => [q, { queued: 0, active: 0 }]));
  let queued = 0;
  let active = 0;
  for (const r of rows) {
    if (r.name === null) continue;
    by_queue[r.name] = { queued: r.queued, active: r.active };
    queued += r.queued;
    active += r.active;
  }
  const spent = Number(rows[0]?.spent ?? 0);
  const round = (x: number) => Math.round(x * 1e6) / 1e6;
  return {
    queue: { depth: queued + active, queued, active, by_queue },
    spend: { day: rows[0]?.day ?? new Date().toISOString().slice(0, 10), spent_usd: round(spent), limit_usd: limitUsd, remaining_usd: Math.max(0, round(limitUsd - spent)), calls: rows[0]?.calls ?? 0 },
  };
}

export async function queueDepth(db: Queryable, schema: string, queues: readonly string[]): Promise<QueueDepth> {
  return (await serviceStatus(db, schema, queues, 0)).queue;
}
