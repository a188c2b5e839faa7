import type { Config } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';
import { migrate } from './migrate.ts';
import { createPool, type Pool } from './pool.ts';

export type Database = {
  url: string;
  pool: Pool;
  /** The embedded server, when this process runs one. */
  embedded: EmbeddedPostgres | undefined;
  close(): Promise<void>;
};

/**
 * The service's database: DATABASE_URL when set, else an embedded PostgreSQL
 * under DATA_DIR. Migrations are applied (under an advisory lock) before the
 * pool is handed out.
 */
export async function openDatabase(
  config: Config,
  opts: { mode?: 'own' | 'share'; log?: (line: string) => void; poolMax?: number } = {},
): Promise<Database> {
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, mode: opts.mode ?? 'own', ...(opts.log ? { log: opts.log } : {}) });
  const url = config.databaseUrl ?? embedded!.url;
  const pool = createPool(url, opts.poolMax ?? config.dbPoolMax);
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end().catch(() => {});
    await embedded?.stop();
    throw err;
  }
  return {
    url,
    pool,
    embedded,
    async close() {
      await pool.end().catch(() => {});
      await embedded?.stop();
    },
  };
}
