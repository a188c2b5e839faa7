import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError, LimitError, UnauthorizedError } from '../../core/errors.ts';
import { isWellFormedKey, keyDigestHex, type LiveKey, type Scope } from '../../core/keys.ts';
import type { KeyCache } from '../../core/key-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Whether the route needs a bearer key (everything but /health and the OpenAPI files). */
    auth?: boolean;
    /** The scope a key needs for the route (core/keys.ts SCOPES); checked once the key is known. */
    scope?: Scope;
  }
  interface FastifyRequest {
    apiKey?: LiveKey;
  }
}

/** The bearer token of a request, or undefined. The scheme is case-insensitive (RFC 7235). */
export function bearerToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * Who a client address counts as for the failed-key throttle: an IPv4 address
 * itself, an IPv6 address by its /64 (one host commonly holds a whole /64, so
 * counting single addresses would count nothing).
 */
export function addressBucket(ip: string): string {
  try {
    let a = ipaddr.parse(ip);
    if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
    if (a.kind() === 'ipv4') return a.toString();
    return `${(a as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
  } catch {
    return ip;
  }
}

/**
 * Requests with a well-formed key that is not a live one (unknown or revoked),
 * per client address and minute (fixed one-minute windows). One unit is taken
 * before such a key is looked up and given back when it turns out live, so
 * an address that has used its units gets 429 without the database being
 * asked at all. Counted in the process, even when the per-key rate limit is
 * kept in PostgreSQL: the throttle is there to spare the database, and
 * counting there would cost what it saves. Keys the key cache already holds
 * as live pass without a unit; missing and malformed keys cost no query and
 * take none (401 at once).
 */
export class FailedKeyThrottle {
  readonly #limiter: RateLimiterMemory;
  readonly #perMinute: number;

  constructor(perMinute: number) {
    this.#perMinute = perMinute;
    this.#limiter = new RateLimiterMemory({ keyPrefix: 'auth-fail', points: perMinute, duration: 60 });
  }

  /** Takes one unit for the address, or throws the 429. */
  async take(bucket: string): Promise<void> {
    try {
      await this.#limiter.consume(bucket, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const wait = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new LimitError(
        'auth-failures',
        `Over ${this.#perMinute} requests with an unknown or revoked API key came from your address this minute; wait ${wait} s, and send a live key as Authorization: Bearer <key>.`,
        wait,
      );
    }
  }

  /** Gives back the unit of a key that turned out live. */
  async giveBack(bucket: string): Promise<void> {
    await this.#limiter.reward(bucket, 1);
  }
}

/** 403 for a live key that lacks the route's scope: the key is good, it may not do this. */
export function checkScope(key: LiveKey, scope: Scope | undefined): void {
  if (scope === undefined || key.scopes.includes(scope)) return;
  throw new DomainError(
    403,
    'insufficient-scope',
    `This route needs a key with the \`${scope}\` scope; this key has ${key.scopes.map((s) => `\`${s}\``).join(', ')}. Ask the operator for a key made with \`npm run key -- create NAME --scope ${scope}\` (scopes may be combined: --scope read,${scope === 'read' ? 'label' : scope}).`,
    { required_scope: scope, key_scopes: key.scopes },
  );
}

/**
 * Every route that declares `auth` needs a live key, with the route's scope. Runs in onRequest, before
 * the body is read, so an unauthenticated caller cannot make us parse 256 KB.
 * Unknown routes under /v1 and /mcp also answer 401, not 404, to a caller
 * without a key: what exists is not disclosed to strangers.
 */
export function authPlugin(keys: KeyCache, failures: FailedKeyThrottle) {
  /** The look-up the cache cannot answer alone: counted against the address, then asked of the database. */
  const verify = async (req: FastifyRequest, token: string): Promise<void> => {
    const counted = isWellFormedKey(token);
    const bucket = addressBucket(req.ip);
    if (counted) await failures.take(bucket);
    const key = await keys.verify(token, keyDigestHex).catch(async (err: unknown) => {
      // Not a failed key: the database could not say (a 503 follows).
      if (counted) await failures.giveBack(bucket);
      throw err;
    });
    if (!key) throw new UnauthorizedError('The API key is unknown or revoked; send a live key as Authorization: Bearer <key>.');
    if (counted) await failures.giveBack(bucket);
    req.apiKey = key;
    checkScope(key, req.routeOptions.config?.scope);
  };
  return async function (app: FastifyInstance): Promise<void> {
    // A callback hook: a key the cache holds (nearly every request) is checked without a promise.
    app.addHook('onRequest', (req, _reply, done) => {
      try {
        const needsKey = req.routeOptions.config?.auth ?? /^\/(v1|mcp)(\/|$|\?)/.test(req.url);
        if (!needsKey) return done();
        const token = bearerToken(req);
        if (!token) throw new UnauthorizedError('Send your API key as a bearer token: Authorization: Bearer <key>.');
        const cached = keys.known(token, keyDigestHex);
        if (cached) {
          req.apiKey = cached;
          checkScope(cached, req.routeOptions.config?.scope);
          return done();
        }
        verify(req, token).then(() => done(), done);
      } catch (err) {
        done(err as Error);
      }
    });
  };
}
