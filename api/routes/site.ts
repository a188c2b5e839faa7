import { z } from 'zod';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, UnavailableError } from '../../core/errors.ts';
import { ReportPathSchema } from '../../core/schemas/queries.ts';
import { clientDir, publicRoot, readCurrent, siteLayout } from '../../core/site/layout.ts';
import { common, reportPages } from '../../core/site/page-data.ts';
import { rendererFor, type Renderer } from '../../core/site/renderer.ts';
import { siteVersion } from '../../core/site/version.ts';
import type { BuildManifest } from '../../core/site/layout.ts';
import { ProblemSchema } from '../../core/schemas/common.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

/**
 * The static site, public at `/`, and a report's page on demand under /v1.
 *
 * Content-Security-Policy of every page: nothing runs. `script-src 'none'`
 * blocks every script, inline or not; the pages have none. The ClaimReview
 * blocks, `<script type="application/ld+json">`, are data blocks: the HTML
 * standard never executes a script element whose type is not JavaScript, so
 * CSP has nothing to allow for them (no hash, no nonce) and crawlers read
 * them from the HTML. Styles come only from the site's own stylesheet files
 * (`style-src 'self'`, no inline styles). No frames, plugins, fetches or
 * base changes; forms may be sent only to the site itself (`form-action
 * 'self'`: the header's search form, GET /search).
 */
export const SITE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function cacheControl(file: string): string {
  // Astro's assets carry a content hash in their names; everything else may change with the next build.
  return /[\\/]_astro[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

export function siteRoutes(ctx: AppContext) {
  const siteDir = ctx.config.siteDir;
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:report_id/html',
      operationId: 'getReportHtml',
      summary: 'The report as a readable HTML page',
      description: [
        'The report\'s page as the public site publishes it at `/reports/<report_id>/`, rendered the moment the report is stored, with the same page components the static build uses (no need to wait for the site build).',
        'Every score and verdict on it carries the label `machine-generated, unreviewed`; each claim\'s verdict is also given as schema.org ClaimReview (JSON-LD). The page runs no script (Content-Security-Policy `script-src \'none\'`).',
        '503 until the site has been built once (a few seconds after the first start).',
      ].join('\n'),
      tags: ['reports'],
      auth: true,
      params: ReportPathSchema,
      responses: {
        200: {
          description: 'The page (`text/html`).',
          contentType: 'text/html',
          schema: z.string().describe('An HTML document.'),
          example: '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Valley District Council: reliability report</title></head><body><main><h1>Valley District Council</h1><p>machine-generated, unreviewed</p></main></body></html>\n',
        },
        404: { description: 'No such report.', schema: ProblemSchema },
        503: { description: 'The site has not been built yet; retry after `retry_after` seconds. An API process (`ROLE=api`) whose `DATA_DIR/site` no worker builds says where the site is expected and how to share it.', schema: ProblemSchema },
      },
      handler: async (_req, reply, { params }) => {
        const [page] = await reportPages(ctx.pool, [params.report_id], common(), ctx.config.siteUrl ?? null, { includeDemo: true });
        if (!page) throw new NotFoundError(`No report ${params.report_id}. Report ids come from POST /v1/reports or a finished job.`);
        const current = await readCurrent(siteDir);
        if (!current) throw siteNotBuilt(ctx.config);
        const html = await (await liveRenderer(ctx.config, current)).render(page);
        reply.header('content-security-policy', SITE_CSP).header('cache-control', 'no-store').type('text/html; charset=utf-8');
        return html;
      },
    }),
  ];
}

/**
 * The answer while there is no site at DATA_DIR/site/current: 503 with
 * Retry-After, never a 404 that says the site does not exist. A process that
 * runs workers (ROLE all or worker) builds it a few seconds after it starts.
 * An API-only process never builds it: it serves the folder the workers build
 * only if the two share it, so the problem says where the site is expected
 * and how to share it.
 */
export function siteNotBuilt(config: AppContext['config']): UnavailableError {
  if (config.role === 'api') {
    return new UnavailableError('unavailable', [
      `The static site is not built here: this API process (ROLE=api) serves it from ${publicRoot(config.siteDir)}, and never builds it.`,
      'Worker processes (ROLE=worker) build it into their own DATA_DIR/site: give this process the same folder (a shared volume mounted at DATA_DIR/site), or serve the workers\' site/current/client/ from a static host or CDN.',
    ].join(' '), 30);
  }
  return new UnavailableError('unavailable', 'The static site is being built (the first build runs a few seconds after the service first starts); retry shortly.', 5);
}

/**
 * The renderer of the live build, when this version of the service made it. A
 * build made by other code (the version before an upgrade, or workers that
 * still run it) has other page components, which cannot render this code's
 * page data: the page waits for the full rebuild that a changed site version
 * starts, with a 503, rather than failing.
 */
export async function liveRenderer(config: AppContext['config'], current: { dir: string; manifest: BuildManifest }): Promise<Renderer> {
  if (current.manifest.site_version !== siteVersion()) {
    throw new UnavailableError('unavailable', config.role === 'api'
      ? 'The live site was built by another version of the service; the pages rendered on demand come back once the workers, on this version, have rebuilt it. Retry shortly.'
      : 'The site is being rebuilt for this version of the service; retry shortly.', config.role === 'api' ? 30 : 5);
  }
  return rendererFor(current.dir, current.manifest);
}

/** Whether the live version exists; once it does it stays (builds swap it, never remove it), so a yes is remembered. */
function siteReady(siteDir: string): () => Promise<boolean> {
  const current = path.join(clientDir(siteLayout(siteDir).current), 'index.html');
  let ready = false;
  return async () => (ready ||= await stat(current).then(() => true, () => false));
}

/**
 * The built site at `/`, public, from DATA_DIR/site/current/client (the live
 * version: a link swapped by each build, so a request sees one version
 * whole). Paths under /v1 and /mcp are never files: without a key they get
 * the API's 401, with one a 404 problem; so does any path with no file.
 */
/** The paths the static site serves: all but those under /v1 and /mcp. */
export const SITE_PATHS = /^\/(?!(v1|mcp)(\/|$))/;

export function siteStaticPlugin(ctx: AppContext) {
  const root = publicRoot(ctx.config.siteDir);
  return async function (app: FastifyInstance): Promise<void> {
    // A context of its own: the hook below runs for the site's files only.
    const ready = siteReady(ctx.config.siteDir);
    if (ctx.config.role === 'api' && !(await ready())) {
      app.log.warn({ site: root }, 'no static site here yet: this API process (ROLE=api) serves DATA_DIR/site but never builds it; share the workers\' DATA_DIR/site with it (a shared volume) or serve their site/current/client/ from a CDN (README, "Static site")');
    }
    await app.register(async (site) => {
      site.addHook('onRequest', async (req) => {
        // Before the first build (or, for an API-only process, until the workers' site is shared with it): 503, not 404.
        if (SITE_PATHS.test(req.url) && !(await ready())) throw siteNotBuilt(ctx.config);
        await dropStaleEncodings(root, req);
      });
      await site.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
        redirect: true,
        decorateReply: false,
        serveDotFiles: false,
        suppressWarning: true,
        // The build writes <file>.br and <file>.gz beside each page (jobs/site/precompress.ts);
        // sent by Accept-Encoding, with Vary: Accept-Encoding on every answer, compressed or not.
        preCompressed: true,
        allowedPath: (pathname: string) => SITE_PATHS.test(pathname),
        setHeaders: (reply, file) => {
          reply.header('content-security-policy', SITE_CSP);
          reply.header('cache-control', cacheControl(file));
        },
      });
    });
  };
}

/**
 * A page replaced in a version made of hard links without its compressed
 * copies being rewritten (the nightly export re-renders the index and the
 * exports page) still has the older page's copies beside it, older than the
 * page. Those must not be sent: the request is then answered with the page
 * itself, uncompressed, until the next build writes fresh copies. Two stats
 * a page request; only for paths that name a page or a text file.
 */
async function dropStaleEncodings(root: string, req: FastifyRequest): Promise<void> {
  if (!req.headers['accept-encoding'] || (req.method !== 'GET' && req.method !== 'HEAD')) return;
  let pathname = req.url.split('?')[0]!;
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    return;
  }
  if (!SITE_PATHS.test(pathname)) return;
  const rel = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
  if (!/\.(html|css|json|xml|svg|txt|js|mjs)$/.test(rel)) return;
  const file = path.join(root, rel);
  if (!file.startsWith(root + path.sep)) return;
  const page = await stat(file).catch(() => null);
  if (!page) return;
  for (const ext of ['.br', '.gz']) {
    const copy = await stat(file + ext).catch(() => null);
    if (copy && copy.mtimeMs < page.mtimeMs) {
      req.headers['accept-encoding'] = 'identity';
      return;
    }
  }
}
