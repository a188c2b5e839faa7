import { PgBoss } from 'pg-boss';
import { PGBOSS_SCHEMA, QUEUES } from './queues.ts';

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
  });
  // pg-boss reports connection trouble as events; they must not crash the process.
  boss.on('error', (err) => o.onError?.(err as Error));
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    // createQueue is idempotent in pg-boss 12.
    await boss.createQueue(name);
  }
  return boss;
}
