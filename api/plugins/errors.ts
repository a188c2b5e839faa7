import type { FastifyError, FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { DomainError } from '../../core/errors.ts';
import { sendProblem } from '../problem.ts';
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

// Connection failures and the like from pg: the database is unreachable.
const DB_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '53300']);

function isDatabaseDown(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e.code && DB_DOWN_CODES.has(e.code)) return true;
  return typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(e.message);
}

export async function errorsPlugin(app: FastifyInstance): Promise<void> {
  // Our own JSON parser, so that a syntax error can say where it is.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim().length === 0) {
      done(new RequestValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: 'the body is empty; send a JSON object' } }]), undefined);
      return;
    }
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const message = (err as Error).message.slice(0, 200);
      done(new RequestValidationError([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: message } }]), undefined);
    }
  });

  app.setNotFoundHandler((req, reply) =>
    sendProblem(reply, { status: 404, code: 'not-found', detail: `No route ${req.method} ${req.url.split('?')[0]}; see /openapi.json for the interface.` }),
  );

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
    }
    if (isDatabaseDown(err)) {
      req.log.warn({ err: { code: (err as { code?: string }).code } }, 'database unavailable');
      return sendProblem(reply, { status: 503, code: 'unavailable', detail: 'The database is unavailable for a moment; retry shortly.', extra: { retry_after: 5 }, headers: { 'retry-after': '5' } });
    }
    const status = typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) {
      // Name, code and message only: no stack trace or SQL goes to the log.
      req.log.error({ error: { name: err.name, code: err.code, message: String(err.message).slice(0, 300) } }, 'unhandled error');
      return sendProblem(reply, { status: 500, code: 'internal', detail: `Something went wrong on our side; the request id is ${req.id}.` });
    }
    return sendProblem(reply, { status, code: 'bad-request', detail: 'The request could not be read.' });
  });
}

