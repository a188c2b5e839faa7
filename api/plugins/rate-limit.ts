import type { FastifyInstance } from 'fastify';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LimitError, UnavailableError } from '../../core/errors.ts';
import type { Pool } from '../../core/db/pool.ts';

/**
 * Requests per minute per key (fixed one-minute windows), counted by
 * rate-limiter-flexible, in the process by default or in PostgreSQL when
 * several API processes share the work. Every keyed response carries the IETF
 * RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers):
 *   RateLimit-Policy: "per-key";q=60;w=60
 *   RateLimit: "per-key";r=<remaining>;t=<seconds until the window resets>
 * A 429 adds Retry-After.
 */

export type RateLimitOptions = { perMinute: number; store: 'memory' | 'postgres'; pool: Pool };

export function createLimiter(o: RateLimitOptions): RateLimiterAbstract {
  if (o.store === 'postgres') {
    return new RateLimiterPostgres({
      storeClient: o.pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      clearExpiredByTimeout: true,
      keyPrefix: 'rpm',
      points: o.perMinute,
      duration: 60,
    });
  }
  return new RateLimiterMemory({ keyPrefix: 'rpm', points: o.perMinute, duration: 60 });
}

export function rateLimitPlugin(limiter: RateLimiterAbstract, perMinute: number) {
  const policy = `"per-key";q=${perMinute};w=60`;
  return async function (app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (req, reply) => {
      if (!req.apiKey) return;
      let res: RateLimiterRes;
      try {
        res = await limiter.consume(String(req.apiKey.id), 1);
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
