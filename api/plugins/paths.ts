import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../core/errors.ts';

/**
 * What the router cannot say by itself: which methods a path answers (for
 * 405 and its Allow header, RFC 9110 §15.5.6), and that a path with dot
 * segments names nothing.
 */

// Fastify's form (`/v1/subjects/:subject_id/claims`) as a pattern over raw paths.
function patternOf(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // Routes are registered with ignoreTrailingSlash.
  return new RegExp(`^${body}/?$`);
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export class AllowedMethods {
  readonly #entries: { pattern: RegExp; method: string; literal: boolean }[] = [];

  /** A route: its method (GET brings HEAD, as Fastify answers it) and its path, in Fastify's form or as a pattern over paths. */
  add(method: string, url: string | RegExp): void {
    const pattern = typeof url === 'string' ? patternOf(url) : url;
    const literal = typeof url === 'string' && !url.includes(':') && !url.includes('*');
    this.#entries.push({ pattern, method, literal });
    if (method === 'GET') this.#entries.push({ pattern, method: 'HEAD', literal });
  }

  /**
   * The methods some route answers at this path (no query string), in a fixed
   * order; none for a path no route has. A path some route names literally
   * (`/v1/subjects/resolve`) is that route's alone, as OpenAPI matches a
   * concrete path before a templated one (`/v1/subjects/{subject_id}`).
   */
  for(path: string): string[] {
    const matching = this.#entries.filter((e) => e.pattern.test(path));
    const literal = matching.filter((e) => e.literal);
    const found = new Set((literal.length > 0 ? literal : matching).map((e) => e.method));
    return [...found].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
  }
}

/** Percent-decoded, without throwing: broken encoding is the router's to refuse (422). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether a raw path holds a `.` or `..` segment, plainly or percent-encoded, with `/` or `\` as the separator. */
export function hasDotSegment(path: string): boolean {
  return path.split('/').some((raw) => decoded(raw).split(/[\\/]/).some((s) => s === '.' || s === '..'));
}

/**
 * A path with a dot segment (`/v1/../v1/status`, `/%2e%2e/x`) is refused
 * before anything else reads it, key or not: 400 with a problem body. No path
 * of the service has one, and resolving them would make two spellings of one
 * resource (and a static file server's business of what lies above its root).
 */
export async function dotSegmentsPlugin(app: FastifyInstance): Promise<void> {
  // A callback hook, not an async one: it runs on every request, and most paths hold no `.` or `%` at all.
  app.addHook('onRequest', (req, _reply, done) => {
    const q = req.url.indexOf('?');
    const path = q === -1 ? req.url : req.url.slice(0, q);
    if ((path.includes('.') || path.includes('%')) && hasDotSegment(path)) {
      done(new DomainError(400, 'bad-request', 'The path holds a dot segment (\'.\' or \'..\'), which no path of this service has; send the path without it (see /openapi.json).'));
      return;
    }
    done();
  });
}
