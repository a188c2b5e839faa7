import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { RawJson } from '../core/json.ts';
import type { Scope } from '../core/keys.ts';
import { RequestValidationError, clip, parseOrThrow, type ValidationItem } from './validation.ts';

/**
 * One declaration per route: path, auth, the zod schemas of its params, query,
 * body and responses, and its handler. The same declaration registers the
 * Fastify route, validates the request (422 in the spec's body) and writes the
 * route into the OpenAPI document, so the three cannot drift apart.
 */

export type MediaSpec = {
  /** The body's schema; for text (CSV, HTML, Markdown, SSE) a string schema. */
  schema?: z.ZodType;
  /** An example body for the OpenAPI document (test/openapi.test.ts checks it against the schema). Defaults to the schema's own (core/schemas/examples.ts). */
  example?: unknown;
};

export type ResponseSpec = MediaSpec & {
  description: string;
  /** Defaults to application/json. */
  contentType?: string;
  /** The other media types the same status answers with (a `format` query parameter chooses), as the document lists them. */
  alternatives?: Record<string, MediaSpec>;
};

export type Validated<P, Q, B> = { params: P; query: Q; body: B };

export type RouteDef<P = unknown, Q = unknown, B = unknown> = {
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify form: `/v1/subjects/:subject_id`. */
  url: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** False only for the public routes: /health and the OpenAPI files. */
  auth: boolean;
  /** The scope a key needs (core/keys.ts); `read` unless said. Ignored without `auth`. */
  scope?: Scope;
  /** Starts a report or check job: subject to the daily job limit and spending ceiling. */
  startsJobs?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The request body's example in the document; defaults to the body schema's own (core/schemas/examples.ts). */
  bodyExample?: unknown;
  /**
   * False where the handler's own protocol judges the body (the MCP transport
   * answers JSON-RPC errors, as the MCP specification asks): `body` is then
   * only what the document declares, and the handler gets the body as sent.
   */
  validateBody?: boolean;
  responses: Record<number, ResponseSpec>;
  /**
   * Left out of the OpenAPI document (the document routes themselves, the
   * problem pages, and routes declared only to refuse a method with 405).
   * A hidden route takes any query parameter; every documented one refuses a
   * query parameter it does not declare (422 `extra_forbidden`).
   */
  hidden?: boolean;
  handler: (req: FastifyRequest, reply: FastifyReply, input: Validated<P, Q, B>) => Promise<unknown>;
};

// Erases the generic parameters for storage in a list.
export type AnyRoute = RouteDef<any, any, any>;

export function defineRoute<P = undefined, Q = undefined, B = undefined>(def: RouteDef<P, Q, B>): AnyRoute {
  return def as AnyRoute;
}

/**
 * Text as PostgreSQL can hold it: NUL removed, lone UTF-16 surrogates replaced
 * by U+FFFD, in every string of a request (body, query, path) before it is
 * validated. Documented in the OpenAPI description; without it a NUL in an id
 * would reach the database and fail there.
 */
export function cleanText(value: unknown, depth = 0): unknown {
  // isWellFormed first: nearly every string is, and toWellFormed makes a copy.
  if (typeof value === 'string') return value.includes('\u0000') ? value.replace(/\u0000/g, '').toWellFormed() : value.isWellFormed() ? value : value.toWellFormed();
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => cleanText(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = cleanText(v, depth + 1);
  return out;
}

/** The query parameters a route declares; null when its query schema is not a plain object (nothing is refused then). */
function declaredQuery(def: AnyRoute): Set<string> | null {
  if (!def.query) return new Set();
  return def.query instanceof z.ZodObject ? new Set(Object.keys(def.query.shape)) : null;
}

/**
 * A query parameter a documented route does not declare is refused (422
 * `extra_forbidden`, one item per name), as the OpenAPI document says: a
 * misspelt filter (`?claimtype=`) would otherwise be dropped silently and
 * answer with everything.
 */
function unknownQueryItems(def: AnyRoute, declared: Set<string> | null, query: unknown): ValidationItem[] {
  if (def.hidden || !declared || query === null || typeof query !== 'object') return [];
  return Object.entries(query)
    .filter(([name]) => !declared.has(name))
    .map(([name, value]) => ({ loc: ['query', name], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: clip(value) }));
}

export function registerRoute(app: FastifyInstance, def: AnyRoute): void {
  const declared = declaredQuery(def);
  app.route({
    method: def.method,
    url: def.url,
    config: { auth: def.auth, ...(def.auth ? { scope: def.scope ?? 'read' } : {}) },
    handler: async (req, reply) => {
      const extra = unknownQueryItems(def, declared, req.query);
      let input: Validated<unknown, unknown, unknown>;
      try {
        input = {
          params: def.params ? parseOrThrow(def.params, 'path', cleanText(req.params)) : undefined,
          query: def.query ? parseOrThrow(def.query, 'query', cleanText(req.query ?? {})) : undefined,
          // An absent body is read as an empty object: the schema then says what is missing (the document marks such a body required).
          body: def.body && def.validateBody !== false ? parseOrThrow(def.body, 'body', req.body === undefined ? {} : cleanText(req.body)) : req.body,
        };
      } catch (err) {
        // Every problem of the request in one answer: the unknown parameters with the rest.
        if (err instanceof RequestValidationError && extra.length > 0) throw new RequestValidationError([...extra, ...err.items]);
        throw err;
      }
      if (extra.length > 0) throw new RequestValidationError(extra);
      const result = await def.handler(req, reply, input);
      if (reply.sent) return reply;
      if (result instanceof RawJson) return reply.type('application/json; charset=utf-8').send(result.body);
      const spec = def.responses[reply.statusCode];
      // A handler that sent its own answer (a stream, text) returns the reply: that is no body to parse.
      if (spec?.schema && result !== undefined && result !== reply && !(typeof result === 'string' || Buffer.isBuffer(result))) {
        // Responses are parsed through their schema: nothing unlisted leaks out,
        // and a response that breaks its own schema is a bug caught here.
        return spec.schema.parse(result);
      }
      return result;
    },
  });
}
