import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../core/db/migrate.ts';
import { createPool, type Pool } from '../../core/db/pool.ts';

export type TestDatabase = { url: string; pool: Pool; drop(): Promise<void> };

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A database of its own for one test file, migrated. Dropped at the end unless
 * the file failed (KEEP_TEST_DB=1 keeps it for inspection, as pg-boss's tests do).
 */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const admin = inject('pgUrl');
  const name = `t_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = withDatabase(admin, name);
  const pool = createPool(url, 10);
  await migrate(pool);
  return {
    url,
    pool,
    async drop() {
      await pool.end().catch(() => {});
      if (process.env.KEEP_TEST_DB === '1') return;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
