import { PgBoss } from 'pg-boss';
import { MONITOR_SECONDS, PGBOSS_SCHEMA, QUEUE_OPTIONS } from './queues.ts';

export type BossOptions = {
  databaseUrl: string;
  /** API-only processes send jobs but do not run maintenance or schedules. */
  role: 'all' | 'api' | 'worker';
  onError?: (err: Error) => void;
};

/**
 * Starts pg-boss on the service's database (its own schema, `pgboss`; pg-boss
 * creates and migrates it under its own advisory lock) and makes sure every
 * queue exists.
 */
export async function startBoss(o: BossOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: o.databaseUrl,
    schema: PGBOSS_SCHEMA,
    application_name: 'reliability-scoring-boss',
    max: 5,
    supervise: o.role !== 'api',
    schedule: o.role !== 'api',
    superviseIntervalSeconds: MONITOR_SECONDS,
    monitorIntervalSeconds: MONITOR_SECONDS,
  });
  // pg-boss reports connection trouble as events; they must not crash the process.
  boss.on('error', (err) => o.onError?.(err as Error));
  await boss.start();
  // The dead letter queue must exist before the queue that names it.
  for (const [name, options] of Object.entries(QUEUE_OPTIONS).sort(([a], [b]) => Number(b.endsWith('-dead')) - Number(a.endsWith('-dead')))) {
    const existing = await boss.getQueue(name);
    if (!existing) await boss.createQueue(name, options);
    else await boss.updateQueue(name, options);
  }
  return boss;
}
