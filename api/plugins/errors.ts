import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import pg from 'pg';
import sjson from 'secure-json-parse';
import { DomainError } from '../../core/errors.ts';
import { MAX_JSON_DEPTH, excessiveNestingAt } from '../json-depth.ts';
import { codeForStatus, problemBody, quotedPath, sendProblem, type ProblemInit } from '../problem.ts';
import { AllowedMethods } from './paths.ts';
import { securityHeaders } from './security-headers.ts';
import { RequestValidationError, type ValidationItem } from '../validation.ts';

/**
 * The one error model (STYLE.md, habit 4). Validation failures of any kind
 * (bodies, malformed JSON, wrong content types, parameters) answer 422 with the
 * spec's body; domain errors and everything else answer RFC 9457 problem
 * details. Nothing internal (stack, SQL, driver message) reaches the client:
 * unexpected errors are logged with the request id and answered with a bare 500.
 */

const JSON_TYPES = ['application/json'];

function unprocessable(items: ValidationItem[]) {
  return { detail: items };
}

// SQLSTATEs that mean the server is going or gone, not that a query is wrong:
// class 08 (connection exception), 57P01-57P03 (shutdown, crash, cannot
// connect now), 53300 (too many connections).
const DB_DOWN_SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '53300']);
// Socket failures of pg's own connection to the server, as Node reports them.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// pg and pg-pool's own words for a connection lost or never made.
const PG_CONNECTION_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether an error says the database is unreachable, judged by where it came
 * from: a server error of pg (a DatabaseError, with its SQLSTATE), pg-pool's
 * and pg's connection errors, or a failed socket operation (`syscall` set:
 * connect, read, write, getaddrinfo) with a network code. The client's own
 * connection is not such a socket: Node reports a client that hangs up on the
 * request stream as `aborted` (ECONNRESET without a syscall), and the handler
 * tells those apart first, by the request itself. Exported for its test.
 */
export function isDatabaseError(err: unknown): boolean {
  if (err === null || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; syscall?: unknown; severity?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (err instanceof pg.DatabaseError || (typeof e.severity === 'string' && code && /^[0-9A-Z]{5}$/.test(code))) {
    return code !== undefined && DB_DOWN_SQLSTATES.has(code);
  }
  if (code && SOCKET_CODES.has(code) && typeof e.syscall === 'string') return true;
  // Connecting to a name with several addresses fails with one error per address.
  if (err instanceof AggregateError) return err.errors.some(isDatabaseError);
  return typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message);
}

/**
 * Whether the request's own connection failed: the client hung up (or reset
 * the connection) before the request was read whole. Node destroys the request
 * stream with the error it passes on, so the error is the stream's own.
 */
function clientWentAway(err: unknown, req: FastifyRequest): boolean {
  const raw = req.raw;
  return raw.errored === err || ((raw.aborted || raw.destroyed) && !raw.complete);
}

/**
 * `allowed` says which methods each path answers; it may be filled after this
 * plugin is registered (the routes come last), as long as it is before the
 * first request.
 */
export async function errorsPlugin(app: FastifyInstance, allowed: AllowedMethods = new AllowedMethods()): Promise<void> {
  // Our own JSON parser, so that a syntax error can say where it is.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim().length === 0) {
      done(new RequestValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: 'the body is empty; send a JSON object' } }]), undefined);
      return;
    }
    // Refused before parsing: nothing downstream walks a value deeper than this.
    const at = excessiveNestingAt(text);
    if (at >= 0) {
      done(new RequestValidationError([{
        loc: ['body'], msg: `JSON nested deeper than ${MAX_JSON_DEPTH} levels; send a flatter body`, type: 'json_invalid',
        ctx: { error: `level ${MAX_JSON_DEPTH + 1} opens at position ${at}`, max_depth: MAX_JSON_DEPTH },
      }]), undefined);
      return;
    }
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const message = (err as Error).message.slice(0, 200);
      done(new RequestValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: message } }]), undefined);
    }
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    // A path some route has, asked with another method: 405 naming the methods it answers.
    // (Asked with one of them, the route itself found nothing there: the site's
    // file server for a page that is not built, say. That is a 404.)
    const allow = allowed.for(path);
    if (allow.length > 0 && !allow.includes(req.method)) {
      return sendProblem(reply, {
        status: 405, code: 'method-not-allowed', headers: { allow: allow.join(', ') },
        detail: `${req.method} is not answered at ${quotedPath(path)}; it answers ${allow.join(', ')} (see /openapi.json).`,
      });
    }
    return sendProblem(reply, { status: 404, code: 'not-found', detail: `No route ${req.method} ${quotedPath(path)}; see /openapi.json for the interface.` });
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof RequestValidationError) {
      return reply.code(422).type('application/json').send(unprocessable(err.items));
    }
    if (err instanceof DomainError) {
      return sendProblem(reply, { status: err.status, code: err.code, detail: err.message, extra: err.extra, headers: err.headers });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendProblem(reply, { status: 413, code: 'body-too-large', detail: 'The request body is over the size limit; send less text, or split it.' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(422).type('application/json').send(
          unprocessable([{ loc: ['header', 'content-type'], msg: 'Content-Type should be application/json', type: 'content_type', input: String(req.headers['content-type'] ?? '').slice(0, 100) }]),
        );
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(422).type('application/json').send(
          unprocessable([{ loc: ['header', 'content-length'], msg: 'Content-Length does not match the body', type: 'value_error' }]),
        );
      case 'FST_STATIC_FORBIDDEN_PATH':
        // The site's file server will not look up a path it cannot match exactly
        // on disk (a name too long for the file system, another spelling): no
        // page is there, and the path is no route's.
        return sendProblem(reply, { status: 404, code: 'not-found', detail: `No route ${req.method} ${quotedPath(req.url.split('?')[0]!)}; see /openapi.json for the interface.` });
    }
    if (clientWentAway(err, req)) {
      // Nobody is left to answer; not a fault of ours, and not worth more than debug.
      req.log.debug({ err: { code: (err as { code?: string }).code } }, 'client closed the request before it was read');
      return sendProblem(reply, { status: 400, code: 'bad-request', detail: 'The connection closed before the request was read whole.' });
    }
    if (isDatabaseError(err)) {
      req.log.warn({ err: { code: (err as { code?: string }).code } }, 'database unavailable');
      return sendProblem(reply, { status: 503, code: 'unavailable', detail: 'The database is unavailable for a moment; retry shortly.', extra: { retry_after: 5 }, headers: { 'retry-after': '5' } });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) {
      // Name, code and message only: no stack trace or SQL goes to the log.
      req.log.error({ error: { name: err.name, code: err.code, message: String(err.message).slice(0, 300) } }, 'unhandled error');
      return sendProblem(reply, { status: 500, code: 'internal', detail: `Something went wrong on our side; the request id is ${req.id}.` });
    }
    return sendProblem(reply, { status, code: codeForStatus(status), detail: 'The request could not be read.' });
  });
}

// The security headers every response carries, for the answers written to the socket by hand.
const RAW_HEADERS = securityHeaders().set.map(([name, value]) => `${name}: ${value}\r\n`).join('');

// A request line: method token, target, version (RFC 9112 §3).
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) \S+ HTTP\/\d\.\d\r?\n/;

/**
 * Whether the parser stopped at the method of what is plainly a request line.
 * It says "invalid method" too when a Content-Length shorter than its body
 * leaves the rest of the body to be read as the next request: that is a
 * framing error (400), not a method (501).
 */
function unknownMethod(err: Error & { rawPacket?: unknown; bytesParsed?: unknown }): boolean {
  if (!Buffer.isBuffer(err.rawPacket) || typeof err.bytesParsed !== 'number') return false;
  const line = REQUEST_LINE.exec(err.rawPacket.subarray(0, 16_384).toString('latin1'));
  return line !== null && err.bytesParsed <= line[1]!.length;
}

/**
 * The answer to each error of Node's HTTP parser. A method it does not know
 * (`FOO /v1/status`) is 501, as RFC 9110 §15.6.2 asks of a method the server
 * does not recognise (405 is for a known method a path does not answer).
 * Content-Length and Transfer-Encoding together, a body shorter than its
 * Content-Length with more bytes after it, and any other bytes that are not
 * HTTP are 400.
 */
function clientProblem(err: Error & { code?: string }): ProblemInit {
  if (err.code === 'HPE_INVALID_METHOD' && unknownMethod(err)) {
    return { status: 501, code: 'method-not-implemented', detail: 'The request method is not one this service knows; it answers GET, HEAD and POST (see /openapi.json).' };
  }
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request-timeout', detail: 'The request did not arrive whole in time; send the headers and the whole body without pausing.' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'headers-too-large', detail: 'The request headers (or the path) are too large; send fewer or shorter headers, or a shorter path.' };
    default:
      return { status: 400, code: 'bad-request', detail: 'The request is not well-formed HTTP (for instance a Content-Length that does not match the body, or both Content-Length and Transfer-Encoding); send one well-formed request.' };
  }
}

/**
 * Errors Node's HTTP server meets before there is a request to hand to a route:
 * a request not received whole within REQUEST_TIMEOUT_MS or its headers within
 * HEADERS_TIMEOUT_MS (408), headers too large (431), an unknown method (501),
 * bytes that are not HTTP (400). Answered, when the connection still can be, with a problem body written
 * to the socket (there is no reply object), then the connection is closed.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A client that reset the connection is gone: nothing to answer, nothing to log.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ err }, 'client error');
  const problem = clientProblem(err);
  const status = problem.status;
  // Node's own check: an answer already under way (a 401 sent before the body
  // ended, say) must not be followed by a second one on the same connection.
  const answered = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answered) {
    const body = JSON.stringify(problemBody(problem));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${RAW_HEADERS}Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
