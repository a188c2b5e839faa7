import type { FastifyReply } from 'fastify';

/** Titles of the problem types the service uses, by HTTP status. */
const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  431: 'Request headers too large',
  500: 'Internal error',
  501: 'Not built yet',
  503: 'Service unavailable',
};

export type ProblemInit = {
  status: number;
  code: string;
  detail: string;
  instance?: string;
  extra?: Record<string, unknown>;
  headers?: Record<string, string>;
};

export function problemBody(p: ProblemInit): Record<string, unknown> {
  return {
    type: `/problems/${p.code}`,
    title: TITLES[p.status] ?? 'Error',
    status: p.status,
    detail: p.detail,
    ...(p.instance ? { instance: p.instance } : {}),
    ...p.extra,
  };
}

export function sendProblem(reply: FastifyReply, p: ProblemInit): FastifyReply {
  for (const [k, v] of Object.entries(p.headers ?? {})) reply.header(k, v);
  return reply.code(p.status).type('application/problem+json').send(problemBody(p));
}
