import type { Config } from '../core/config.ts';
import type { Pool } from '../core/db/pool.ts';
import type { Identify } from '../core/providers/identify.ts';
import type { KnowledgeProvider } from '../core/providers/types.ts';
import type { Enqueue } from '../core/reports/service.ts';
import type { StoredReports } from '../core/reports/stored.ts';

/** What routes need from the process that runs them. */
export type AppContext = {
  config: Config;
  pool: Pool;
  /** The same database's URL, for the key cache's LISTEN connection. */
  databaseUrl: string;
  /** pg-boss's schema, for reading queue depth. */
  bossSchema: string;
  queues: readonly string[];
  knowledge: KnowledgeProvider;
  /** The short model call of resolve, for names no knowledge source holds; absent without a model. */
  identify?: Identify;
  /** Sends a job to its queue inside a transaction (pg-boss, wired by the composition root). */
  enqueue: Enqueue;
  /**
   * Asks for a site build after a change the published pages show (a review);
   * absent, or a no-op, where this process runs no site builds: the next
   * build publishes the change, and the page on demand shows it at once.
   */
  requestSiteBuild?: (reason: string) => Promise<unknown>;
};

/** What buildApp gives the routes: the context, with the process's caches in front of the database. */
export type RouteContext = AppContext & {
  /** Stored reports, served from memory while the change feed listens. */
  reports: StoredReports;
};
