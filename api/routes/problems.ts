import { z } from 'zod';
import { NotFoundError } from '../../core/errors.ts';
import { PROBLEM_TYPES, isProblemCode, problemTypeUri, type ProblemCode } from '../../core/problems.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';

/**
 * The pages behind problem `type` URIs: `/problems/<code>` for each problem
 * type the service answers with (core/problems.ts), and `/problems`, the list.
 * Public (a caller without a key gets 401 problems too), short, plain HTML
 * with no script or style. Left out of the OpenAPI operations like the
 * OpenAPI files themselves; the document's description and the Problem
 * schema point here.
 */

const CodePathSchema = z.object({ code: z.string().max(100).describe('A problem type, e.g. `not-found`.') });

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The catalogue's `back-quoted` parts as code. */
const prose = (s: string) => escape(s).replace(/`([^`]+)`/g, '<code>$1</code>');

function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(title)}: Reliability Scoring Service</title></head>`,
    `<body><main>${body}`,
    '<p><a href="/problems">Every problem type</a> · <a href="/openapi.json">The interface (OpenAPI)</a></p>',
    '</main></body></html>',
    '',
  ].join('\n');
}

export function problemPage(code: ProblemCode): string {
  const p = PROBLEM_TYPES[code];
  return page(p.title, [
    `<h1>${escape(p.title)}</h1>`,
    `<p>Problem type <code>${problemTypeUri(code)}</code>, answered with HTTP status ${p.status} as an RFC 9457 problem (<code>application/problem+json</code>); its <code>detail</code> says what happened to your request.</p>`,
    '<h2>What it means</h2>',
    `<p>${prose(p.means)}</p>`,
    '<h2>What to do</h2>',
    `<p>${prose(p.todo)}</p>`,
  ].join('\n'));
}

export function problemIndex(): string {
  const rows = (Object.keys(PROBLEM_TYPES) as ProblemCode[]).map((code) => {
    const p = PROBLEM_TYPES[code];
    return `<li><a href="${problemTypeUri(code)}">${escape(p.title)}</a> (${p.status}, <code>${problemTypeUri(code)}</code>)</li>`;
  });
  return page('Problem types', [
    '<h1>Problem types</h1>',
    '<p>Every error but a validation failure (422, whose body is <code>{"detail": [...]}</code>) is answered as an RFC 9457 problem whose <code>type</code> is one of these pages.</p>',
    `<ul>\n${rows.join('\n')}\n</ul>`,
  ].join('\n'));
}

export function problemRoutes(_ctx: AppContext) {
  const html = 'text/html; charset=utf-8';
  return [
    defineRoute({
      method: 'GET',
      url: '/problems',
      operationId: 'listProblemTypes',
      summary: 'Every problem type, with a link to its page',
      tags: ['service'],
      auth: false,
      hidden: true,
      responses: { 200: { description: 'The list (`text/html`).', contentType: 'text/html' } },
      handler: async (_req, reply) => {
        reply.type(html).header('cache-control', 'public, max-age=3600');
        return problemIndex();
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/problems/:code',
      operationId: 'getProblemType',
      summary: 'What a problem type means and what to do',
      tags: ['service'],
      auth: false,
      hidden: true,
      params: CodePathSchema,
      responses: { 200: { description: 'The page (`text/html`).', contentType: 'text/html' }, 404: { description: 'No such problem type.' } },
      handler: async (_req, reply, { params }) => {
        if (!isProblemCode(params.code)) throw new NotFoundError(`No problem type "${params.code}"; every problem type is listed at /problems.`);
        reply.type(html).header('cache-control', 'public, max-age=3600');
        return problemPage(params.code);
      },
    }),
  ];
}
