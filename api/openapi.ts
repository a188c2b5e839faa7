import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import type { z } from 'zod';
import type { Config } from '../core/config.ts';
import { MAX_PAGE_SIZE, ProblemSchema, RESPONSES_INLINE, ValidationErrorSchema } from '../core/schemas/common.ts';
import { exampleOf } from '../core/schemas/examples.ts';
import type { ProblemCode } from '../core/problems.ts';
import { codeForStatus, problemBody } from './problem.ts';
import { MAX_JSON_DEPTH } from './json-depth.ts';
import type { AnyRoute } from './route.ts';

/**
 * The OpenAPI 3.1 description, made from the very route declarations (and so
 * the very zod schemas) that the routes validate with. Errors every route can
 * give are added here from what the route declares: a key (401, 429), a body
 * (413, 422), parameters (422), starting jobs (429, 503).
 */

type Content = Record<string, { schema?: unknown; example?: unknown }>;
type Resp = { description: string; content?: Content; headers?: Record<string, unknown> };

/** A problem body as the service writes it (api/problem.ts), for the document's examples. */
function problemExample(status: number, code: ProblemCode, detail: string, extra: Record<string, unknown> = {}) {
  return problemBody({ status, code, detail, extra });
}

const problem = (description: string, example: Record<string, unknown>): Resp => ({
  description,
  content: { 'application/problem+json': { schema: ProblemSchema, example } },
});

const rateHeaders = {
  'RateLimit-Policy': { description: 'The per-key quota: `"per-key";q=<requests>;w=60`.', schema: { type: 'string' as const }, example: '"per-key";q=60;w=60' },
  RateLimit: { description: 'What is left of it: `"per-key";r=<remaining>;t=<seconds to reset>`.', schema: { type: 'string' as const }, example: '"per-key";r=59;t=60' },
};

const VALIDATION_EXAMPLE = {
  detail: [
    { loc: ['body', 'name'], msg: 'String should have at most 300 characters', type: 'string_too_long', input: 'A name far too long…', ctx: { max_length: 300 } },
    { loc: ['query', 'pagesize'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden', input: '20' },
  ],
};

/** The problem type of a route's own error status, for its example (a route may give its own example instead). */
const OWN_CODES: Record<number, ProblemCode> = { 403: 'forbidden', 404: 'not-found', 405: 'method-not-allowed', 409: 'conflict', 429: 'rate-limited' };

function toOpenApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The media type object of one body: its schema and an example (the route's own, else the schema's). */
function media(schema: z.ZodType | undefined, example: unknown) {
  const ex = example ?? (schema ? exampleOf(schema) : undefined);
  return { ...(schema ? { schema } : {}), ...(ex !== undefined ? { example: ex } : {}) };
}

/** Adds an answer every route of a kind can give; where the route declares the status itself, its content types and words come first. */
function addShared(out: Record<string, Resp>, status: number, shared: Resp): void {
  const own = out[status];
  out[status] = own
    ? { ...shared, ...own, description: `${own.description} Or: ${shared.description}`, content: { ...shared.content, ...own.content } }
    : shared;
}

function responsesOf(route: AnyRoute, config: Config): ZodOpenApiResponsesObject {
  const out: Record<string, Resp> = {};
  for (const [status, spec] of Object.entries(route.responses)) {
    const code = Number(status);
    const contentType = spec.contentType ?? (code >= 400 ? 'application/problem+json' : 'application/json');
    const schema: z.ZodType | undefined = spec.schema ?? (code >= 400 && contentType === 'application/problem+json' ? ProblemSchema : undefined);
    const example = spec.example ?? (schema === ProblemSchema ? problemExample(code, OWN_CODES[code] ?? codeForStatus(code), spec.description) : undefined);
    const content: Content = {};
    if (schema || spec.contentType) content[contentType] = media(schema, example);
    for (const [type, alt] of Object.entries(spec.alternatives ?? {})) content[type] = media(alt.schema, alt.example);
    out[status] = {
      description: spec.description,
      ...(Object.keys(content).length ? { content } : {}),
      ...(route.auth && code < 300 ? { headers: rateHeaders } : {}),
    };
  }
  addShared(out, 400, problem(
    'The request is not well-formed HTTP (a Content-Length that does not match the body, Content-Length with Transfer-Encoding), its path holds a dot segment (`.` or `..`, plain or percent-encoded, also inside a path parameter), or the connection closed before the request was read whole (`/problems/bad-request`).',
    problemExample(400, 'bad-request', 'The path holds a dot segment (\'.\' or \'..\'), which no path of this service has; send the path without it (see /openapi.json).'),
  ));
  if (route.auth) {
    addShared(out, 401, {
      ...problem(
        'The API key is missing, unknown or revoked. Send it as `Authorization: Bearer <key>`.',
        problemExample(401, 'unauthorized', 'Send your API key as Authorization: Bearer <key>.'),
      ),
      headers: { 'WWW-Authenticate': { description: 'The scheme to use (RFC 9110).', schema: { type: 'string' as const }, example: 'Bearer realm="reliability"' } },
    });
    // A route's own reasons for a 403 (the MCP endpoint's origins) come after the one every keyed route shares.
    const own403 = route.responses[403]?.description;
    const scope = route.scope ?? 'read';
    out['403'] = problem(
      `The key is live but lacks the \`${scope}\` scope this route needs (\`/problems/insufficient-scope\`; \`required_scope\` and \`key_scopes\` say which).${own403 ? ` ${own403}` : ''}`,
      problemExample(403, 'insufficient-scope', `This key lacks the ${scope} scope; ask for a key with it.`, { required_scope: scope, key_scopes: ['read'] }),
    );
    // A route's own reasons for a 429 (a quota of its own) come after the ones every keyed route shares.
    const own = route.responses[429]?.description;
    out['429'] = {
      ...problem(
        (route.startsJobs
          ? `Over ${config.rateLimitPerMinute} requests a minute for this key, or over ${config.dailyJobLimit} report and check jobs today. Wait \`Retry-After\` seconds. Stored reports are not affected by the job limit.`
          : `Over ${config.rateLimitPerMinute} requests a minute for this key. Wait \`Retry-After\` seconds.`) +
          ` Also, before any key is looked up, to an address that sent over ${config.authFailuresPerMinute} requests with an unknown or revoked key this minute (\`/problems/auth-failures\`).` +
          (own ? ` ${own}` : ''),
        problemExample(429, 'rate-limited', `Over ${config.rateLimitPerMinute} requests a minute for this key; wait 12 s.`, { retry_after: 12 }),
      ),
      headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' as const }, example: 12 }, ...rateHeaders },
    };
  }
  if (route.body) {
    addShared(out, 408, problem(
      `The request did not arrive whole within ${config.requestTimeoutMs} ms (its headers within ${config.headersTimeoutMs} ms); the connection is closed.`,
      problemExample(408, 'request-timeout', 'The request did not arrive whole in time; send the headers and the whole body without pausing.'),
    ));
    addShared(out, 413, problem(
      `The body is over ${config.bodyLimitBytes} bytes. Send less text, or split it.`,
      problemExample(413, 'body-too-large', 'The request body is over the size limit; send less text, or split it.'),
    ));
  }
  // Every documented route validates its query string at least (an undeclared parameter is refused).
  addShared(out, 422, {
    description: `The body or parameters failed validation: a value of the wrong type or over its limit, a required field missing, a query parameter the operation does not declare (\`extra_forbidden\`), malformed JSON, JSON nested deeper than ${MAX_JSON_DEPTH} levels, or a Content-Type other than application/json on a body.`,
    content: { 'application/json': { schema: ValidationErrorSchema, example: VALIDATION_EXAMPLE } },
  });
  addShared(out, 503, {
    ...problem(
      route.startsJobs
        ? 'The day\'s spending ceiling is reached: new jobs resume after 00:00 UTC. Also answered while the database is unreachable.'
        : 'The database is unreachable for a moment; retry shortly.',
      route.startsJobs
        ? problemExample(503, 'spend-limit', 'The daily spending ceiling is reached; new jobs resume after 00:00 UTC.', { retry_after: 3600 })
        : problemExample(503, 'unavailable', 'The database is unavailable for a moment; retry shortly.', { retry_after: 5 }),
    ),
    headers: { 'Retry-After': { description: 'Seconds to wait, where the service knows.', schema: { type: 'integer' as const }, example: 5 } },
  });
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
      // Required wherever an absent body (read as {}) fails its schema: every body the service takes.
      ...(route.body ? { requestBody: { required: !route.body.safeParse({}).success, content: { 'application/json': media(route.body, route.bodyExample) } } } : {}),
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
        'Parameters and bodies: a query parameter an operation does not declare is refused with 422 `extra_forbidden` (loc `["query", <name>]`), so a misspelt filter never answers with everything; a body field the schema does not list is ignored. Every request body is required (an absent body fails as `{}` would). String lengths (`maxLength`, `minLength`) count UTF-16 code units, as JavaScript does: a character outside the Basic Multilingual Plane (an emoji) counts as 2. Rules between fields are in the schemas where JSON Schema can say them (`anyOf`), and in the field\'s description where it cannot (`claim_type` and `type` on the claims list must agree when both are sent).',
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
      { name: 'service', description: 'Liveness (public) and the service\'s state: method version, queue depth, today\'s spend against the daily ceiling.' },
      { name: 'subjects', description: 'People, organisations and outlets: resolve a name or a text into candidate subjects, list the subjects with stored reports, read one.' },
      { name: 'reports', description: 'A subject\'s reliability report: the stored one at once, or a job to poll; the claims behind it; its HTML page.' },
      { name: 'check', description: 'Check claims, or the claims in a text, as a job: per-claim outcomes with their evidence, no score.' },
      { name: 'responses', description: 'Replies and corrections a subject sends to a claim, stored and shown on the claim.' },
      { name: 'labels', description: 'Reviewers\' own verdicts on claims for a human-labelled gold set, with a blind queue that hides the machine verdict until the caller has labelled the claim.' },
      { name: 'reviews', description: 'Editorial review (the `review` scope): confirm or correct claims, sign reports off, decide on replies; every act is kept in the review record.' },
      { name: 'publishing', description: 'What the service publishes: the nightly-style export (JSON Lines or CSV), the methodology with its latest measurement, and the demo sets compared with outcomes published by others.' },
      { name: 'mcp', description: 'The Model Context Protocol endpoint: three tools (lookup_reliability, check_claims, get_evidence) over the REST routes, with the same key and limits.' },
    ],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key made with `npm run key -- create NAME [--scope read,respond,label,review]`. Each operation lists the scope it needs.' } },
    },
    paths,
  }, {
    // zod writes `format: starts_with` beside the `^prefix` pattern of startsWith(); no JSON Schema
    // format has that name, and the pattern says it all.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'starts_with') delete jsonSchema.format;
    },
  }) as unknown as Record<string, unknown>;
}
