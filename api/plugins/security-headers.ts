import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every response (errors included), as helmet sets them.
 * Helmet's headers here depend on nothing in the request (no nonces), so its
 * middleware is run once, at start, against a recording response, and each
 * request gets the recorded headers instead of running its thirteen
 * middlewares (@fastify/helmet, which rebuilds them per request, cost a third
 * of a small route's throughput).
 * JSON API responses: nothing may be loaded or framed from them.
 */
export function securityHeaders(): { set: [string, string][]; removed: string[] } {
  const apply = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    xFrameOptions: { action: 'deny' },
  });
  const set = new Map<string, string>();
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => set.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => {
      set.delete(name.toLowerCase());
      removed.push(name.toLowerCase());
    },
  } as unknown as ServerResponse;
  let finished = false;
  apply({ headers: {} } as never, recorder, (err?: unknown) => {
    if (err) throw err;
    finished = true;
  });
  // Helmet's middlewares are synchronous; if a future version is not, fail at start rather than send no headers.
  if (!finished || set.size === 0) throw new Error('helmet did not set its headers synchronously');
  return { set: [...set], removed };
}

export function securityHeadersPlugin() {
  const { set, removed } = securityHeaders();
  return async function (app: FastifyInstance): Promise<void> {
    app.addHook('onRequest', (_req, reply, done) => {
      const raw = reply.raw;
      for (const [name, value] of set) raw.setHeader(name, value);
      for (const name of removed) raw.removeHeader(name);
      done();
    });
  };
}
