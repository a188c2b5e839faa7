import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { FastifyInstance } from 'fastify';
import { BlockLimiter } from '../api/plugins/rate-limit.ts';
import { buildApp } from '../api/app.ts';
import { loadConfig } from '../core/config.ts';
import { apiProviders } from '../core/providers/index.ts';
import { bossEnqueue } from '../jobs/enqueue.ts';
import { COUNTED_QUEUES, PGBOSS_SCHEMA } from '../jobs/queues.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { startRedis, type TestRedis } from './helpers/redis-server.ts';

/**
 * The shared rate-limit stores: Redis (a real redis-server started here) and
 * PostgreSQL, each taken a block at a time (BlockLimiter): never more than the
 * limit across processes, at most (processes − 1) × block refused early, one
 * store call per block; and through the app, with two API instances sharing
 * one Redis as two API processes do, the limit exact at the default block of
 * one request, 429 with Retry-After past it, 503 while Redis is away and
 * served again when it is back.
 */

let redis: TestRedis;
let db: TestDatabase;
const clients: Redis[] = [];

beforeAll(async () => {
  redis = await startRedis();
  db = await createTestDatabase('rate_stores');
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await redis.close();
  await db.drop();
});

const redisStore = (points: number, prefix: string) => {
  const client = new Redis(redis.url);
  clients.push(client);
  return new RateLimiterRedis({ storeClient: client, keyPrefix: prefix, points, duration: 60 });
};
const postgresStore = (points: number, prefix: string) =>
  new RateLimiterPostgres({ storeClient: db.pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, keyPrefix: prefix, points, duration: 60 });

/** Sends n requests for one key, round-robin over the processes, `concurrency` at a time; counts what each answer was. */
async function load(processes: BlockLimiter[], key: string, n: number, concurrency = 20) {
  let admitted = 0;
  let refused = 0;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) {
      try {
        await processes[i % processes.length]!.consume(key);
        admitted++;
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        refused++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { admitted, refused, storeCalls: processes.reduce((s, p) => s + p.storeCalls, 0) };
}

describe.each([
  ['redis', redisStore],
  ['postgres', postgresStore],
] as const)('the %s store, taken a block at a time', (name, store) => {
  it('never admits more than the limit across processes, refuses at most (processes − 1) × block early, and asks the store once per block', async () => {
    const limit = 2000;
    const processes = [0, 1, 2].map(() => new BlockLimiter(store(limit, `blk-${name}`), limit, 1));
    expect(processes[0]!.block).toBe(20);
    const r = await load(processes, 'key-a', 2600);
    expect(r.admitted).toBeLessThanOrEqual(limit);
    expect(r.admitted).toBeGreaterThanOrEqual(limit - 2 * 20);
    expect(r.admitted + r.refused).toBe(2600);
    // One store call per block, plus the few that find the minute used up.
    expect(r.storeCalls).toBeLessThanOrEqual(Math.ceil(limit / 20) + 3 * 3);
    for (const p of processes) p.close();
  });

  it('with a block of one request (the default 60 a minute), is exact: the limit and not one more', async () => {
    const processes = [0, 1].map(() => new BlockLimiter(store(60, `one-${name}`), 60, 1));
    expect(processes[0]!.block).toBe(1);
    const r = await load(processes, 'key-b', 90);
    expect(r).toMatchObject({ admitted: 60, refused: 30 });
    for (const p of processes) p.close();
  });
});

describe('RATE_LIMIT_STORE=redis, two API instances on one Redis', () => {
  let a: TestApp;
  let b: { app: FastifyInstance; close(): Promise<void> };
  let key: Record<string, string>;

  beforeAll(async () => {
    const env = { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '10' };
    a = await startTestApp(env, 'rate_redis_a');
    // A second app on the same database and Redis, with limiters of its own: as a second ROLE=api process.
    const config = loadConfig({ DATABASE_URL: a.db.url, ...env });
    const app = await buildApp({ config, pool: a.db.pool, databaseUrl: a.db.url, bossSchema: PGBOSS_SCHEMA, queues: COUNTED_QUEUES, ...(await apiProviders(config, a.db.pool)), enqueue: bossEnqueue(a.boss) });
    await app.ready();
    b = { app, close: () => app.close() };
    key = bearer(await a.key());
  });
  afterAll(async () => {
    await b.close().catch(() => {});
    await a.close();
  });

  it('share the per-key limit exactly: 10 answered, then 429 with Retry-After and the RateLimit headers', async () => {
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 12; i++) {
      last = await (i % 2 ? b : a).app.inject({ method: 'GET', url: '/v1/status', headers: key });
      codes.push(last.statusCode);
      if (i === 3) expect(last.headers.ratelimit).toMatch(/^"per-key";r=6;t=\d+$/);
    }
    expect(codes).toEqual([...Array(10).fill(200), 429, 429]);
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.headers['ratelimit-policy']).toBe('"per-key";q=10;w=60');
    expect(last!.json()).toMatchObject({ status: 429, type: '/problems/rate-limited' });
  });

  it('answers 503 at once while Redis is away, and serves again when it is back', async () => {
    const other = bearer(await a.key());
    await redis.stop();
    try {
      const t0 = performance.now();
      const res = await a.app.inject({ method: 'GET', url: '/v1/status', headers: other });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ type: '/problems/unavailable' });
      expect(performance.now() - t0).toBeLessThan(1500);
    } finally {
      await redis.start();
    }
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await a.app.inject({ method: 'GET', url: '/v1/status', headers: other })).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
