import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { RawJson } from '../core/json.ts';
import type { Scope } from '../core/keys.ts';
import { parseOrThrow } from './validation.ts';

/**
 * One declaration per route: path, auth, the zod schemas of its params, query,
 * body and responses, and its handler. The same declaration registers the
 * Fastify route, validates the request (422 in the spec's body) and writes the
 * route into the OpenAPI document, so the three cannot drift apart.
 */

export type ResponseSpec = {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. */
  contentType?: string;
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
  responses: Record<number, ResponseSpec>;
  /** Left out of the OpenAPI document (the document routes themselves). */
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
  if (typeof value === 'string') return value.includes('\u0000') ? value.replace(/\u0000/g, '').toWellFormed() : value.toWellFormed();
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => cleanText(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = cleanText(v, depth + 1);
  return out;
}

export function registerRoute(app: FastifyInstance, def: AnyRoute): void {
  app.route({
    method: def.method,
    url: def.url,
    config: { auth: def.auth, ...(def.auth ? { scope: def.scope ?? 'read' } : {}) },
    handler: async (req, reply) => {
      const input: Validated<unknown, unknown, unknown> = {
        params: def.params ? parseOrThrow(def.params, 'path', cleanText(req.params)) : undefined,
        query: def.query ? parseOrThrow(def.query, 'query', cleanText(req.query ?? {})) : undefined,
        // No field of any body is required by itself, so an absent body is an empty object.
        body: def.body ? parseOrThrow(def.body, 'body', req.body === undefined ? {} : cleanText(req.body)) : undefined,
      };
      const result = await def.handler(req, reply, input);
      if (reply.sent) return reply;
      if (result instanceof RawJson) return reply.type('application/json; charset=utf-8').send(result.body);
      const spec = def.responses[reply.statusCode];
      if (spec?.schema && result !== undefined && !(typeof result === 'string' || Buffer.isBuffer(result))) {
        // Responses are parsed through their schema: nothing unlisted leaks out,
        // and a response that breaks its own schema is a bug caught here.
        return spec.schema.parse(result);
      }
      return result;
    },
  });
}
