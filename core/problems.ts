/**
 * Every problem type the service answers with (RFC 9457): the `type` of a
 * problem body is `/problems/<code>`, and that path serves a short public
 * page from this table saying what the problem means and what to do. A code
 * missing here cannot be thrown (DomainError and the API's problem helper
 * take only these codes), so no problem ever points at a page that is not
 * there: a new code needs its entry first.
 *
 * Texts are plain sentences; `back-quoted` parts are shown as code.
 */
export const PROBLEM_TYPES = {
  'bad-request': {
    status: 400,
    title: 'Bad request',
    means: 'The request could not be read: it is not well-formed HTTP (a Content-Length that does not match the body, or both Content-Length and Transfer-Encoding), its path holds a dot segment (`.` or `..`), or the connection closed before the whole request arrived.',
    todo: 'Send a complete, well-formed HTTP request.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    means: 'The API key is missing, malformed, unknown or revoked. Every path under `/v1` and `/mcp` needs a key.',
    todo: 'Send a live key as `Authorization: Bearer <key>`. A key belongs to one database: make it with `npm run key -- create NAME` using the DATA_DIR or DATABASE_URL the service runs with (the command names the database it used), or ask the operator for one.',
  },
  'origin-refused': {
    status: 403,
    title: 'Origin not allowed',
    means: 'A browser page from another origin called the MCP endpoint, and that origin is not allowed.',
    todo: 'Call `/mcp` from a server, from the service\'s own origin, or ask the operator to add your origin to `MCP_ALLOWED_ORIGINS`.',
  },
  'insufficient-scope': {
    status: 403,
    title: 'Key lacks the scope',
    means: 'The API key is live, but it was not given the scope this route needs (`read`, `respond`, `label` or `review`); `required_scope` names it and `key_scopes` lists what the key has. Editorial review needs `review`, which no key has unless it was given on purpose.',
    todo: 'Use a key with that scope, or ask the operator for one: `npm run key -- create NAME --scope review` (several scopes: `--scope read,review`).',
  },
  'claim-changed': {
    status: 409,
    title: 'The claim changed',
    means: 'The review was sent for a version of the claim that is no longer its current one: its quote, fixed test or evidence changed when its report was remade. A review holds only for the version of the claim it was made on.',
    todo: 'Read the claim again (its `review.version` and what changed) and send the review of the current version with that `version`.',
  },
  'review-conflict': {
    status: 409,
    title: 'Review conflict',
    means: 'Another review was recorded since you read what you acted on: another reviewer reviewed this claim (its `review.version` moved on), or the report is already signed off.',
    todo: 'Read the claim or the report again, see what the other reviewer did, and act on the current version if you still disagree.',
  },
  'review-incomplete': {
    status: 409,
    title: 'The report cannot be signed off yet',
    means: 'A report is signed off only once every featured claim and every claim that moves its headline by more than the documented amount has been reviewed (`missing` lists those that have not), when the reviewed outcomes still leave enough resolved claims for a score, and when it was made with the current method.',
    todo: 'Review the claims in `missing` (GET /v1/reports/{report_id}/review lists what is needed), or remake the report if its method is out of date, then sign off again.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    means: 'The request is not allowed here.',
    todo: 'Check the path and method against `/openapi.json`.',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    means: 'There is no such route, subject, report, job or claim. A job is visible only to the keys that asked for it.',
    todo: 'Check the path and the id. Subjects are listed by `GET /v1/subjects` and found by `POST /v1/subjects/resolve`; the whole interface is described at `/openapi.json`.',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    means: 'The path exists but does not answer this method; the `Allow` header lists the methods it answers. (The MCP endpoint, which is stateless, answers only POST.)',
    todo: 'Use one of the methods in `Allow`, as `/openapi.json` describes; send MCP messages with `POST /mcp`.',
  },
  'not-acceptable': {
    status: 406,
    title: 'Not acceptable',
    means: 'The service cannot answer in any of the media types the `Accept` header allows.',
    todo: 'Accept the media type the route answers with (JSON for the API; see `/openapi.json`), or leave `Accept` out.',
  },
  'request-timeout': {
    status: 408,
    title: 'Request timeout',
    means: 'The request did not arrive whole in time (its headers, or headers and body), so the connection was closed.',
    todo: 'Send the headers and the whole body without pausing; retry on a new connection.',
  },
  'length-required': {
    status: 411,
    title: 'Length required',
    means: 'A request with a body came without a length.',
    todo: 'Send `Content-Length` (or a chunked body) with the request.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    means: 'The name matches more than one subject; `candidates` lists them.',
    todo: 'Send the request again with the `subject_id` of the subject you mean.',
  },
  'body-too-large': {
    status: 413,
    title: 'Request body too large',
    means: 'The request body is over the size limit (256 KB unless the operator set another).',
    todo: 'Send less text, or split it over several requests.',
  },
  'uri-too-long': {
    status: 414,
    title: 'URI too long',
    means: 'The request\'s path and query are longer than the server accepts.',
    todo: 'Send a shorter path; ids are at most 100 characters.',
  },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported media type',
    means: 'The request body is in a media type the route does not take.',
    todo: 'Send the body as JSON, with `Content-Type: application/json`.',
  },
  'client-error': {
    status: 400,
    title: 'Client error',
    means: 'The request was refused for a reason on the client\'s side that has no more specific problem type; the status and `detail` say which.',
    todo: 'Correct the request as the `detail` says, checking it against `/openapi.json`.',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    means: 'This key has made as many requests this minute as it may.',
    todo: 'Wait `retry_after` seconds (the `Retry-After` header says the same), then retry.',
  },
  'job-limit': {
    status: 429,
    title: 'Daily job limit reached',
    means: 'This key has started as many report and check jobs today (UTC) as it may.',
    todo: 'Wait until 00:00 UTC (`retry_after` seconds) to start more jobs. Stored reports are still served.',
  },
  'claim-replies-full': {
    status: 409,
    title: 'Claim takes no more replies',
    means: 'The claim already holds as many replies as one claim takes.',
    todo: 'Read the replies already on the claim (the `detail` says where); no more can be added to it.',
  },
  'reply-limit': {
    status: 429,
    title: 'Reply limit reached',
    means: 'This key has sent as many replies today (UTC) as it may: to this one claim, or to claims in all.',
    todo: 'Send more after 00:00 UTC; `retry_after` (and the `Retry-After` header) gives the seconds until then.',
  },
  'auth-failures': {
    status: 429,
    title: 'Too many unknown keys',
    means: 'This address sent too many requests this minute with a key that is unknown or revoked, so its requests are refused before any key is looked up.',
    todo: 'Check the key (see `/problems/unauthorized`), then wait `retry_after` seconds before retrying.',
  },
  'headers-too-large': {
    status: 431,
    title: 'Request headers too large',
    means: 'The request headers are larger than the server accepts.',
    todo: 'Send fewer or shorter headers.',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    means: 'Something failed on the service\'s side. The `detail` carries the request id.',
    todo: 'Retry later. If it keeps failing, give the request id to the service\'s operator.',
  },
  'not-built': {
    status: 501,
    title: 'Not built yet',
    means: 'The route is declared in the interface and validates its input, but this version of the service does not do it yet; no result is invented in its place.',
    todo: 'Use another route, or a later version of the service.',
  },
  'method-not-implemented': {
    status: 501,
    title: 'Method not implemented',
    means: 'The request method is not one this service knows.',
    todo: 'Use GET, HEAD or POST, as `/openapi.json` describes for each path.',
  },
  unavailable: {
    status: 503,
    title: 'Service unavailable',
    means: 'Something the request needs is unavailable for a moment: the database, the rate limiter\'s store, or the site\'s page renderer before its first build.',
    todo: 'Retry after `retry_after` seconds (the `Retry-After` header).',
  },
  'spend-limit': {
    status: 503,
    title: 'Daily spending limit reached',
    means: 'Today\'s (UTC) spending ceiling on paid providers is reached, so no new job can start.',
    todo: 'New jobs resume after 00:00 UTC. Stored reports are still served.',
  },
} as const satisfies Record<string, ProblemType>;

export type ProblemType = { status: number; title: string; means: string; todo: string };
export type ProblemCode = keyof typeof PROBLEM_TYPES;

export function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(PROBLEM_TYPES, code);
}

/** The `type` of a problem body: a path on this service whose page explains it. */
export const problemTypeUri = (code: ProblemCode) => `/problems/${code}`;
