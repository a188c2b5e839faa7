import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LimitError, UnavailableError } from '../../core/errors.ts';
import type { Pool } from '../../core/db/pool.ts';

/**
 * Requests per minute per key (fixed one-minute windows), counted by
 * rate-limiter-flexible: in the process by default, or in a store shared by
 * every API process (PostgreSQL, or Redis) when several share the work.
 * Every keyed response carries the IETF RateLimit-Policy and RateLimit
 * headers (draft-ietf-httpapi-ratelimit-headers):
 *   RateLimit-Policy: "per-key";q=60;w=60
 *   RateLimit: "per-key";r=<remaining>;t=<seconds until the window resets>
 * A 429 adds Retry-After.
 *
 * A shared store is asked once per block of requests, not once per request
 * (BlockLimiter): a process takes a block of the key's minute from the store
 * (1% of the limit by default, RATE_LIMIT_BLOCK_PERCENT; at least one
 * request) and admits that many requests from memory before it asks again.
 * Nothing is admitted that the store did not grant, so a key never gets more
 * than its limit in a minute, across every process. The tolerance is the
 * other way: a block one process holds is not free for another, so a key
 * spread over several processes may be refused up to (processes − 1) × block
 * requests before its limit (with the default 60 a minute the block is one
 * request: exact, one store call a request, as before). Once the store says
 * the minute is used up, the process answers 429 from memory until it ends.
 */

export type RateLimitStore = 'memory' | 'postgres' | 'redis';
export type RateLimitOptions = { perMinute: number; store: RateLimitStore; pool: Pool; redisUrl?: string | undefined; blockPercent?: number; log?: FastifyBaseLogger };

/** What the plugin asks of a limiter: one request for a key, or a RateLimiterRes thrown when the minute is used up. */
export type KeyLimiter = { consume(key: string): Promise<{ remainingPoints: number; msBeforeNext: number }> };
export type Limiter = { limiter: KeyLimiter; store: RateLimitStore; close(): Promise<void> };

type KeyState = { lease: number; remaining: number; resetAt: number; exhausted: boolean; pending: Promise<void> | null };

/** Takes a key's minute from a shared store a block at a time (see above). */
export class BlockLimiter implements KeyLimiter {
  readonly block: number;
  private readonly keys = new Map<string, KeyState>();
  private readonly store: RateLimiterAbstract;
  private readonly perMinute: number;
  private readonly sweep: NodeJS.Timeout;
  /** Store calls made (for tests and benchmarks). */
  storeCalls = 0;

  constructor(store: RateLimiterAbstract, perMinute: number, blockPercent: number) {
    this.store = store;
    this.perMinute = perMinute;
    this.block = Math.max(1, Math.floor((perMinute * blockPercent) / 100));
    // Keys whose minute is over are forgotten (their next request asks the store anyway).
    this.sweep = setInterval(() => {
      const now = Date.now();
      for (const [k, s] of this.keys) if (s.resetAt <= now && !s.pending) this.keys.delete(k);
    }, 60_000);
    this.sweep.unref();
  }

  async consume(key: string): Promise<{ remainingPoints: number; msBeforeNext: number }> {
    for (;;) {
      const now = Date.now();
      let s = this.keys.get(key);
      if (s && s.resetAt <= now && !s.pending) {
        this.keys.delete(key);
        s = undefined;
      }
      if (s && s.lease > 0) {
        s.lease--;
        s.remaining = Math.max(0, s.remaining - 1);
        return { remainingPoints: s.remaining, msBeforeNext: s.resetAt - now };
      }
      if (s?.exhausted) {
        const res = new RateLimiterRes(0, s.resetAt - now, this.perMinute + 1, false);
        throw res;
      }
      if (s?.pending) {
        // One request for a block at a time per key: the others wait for it and share it.
        await s.pending;
        continue;
      }
      const state: KeyState = s ?? { lease: 0, remaining: this.perMinute, resetAt: now, exhausted: false, pending: null };
      this.keys.set(key, state);
      state.pending = this.take(key, state).finally(() => {
        state.pending = null;
      });
      await state.pending;
    }
  }

  private async take(key: string, state: KeyState): Promise<void> {
    this.storeCalls++;
    let res: RateLimiterRes;
    let over = 0;
    try {
      res = await this.store.consume(key, this.block);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) {
        this.keys.delete(key);
        throw rejection;
      }
      res = rejection;
      // The store counted the whole block; only what fits under the limit is granted.
      over = Math.min(this.block, res.consumedPoints - this.perMinute);
      state.exhausted = true;
    }
    const now = Date.now();
    if (state.resetAt <= now) state.lease = 0;
    state.lease += this.block - over;
    state.resetAt = now + res.msBeforeNext;
    // What the key has left in the minute, as far as this process knows: the store's remainder and its own block.
    state.remaining = Math.max(0, this.perMinute - res.consumedPoints) + state.lease;
  }

  close(): void {
    clearInterval(this.sweep);
  }
}

/** The in-process store: exact, nothing to share. */
function memoryLimiter(perMinute: number): KeyLimiter {
  const m = new RateLimiterMemory({ keyPrefix: 'rpm', points: perMinute, duration: 60 });
  return { consume: (key) => m.consume(key, 1) };
}

export async function createLimiter(o: RateLimitOptions): Promise<Limiter> {
  if (o.store === 'memory') return { limiter: memoryLimiter(o.perMinute), store: 'memory', close: async () => {} };
  const blockPercent = o.blockPercent ?? 1;
  if (o.store === 'postgres') {
    const store = new RateLimiterPostgres({
      storeClient: o.pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, clearExpiredByTimeout: true, keyPrefix: 'rpm', points: o.perMinute, duration: 60,
    });
    const limiter = new BlockLimiter(store, o.perMinute, blockPercent);
    return { limiter, store: 'postgres', close: async () => limiter.close() };
  }
  if (!o.redisUrl) throw new Error('RATE_LIMIT_STORE=redis needs REDIS_URL');
  // Fail fast while Redis is away (no offline queue, one second per command): the request gets a 503, never a hang.
  const client = new Redis(o.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000, lazyConnect: true });
  // ioredis reconnects by itself; an error is worth a warning, not a crash (the URL may hold a password: never logged).
  client.on('error', (err: Error & { code?: string }) => o.log?.warn({ code: err.code ?? null }, 'redis (rate limits): connection error'));
  await client.connect().catch((err: Error & { code?: string }) => {
    o.log?.warn({ code: err.code ?? null }, 'redis (rate limits) is not reachable yet: keyed requests get 503 until it is');
  });
  const store = new RateLimiterRedis({ storeClient: client, rejectIfRedisNotReady: true, keyPrefix: 'rss:rpm', points: o.perMinute, duration: 60 });
  const limiter = new BlockLimiter(store, o.perMinute, blockPercent);
  return {
    limiter,
    store: 'redis',
    close: async () => {
      limiter.close();
      client.disconnect();
    },
  };
}

export function rateLimitPlugin(limiter: KeyLimiter, perMinute: number) {
  const policy = `"per-key";q=${perMinute};w=60`;
  return async function (app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (req, reply) => {
      if (!req.apiKey) return;
      let res: { remainingPoints: number; msBeforeNext: number };
      try {
        res = await limiter.consume(String(req.apiKey.id));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
          throw new LimitError('rate-limited', `This key has made ${perMinute} requests this minute; wait ${wait} s and retry.`, wait, {
            'ratelimit-policy': policy,
            ratelimit: `"per-key";r=0;t=${wait}`,
          });
        }
        throw new UnavailableError('unavailable', 'The rate limiter cannot reach its store; retry shortly.', 5);
      }
      reply.header('ratelimit-policy', policy);
      reply.header('ratelimit', `"per-key";r=${res.remainingPoints};t=${Math.max(0, Math.ceil(res.msBeforeNext / 1000))}`);
    });
  };
}
