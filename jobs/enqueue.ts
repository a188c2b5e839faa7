import type { PgBoss } from 'pg-boss';
import type { PoolClient } from '../core/db/pool.ts';
import type { Enqueue } from '../core/reports/service.ts';

/**
 * pg-boss's send inside the caller's transaction (its `db` option): the job
 * row and its queue entry commit together or not at all.
 */
export function bossEnqueue(boss: PgBoss): Enqueue {
  return async (queue, payload, tx: PoolClient) => {
    await boss.send(queue, payload, { db: { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } });
  };
}
