import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { KEYS_CHANNEL, KeyCache } from '../core/key-cache.ts';
import { ChangeFeed } from '../core/db/change-feed.ts';
import { REPORTS_CHANNEL, SUBJECTS_CHANNEL, StoredReports, rememberingKnowledge } from '../core/reports/stored.ts';
import type { AppContext, RouteContext } from './context.ts';
import { FailedKeyThrottle, authPlugin } from './plugins/auth.ts';
import { clientErrorHandler, errorsPlugin } from './plugins/errors.ts';
import { logSerializers } from './logging.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { compressionPlugin } from './plugins/compression.ts';
import { createLimiter, rateLimitPlugin } from './plugins/rate-limit.ts';
import { buildOpenApi } from './openapi.ts';
import { registerRoute, defineRoute, type AnyRoute } from './route.ts';
import { healthRoutes } from './routes/health.ts';
import { subjectRoutes } from './routes/subjects.ts';
import { reportRoutes } from './routes/reports.ts';
import { checkRoutes } from './routes/check.ts';
import { responseRoutes } from './routes/responses.ts';
import { labelRoutes } from './routes/labels.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { publishRoutes } from './routes/publish.ts';
import { demoRoutes } from './routes/demo.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { SITE_PATHS, siteRoutes, siteStaticPlugin } from './routes/site.ts';
import { searchRoutes } from './routes/search.ts';
import { AllowedMethods, dotSegmentsPlugin } from './plugins/paths.ts';
import { problemRoutes } from './routes/problems.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The change feed behind the app's caches (keys, stored reports, subjects). */
    changes: ChangeFeed;
  }
}

export type BuildOptions = {
  /** A pino logger; none (silent) when left out, as in most tests. */
  logger?: FastifyBaseLogger;
};

/** Every route of the interface, in the order the OpenAPI document lists them. */
export function allRoutes(ctx: RouteContext): AnyRoute[] {
  return [
    ...healthRoutes(ctx),
    ...subjectRoutes(ctx),
    ...reportRoutes(ctx),
    ...siteRoutes(ctx),
    ...searchRoutes(ctx),
    ...checkRoutes(ctx),
    ...responseRoutes(ctx),
    ...labelRoutes(ctx),
    ...reviewRoutes(ctx),
    ...publishRoutes(ctx),
    ...demoRoutes(ctx),
    ...mcpRoutes(ctx),
    ...problemRoutes(ctx),
  ];
}

/**
 * The Fastify app: external plugins, the app's own plugins, then routes
 * (fastify/demo's order). It owns no connections; the caller passes a pool
 * and closes it.
 */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const { requestTimeoutMs, headersTimeoutMs } = ctx.config;
  const app = Fastify({
    // Errors are logged without their stacks, whoever logs them (api/logging.ts).
    ...(opts.logger ? { loggerInstance: opts.logger.child({}, { serializers: logSerializers }) } : { logger: false }),
    bodyLimit: ctx.config.bodyLimitBytes,
    // A request must arrive whole in time: a body or headers that never end
    // would otherwise hold a connection (and a key's slot) for ever. Node checks
    // at connectionsCheckingInterval, so a late request is cut off within a
    // second of its limit (sooner for limits under 4 s); it gets a 408 problem.
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    },
    clientErrorHandler,
    trustProxy: ctx.config.trustProxy,
    // Request ids for log lines and 500 answers; never derived from the client.
    genReqId: () => `req_${Math.random().toString(36).slice(2, 12)}`,
    // Every path id reaches validation (422 naming its limit): the router's own
    // limit is set past anything Node lets through (a request line longer than
    // its 16 KB header limit gets 431), since a parameter over it would make
    // the route not match at all (a 404 that says nothing of the id).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1_000_000 },
    // A path with broken percent-encoding is a bad parameter: the spec's 422 body.
    frameworkErrors: (_err, _req, reply) => {
      const body = { detail: [{ loc: ['path'], msg: 'The path is not a valid URL (bad percent-encoding)', type: 'url_parsing' }] };
      void (reply as FastifyReply).code(422).type('application/json').send(body);
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  await securityHeadersPlugin()(app);
  await compressionPlugin(app);
  // Filled once the routes are known (below), read by the 404/405 handler.
  const allowed = new AllowedMethods();
  await errorsPlugin(app, allowed);
  await dotSegmentsPlugin(app);
  // One LISTEN connection feeds every cache in front of the database.
  const feed = new ChangeFeed(ctx.databaseUrl, [KEYS_CHANNEL, REPORTS_CHANNEL, SUBJECTS_CHANNEL]);
  const keys = new KeyCache(ctx.pool, feed);
  const live: RouteContext = { ...ctx, knowledge: rememberingKnowledge(ctx.knowledge, feed), reports: new StoredReports(ctx.pool, feed) };
  await feed.start();
  app.addHook('onClose', () => feed.close());
  // For tests and tools that change rows and then read through a cache: `await app.changes.settled()`.
  app.decorate('changes', feed);
  await authPlugin(keys, new FailedKeyThrottle(ctx.config.authFailuresPerMinute))(app);
  const limits = await createLimiter({
    perMinute: ctx.config.rateLimitPerMinute, store: ctx.config.rateLimitStore, pool: ctx.pool, redisUrl: ctx.config.redisUrl, blockPercent: ctx.config.rateLimitBlockPercent, log: app.log,
  });
  app.addHook('onClose', () => limits.close());
  await rateLimitPlugin(limits.limiter, ctx.config.rateLimitPerMinute)(app);

  const routes = allRoutes(live);
  const document = buildOpenApi(routes, ctx.config);
  const documentRoutes = ['/openapi.json', '/developers/openapi.json'].map((url) =>
    defineRoute({
      method: 'GET',
      url,
      operationId: url === '/openapi.json' ? 'getOpenApi' : 'getOpenApiDevelopers',
      summary: 'This OpenAPI 3.1 description',
      tags: ['service'],
      auth: false,
      hidden: true,
      responses: { 200: { description: 'The OpenAPI document.' } },
      handler: async () => document,
    }),
  );
  for (const route of [...routes, ...documentRoutes]) {
    registerRoute(app, route);
    // A route declared only to refuse (GET /mcp: 405) does not make its method allowed.
    if (Object.keys(route.responses).some((status) => Number(status) < 400)) allowed.add(route.method, route.url);
  }
  // The static site answers GET (and HEAD) at every path outside /v1 and /mcp.
  allowed.add('GET', SITE_PATHS);
  // The public static site at / (last: its catch-all yields to every route above).
  await siteStaticPlugin(ctx)(app);
  return app;
}
