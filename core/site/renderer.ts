import { EventEmitter } from 'node:events';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PageData } from './page-data.ts';
import type { RenderedPage } from './search-page.ts';
import type { BuildManifest } from './layout.ts';

/**
 * Renders a page on demand with the components of the published site. Every
 * full Astro build of site/ emits, next to the static pages, a server bundle
 * made by @astrojs/node in middleware mode (builds/<id>/server/entry.mjs). Its
 * `handler(req, res, next, locals)` is the Node middleware the adapter
 * documents; its one on-demand route, `/live` (site/src/pages/live.astro),
 * renders `<Page data={Astro.locals.page} />`, the very component every static
 * page renders with data read from the build's snapshot. Same component, same
 * data: the same bytes (a test holds the two equal).
 *
 * Used by GET /v1/reports/{id}/html (a report's page the moment it is stored),
 * by GET /search (the search page, core/site/search-page.ts, which no static
 * build makes) and by incremental builds (the few pages a new report
 * changes). The bundle is loaded once per site version and warmed by one
 * render, so every chunk is in memory before the build folder it came from
 * can be pruned.
 */

type Handler = (req: IncomingMessage, res: unknown, next: () => void, locals: Record<string, unknown>) => Promise<void>;
export type Renderer = {
  siteVersion: string;
  render(page: RenderedPage): Promise<string>;
  /** The page as UTF-8 bytes, as they are to be written (a full build's render threads: no decoding and encoding again). */
  renderBytes(page: RenderedPage): Promise<Buffer>;
};

/** A response object the adapter can write to, collecting the page. */
class PageSink extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  headers: Record<string, unknown> = {};
  readonly req: IncomingMessage;
  private readonly done: (err: Error | null, status: number, body: Buffer) => void;
  private chunks: Buffer[] = [];
  private settled = false;
  constructor(req: IncomingMessage, done: (err: Error | null, status: number, body: Buffer) => void) {
    super();
    this.req = req;
    this.done = done;
  }
  setHeader(name: string, value: unknown) {
    this.headers[name.toLowerCase()] = value;
  }
  writeHead(status: number, headers?: Record<string, unknown>) {
    this.statusCode = status;
    Object.assign(this.headers, headers ?? {});
    this.headersSent = true;
    return this;
  }
  write(chunk: string | Uint8Array, cb?: () => void) {
    // Copied: the adapter may reuse a chunk's memory once write returns.
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    cb?.();
    return true;
  }
  end(chunk?: string | Uint8Array) {
    if (chunk) this.write(chunk);
    this.headersSent = true;
    this.emit('finish');
    this.emit('close');
    this.settle(null);
    return this;
  }
  destroy(err?: Error) {
    this.settle(err ?? new Error('the page renderer stopped mid-page'));
  }
  settle(err: Error | null) {
    if (this.settled) return;
    this.settled = true;
    this.done(err, this.statusCode, this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks));
  }
}

function renderWith(handler: Handler, page: RenderedPage): Promise<Buffer> {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = '/live';
  req.headers = { host: 'localhost', accept: 'text/html' };
  req.push(null);
  return new Promise((resolve, reject) => {
    const sink = new PageSink(req, (err, status, body) => {
      req.socket.destroy();
      if (err) reject(err);
      else if (status !== 200) reject(new Error(`the page renderer answered ${status}: ${body.subarray(0, 300).toString('utf8')}`));
      else resolve(body);
    });
    handler(req, sink, () => sink.destroy(new Error('the page renderer has no /live route')), { page }).catch((err: Error) => sink.destroy(err));
  });
}

const WARM_UP: PageData = { view: 'methodology', path: '/methodology/', common: { method_version: '0.0.0+warmup', review_label: 'machine-generated, unreviewed' } };

const loaded = new Map<string, Promise<Renderer>>();

/** The renderer of a published version (its site_version names it: equal versions render alike). */
export function rendererFor(buildDir: string, manifest: Pick<BuildManifest, 'site_version'>): Promise<Renderer> {
  let r = loaded.get(manifest.site_version);
  if (!r) {
    r = (async () => {
      // The adapter's entry adds a process-wide 'unhandledRejection' listener (to log failed
      // renders); any listener stops Node from crashing on an unhandled rejection anywhere in
      // the service, so it is taken off again. Render errors still reach us: the handler
      // answers 500 and render() rejects.
      const before = new Set(process.listeners('unhandledRejection'));
      const mod = (await import(pathToFileURL(path.join(buildDir, 'server', 'entry.mjs')).href)) as { handler?: Handler };
      for (const l of process.listeners('unhandledRejection')) if (!before.has(l)) process.off('unhandledRejection', l);
      if (typeof mod.handler !== 'function') throw new Error(`${buildDir}/server/entry.mjs exports no middleware handler`);
      const handler = mod.handler;
      await renderWith(handler, WARM_UP);
      return {
        siteVersion: manifest.site_version,
        render: async (page: RenderedPage) => (await renderWith(handler, page)).toString('utf8'),
        renderBytes: (page: RenderedPage) => renderWith(handler, page),
      };
    })();
    loaded.set(manifest.site_version, r);
    r.catch(() => loaded.delete(manifest.site_version));
  }
  return r;
}
