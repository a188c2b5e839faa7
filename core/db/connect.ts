import path from 'node:path';
import type { Config } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.ts';
import { migrate } from './migrate.ts';
import { createPool, type Pool } from './pool.ts';

export type Database = {
  url: string;
  pool: Pool;
  /** The embedded server, when this process runs one. */
  embedded: EmbeddedPostgres | undefined;
  /** Which database this is, for a person to read; no password (see databaseLabel). */
  label: string;
  /** True when this call made a new, empty embedded database (DATA_DIR held none). */
  created: boolean;
  close(): Promise<void>;
};

/**
 * Which database a process uses, in words: the embedded cluster's folder
 * under DATA_DIR, or DATABASE_URL's host, port and database name. Never the
 * user or password: command-line tools print it, and output ends up in
 * terminals, logs and bug reports.
 */
export function databaseLabel(config: Pick<Config, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `the embedded PostgreSQL in ${path.join(config.dataDir, 'pg')} (DATA_DIR=${config.dataDir})`;
  let u: URL;
  try {
    u = new URL(config.databaseUrl);
  } catch {
    return 'the PostgreSQL of DATABASE_URL';
  }
  const host = u.hostname ? `${u.hostname}${u.port ? `:${u.port}` : ''}` : (u.searchParams.get('host') ?? 'the default host');
  const name = decodeURIComponent(u.pathname.replace(/^\//, '')) || '(the user\'s default)';
  return `the PostgreSQL at ${host}, database ${name} (DATABASE_URL)`;
}

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
    label: databaseLabel(config),
    created: embedded?.created ?? false,
    async close() {
      await pool.end().catch(() => {});
      await embedded?.stop();
    },
  };
}
