import type { FastifyReply } from 'fastify';
import { PROBLEM_TYPES, problemTypeUri, type ProblemCode } from '../core/problems.ts';

export type ProblemInit = {
  status: number;
  /** The problem type: its title comes from core/problems.ts, and `/problems/<code>` explains it. */
  code: ProblemCode;
  /** Defaults to the type's own title (core/problems.ts); RFC 9457 keeps a type's title the same on every occurrence. */
  title?: string;
  detail: string;
  instance?: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

export function problemBody(p: ProblemInit): Record<string, unknown> {
  return {
    type: problemTypeUri(p.code),
    title: p.title ?? PROBLEM_TYPES[p.code].title,
    status: p.status,
    detail: p.detail,
    ...(p.instance ? { instance: p.instance } : {}),
    ...p.extra,
  };
}

/** The problem code of a client error known only by its status (a plugin's or Fastify's own). */
const CODES: Record<number, ProblemCode> = {
  400: 'bad-request', 403: 'forbidden', 404: 'not-found', 405: 'method-not-allowed', 406: 'not-acceptable',
  411: 'length-required', 414: 'uri-too-long', 415: 'unsupported-media-type',
};
export function codeForStatus(status: number): ProblemCode {
  return CODES[status] ?? 'client-error';
}

/** A path as a problem's detail may quote it: at most 200 characters, then `…`. */
export function quotedPath(path: string): string {
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

export function sendProblem(reply: FastifyReply, p: ProblemInit): FastifyReply {
  for (const [k, v] of Object.entries(p.headers ?? {})) reply.header(k, v);
  return reply.code(p.status).type('application/problem+json').send(problemBody(p));
}
