import type { Config } from '../core/config.ts';
import type { Pool } from '../core/db/pool.ts';

/** What routes need from the process that runs them. */
export type AppContext = {
  config: Config;
  pool: Pool;
  /** The same database's URL, for the key cache's LISTEN connection. */
  databaseUrl: string;
  /** pg-boss's schema, for reading queue depth. */
  bossSchema: string;
  queues: readonly string[];
};
