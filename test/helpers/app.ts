import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import { buildApp } from '../../api/app.ts';
import { loadConfig, type Config } from '../../core/config.ts';
import { createKey, revokeKey, type Scope } from '../../core/keys.ts';
import { startBoss } from '../../jobs/boss.ts';
import { COUNTED_QUEUES, PGBOSS_SCHEMA } from '../../jobs/queues.ts';
import { bossEnqueue } from '../../jobs/enqueue.ts';
import { startAllWorkers } from '../../jobs/workers.ts';
import { requestSiteBuild } from '../../jobs/site-build.ts';
import { closePipelinePool } from '../../jobs/pipeline/cpu-pool.ts';
import { apiProviders } from '../../core/providers/index.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export type TestApp = {
  app: FastifyInstance;
  db: TestDatabase;
  boss: PgBoss;
  config: Config;
  /** Makes a live key and returns it: with the default scopes (core/keys.ts DEFAULT_SCOPES) unless others are given. */
  key(name?: string, scopes?: readonly Scope[]): Promise<string>;
  revoke(name: string): Promise<void>;
  close(): Promise<void>;
};

let counter = 0;

/** The whole app on a database of its own, with pg-boss started on it. */
export async function startTestApp(env: Record<string, string> = {}, label = 'app', opts: { workers?: boolean } = {}): Promise<TestApp> {
  const db = await createTestDatabase(label);
  const config = loadConfig({ DATABASE_URL: db.url, ...env });
  const boss = await startBoss({ databaseUrl: db.url, role: 'all' });
  if (opts.workers) await startAllWorkers(boss, db.pool, undefined, config);
  const app = await buildApp({
    config, pool: db.pool, databaseUrl: db.url, bossSchema: PGBOSS_SCHEMA, queues: COUNTED_QUEUES,
    ...(await apiProviders(config, db.pool)), enqueue: bossEnqueue(boss),
    // A no-op unless this test started the site workers (startAllWorkers).
    requestSiteBuild: (reason) => requestSiteBuild(boss, { reason }),
  });
  await app.ready();
  return {
    app,
    db,
    boss,
    config,
    async key(name = `key-${++counter}`, scopes?: readonly Scope[]) {
      return (await createKey(db.pool, name, scopes)).key;
    },
    async revoke(name) {
      await revokeKey(db.pool, name);
    },
    async close() {
      await app.close();
      await boss.stop({ graceful: false });
      await closePipelinePool();
      await db.drop();
    },
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
