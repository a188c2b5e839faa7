import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { z } from 'zod';
import type { Config } from '../core/config.ts';
import { ProblemSchema, ValidationErrorSchema } from '../core/schemas/common.ts';
import { MAX_PAGE_SIZE, RESPONSES_INLINE } from '../core/schemas/common.ts';
import { MAX_JSON_DEPTH } from './json-depth.ts';
import type { AnyRoute } from './route.ts';

/**
 * The OpenAPI 3.1 description, made from the very route declarations (and so
 * the very zod schemas) that the routes validate with. Errors every route can
 * give are added here from what the route declares: a key (401, 429), a body
 * (413, 422), parameters (422), starting jobs (429, 503).
 */

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema } },
});

const rateHeaders = {
  'RateLimit-Policy': { description: 'The per-key quota: `"per-key";q=<requests>;w=60`.', schema: { type: 'string' as const } },
  RateLimit: { description: 'What is left of it: `"per-key";r=<remaining>;t=<seconds to reset>`.', schema: { type: 'string' as const } },
};

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function responsesOf(route: AnyRoute, config: Config): ZodOpenApiResponsesObject {
  const out: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const contentType = spec.contentType ?? (Number(status) >= 400 ? 'application/problem+json' : 'application/json');
    const schema: z.ZodType | undefined = spec.schema ?? (Number(status) >= 400 ? ProblemSchema : undefined);
    out[status] = {
      description: spec.description,
      ...(schema ? { content: { [contentType]: { schema } } } : spec.contentType ? { content: { [contentType]: {} } } : {}),
      ...(route.auth && Number(status) < 300 ? { headers: rateHeaders } : {}),
    };
  }
  if (route.auth) {
    out['401'] = problem('The API key is missing, unknown or revoked. Send it as `Authorization: Bearer <key>`.');
    // A route's own reasons for a 403 (the MCP endpoint's origins) come after the one every keyed route shares.
    const own403 = route.responses[403]?.description;
    out['403'] = problem(`The key is live but lacks the \`${route.scope ?? 'read'}\` scope this route needs (\`/problems/insufficient-scope\`; \`required_scope\` and \`key_scopes\` say which).${own403 ? ` ${own403}` : ''}`);
    // A route's own reasons for a 429 (a quota of its own) come after the ones every keyed route shares.
    const own = route.responses[429]?.description;
    out['429'] = {
      ...problem(
        (route.startsJobs
          ? `Over ${config.rateLimitPerMinute} requests a minute for this key, or over ${config.dailyJobLimit} report and check jobs today. Wait \`Retry-After\` seconds. Stored reports are not affected by the job limit.`
          : `Over ${config.rateLimitPerMinute} requests a minute for this key. Wait \`Retry-After\` seconds.`) +
          ` Also, before any key is looked up, to an address that sent over ${config.authFailuresPerMinute} requests with an unknown or revoked key this minute (\`/problems/auth-failures\`).` +
          (own ? ` ${own}` : ''),
      ),
      headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' as const } }, ...rateHeaders },
    };
  }
  if (route.body) {
    out['408'] = problem(`The request did not arrive whole within ${config.requestTimeoutMs} ms (its headers within ${config.headersTimeoutMs} ms); the connection is closed.`);
    out['413'] = problem(`The body is over ${config.bodyLimitBytes} bytes. Send less text, or split it.`);
  }
  if (route.body || route.query || route.params) {
    out['422'] = {
      description: `The body or parameters failed validation (also malformed JSON, JSON nested deeper than ${MAX_JSON_DEPTH} levels, and a wrong Content-Type).`,
      content: { 'application/json': { schema: ValidationErrorSchema } },
    };
  }
  out['503'] = problem(
    route.startsJobs
      ? 'The day\'s spending ceiling is reached: new jobs resume after 00:00 UTC. Also answered while the database is unreachable.'
      : 'The database is unreachable for a moment; retry shortly.',
  );
  return out as ZodOpenApiResponsesObject;
}

export function buildOpenApi(routes: AnyRoute[], config: Config): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const path = toOpenApiPath(route.url);
    const op: ZodOpenApiOperationObject = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      // OpenAPI 3.1 lets a non-OAuth scheme list the roles an operation needs: here, the key's scope.
      security: route.auth ? [{ bearerAuth: [route.scope ?? 'read'] }] : [],
      requestParams: {
        ...(route.params ? { path: route.params as never } : {}),
        ...(route.query ? { query: route.query as never } : {}),
      },
      ...(route.body ? { requestBody: { required: false, content: { 'application/json': { schema: route.body } } } } : {}),
      responses: responsesOf(route, config),
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'delete';
    paths[path] = { ...(paths[path] ?? {}), [method]: op };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Reliability Scoring Service',
      version: '0.1',
      description: [
        'Reliability scores for public figures, organisations and outlets, with every claim, fixed test, piece of evidence and verdict behind the number.',
        '',
        'Authentication: every path under /v1 and /mcp needs `Authorization: Bearer <key>`. Public: /health, /openapi.json, /developers/openapi.json and the problem type pages under /problems.',
        `Limits: ${config.rateLimitPerMinute} requests a minute per key; ${config.dailyJobLimit} report and check jobs a day per key (UTC days); request bodies up to ${config.bodyLimitBytes} bytes; a daily spending ceiling of ${config.dailySpendLimitUsd} USD past which new jobs get 503.`,
        `Requests: a JSON body may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep (the body itself is level 1); a deeper one gets 422 \`json_invalid\` with \`ctx.max_depth\` before it is parsed. A request must arrive whole within ${config.requestTimeoutMs} ms and its headers within ${config.headersTimeoutMs} ms; past either it gets a 408 problem and the connection is closed.`,
        `Paging: lists take \`page\` (from 1) and \`page_size\` (1 to ${MAX_PAGE_SIZE}, default 50) and answer with a \`paging\` object {page, page_size, total, total_pages}.`,
        'Text: NUL characters are removed, and lone UTF-16 surrogates replaced by U+FFFD, in every string of a request before it is validated.',
        'Errors: 422 carries the validation body {detail: [{loc, msg, type, input?, ctx?}]}; `input` is the value as sent when short, else cut at 200 characters (an object or array as its JSON text, cut, ending in `…`). Every other error is an RFC 9457 problem (application/problem+json) whose `type` is a path on this service, `/problems/<code>`: a public HTML page saying what the problem means and what to do (`/problems` lists them all).',
        `Keys: an address (an IPv6 one by its /64) may send ${config.authFailuresPerMinute} requests a minute with a well-formed key that is unknown or revoked; past that it gets 429 \`auth-failures\` with Retry-After before any key is looked up. A key just made works at once, a revoked one stops at once.`,
        'Methods and paths: a path that exists asked with a method it does not answer gets 405 `method-not-allowed` with an `Allow` header; a method HTTP does not know, 501 `method-not-implemented`; a path with a dot segment (`.` or `..`, plain or percent-encoded), 400 `bad-request`; a path id over its limit, the 422 naming the limit; bytes that are not well-formed HTTP (a Content-Length shorter than the body, Content-Length with Transfer-Encoding), 400 `bad-request` and the connection is closed.',
        `Replies: a Claim carries its ${RESPONSES_INLINE} newest replies, newest first, with \`responses_total\` and \`responses_url\` (GET /v1/claims/{claim_id}/responses, paged). A claim takes at most ${config.responseLimits.perClaim} replies (409 \`claim-replies-full\`); a key may send ${config.responseLimits.perKeyPerClaimPerDay} to one claim and ${config.responseLimits.perKeyPerDay} in all per UTC day (429 \`reply-limit\`).`,
        'Review: every score and verdict is `machine-generated, unreviewed` until a person reviews it; show that label with it. A reviewed claim carries `review_status` `reviewed`, its reviewed `outcome` and `rationale`, the machine\'s verdict beside them in `machine_verdict`, and `review` (who, when, and the `version` to send back). A report is `reviewed` once a reviewer has signed it off; until then it keeps the label, with `review.claims_reviewed` of `review.claims_total`. See the `reviews` tag.',
        'Scopes: a key carries scopes, and each operation names the one it needs in its `security` requirement (`bearerAuth: [<scope>]`): `read` (reads, resolve, reports, checks, MCP), `respond` (replies), `label` (labelling), `review` (editorial review). A key without the scope gets 403 `insufficient-scope`. Keys made before scopes existed, and keys made without `--scope`, have `read`, `respond` and `label`: what every key could do before.',
      ].join('\n'),
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'service' }, { name: 'subjects' }, { name: 'reports' }, { name: 'check' },
      { name: 'responses' }, { name: 'labels' }, { name: 'reviews' }, { name: 'publishing' }, { name: 'mcp' },
    ],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key made with `npm run key -- create NAME [--scope read,respond,label,review]`. Each operation lists the scope it needs.' } },
    },
    paths,
  }) as unknown as Record<string, unknown>;
}
