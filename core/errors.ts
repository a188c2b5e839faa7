/**
 * The few errors the domain throws. The API maps each to one HTTP status and an
 * RFC 9457 problem body; the MCP adapter maps the same errors to tool errors.
 * Messages are written for the caller: they say what to do next, and never
 * carry SQL, stack traces or keys.
 */
import type { ProblemCode } from './problems.ts';

export class DomainError extends Error {
  readonly status: number;
  /** The problem type (core/problems.ts): the body's `type` is `/problems/<code>`, a page that explains it. */
  readonly code: ProblemCode;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, code: ProblemCode, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(404, 'not-found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(409, 'conflict', message, extra);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message: string) {
    super(401, 'unauthorized', message, {}, { 'www-authenticate': 'Bearer realm="reliability"' });
  }
}

/** 429: the per-minute rate, the day's job or reply quota, or the address's unknown-key attempts are used up. */
export class LimitError extends DomainError {
  constructor(code: 'rate-limited' | 'job-limit' | 'reply-limit' | 'auth-failures', message: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(429, code, message, { retry_after: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds), ...headers });
  }
}

/** 503: the day's spending ceiling is reached, or a dependency is down. */
export class UnavailableError extends DomainError {
  constructor(code: 'spend-limit' | 'unavailable', message: string, retryAfterSeconds?: number) {
    super(503, code, message, retryAfterSeconds === undefined ? {} : { retry_after: retryAfterSeconds },
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
  }
}

/** 501: the route is declared and validated, its logic not built yet. */
export class NotBuiltError extends DomainError {
  constructor(what: string) {
    super(501, 'not-built', `${what}: declared in the interface and validated, but not built yet in this version of the service; no result is invented in its place.`);
  }
}

/** Seconds until the next UTC midnight: when daily limits reset. */
export function secondsUntilUtcMidnight(now = new Date()): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}
