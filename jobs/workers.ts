import type { PgBoss } from 'pg-boss';
import { loadConfig, type Config } from '../core/config.ts';
import type { Pool } from '../core/db/pool.ts';
import { buildProviders } from '../core/providers/index.ts';
import type { Providers } from '../core/providers/types.ts';
import { startCheckWorkers } from './check-worker.ts';
import { startMeasurementWorkers } from './measurement.ts';
import { startReportWorkers } from './report-worker.ts';
import { startSiteWorkers } from './site-build.ts';

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };

/** Every queue's workers, as a worker process (ROLE all or worker) runs them, on the providers the configuration names. */
export async function startAllWorkers(boss: PgBoss, pool: Pool, log?: Log, config: Config = loadConfig(), given?: Providers): Promise<void> {
  const providers = given ?? (await buildProviders(config, pool));
  await startReportWorkers(boss, pool, log, providers);
  await startMeasurementWorkers(boss, pool, log);
  await startCheckWorkers(boss, pool, log, providers);
  await startSiteWorkers(boss, pool, log, config);
}
