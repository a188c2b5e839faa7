import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError } from '../../core/errors.ts';
import { keyDigestHex } from '../../core/keys.ts';
import type { KeyCache } from '../../core/key-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Whether the route needs a bearer key (everything but /health and the OpenAPI files). */
    auth?: boolean;
  }
  interface FastifyRequest {
    apiKey?: { id: number; name: string };
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
 * Every route that declares `auth` needs a live key. Runs in onRequest, before
 * the body is read, so an unauthenticated caller cannot make us parse 256 KB.
 * Unknown routes under /v1 and /mcp also answer 401, not 404, to a caller
 * without a key: what exists is not disclosed to strangers.
 */
export function authPlugin(keys: KeyCache) {
  return async function (app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', async (req) => {
      const needsKey = req.routeOptions.config?.auth ?? /^\/(v1|mcp)(\/|$|\?)/.test(req.url);
      if (!needsKey) return;
      const token = bearerToken(req);
      if (!token) throw new UnauthorizedError('Send your API key as a bearer token: Authorization: Bearer <key>.');
      const key = await keys.verify(token, keyDigestHex);
      if (!key) throw new UnauthorizedError('The API key is unknown or revoked; send a live key as Authorization: Bearer <key>.');
      req.apiKey = key;
    });
  };
}
