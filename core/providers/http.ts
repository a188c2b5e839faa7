import type { ZodType } from 'zod';
import { UnavailableError } from '../errors.ts';

/**
 * JSON over HTTP for the hosted providers (search, fact-checks, Wikidata), on
 * global fetch. Each attempt has its own deadline, covering the body as well as
 * the headers; 408, 429, 5xx, timeouts and network failures are tried again
 * with exponential backoff, a server's Retry-After (seconds or an HTTP date)
 * taking the place of the backoff. A wait longer than maxWaitMs is not waited
 * out: the attempts end there and the error carries the server's Retry-After,
 * so a job can be put off rather than hold a worker.
 *
 * Errors never carry the URL's query or a key: some providers take the key in
 * the query string (Google), and a message may reach a client, a log or a
 * stored job. A message names the provider, the path and the status only, and
 * every value in `secrets` is masked in whatever the provider said about it.
 */

export type HttpTuning = {
  /** Deadline of one attempt, body included. */
  timeoutMs?: number;
  /** Attempts in all; 1: no retry. */
  attempts?: number;
  /** Wait before the first retry, doubled for each one after. */
  backoffMs?: number;
  /** The longest wait between attempts; a longer Retry-After ends the attempts. */
  maxWaitMs?: number;
};

export const HTTP_DEFAULTS: Required<HttpTuning> = { timeoutMs: 15_000, attempts: 3, backoffMs: 500, maxWaitMs: 30_000 };

/** Wikimedia's API etiquette asks every client to name itself; the others do not mind. */
export const USER_AGENT = 'reliability-scoring-service/0.1 (hosted-provider adapter; node fetch)';

export type JsonRequest<T> = {
  /** Named in errors: brave, searxng, google-factcheck, wikidata. */
  provider: string;
  url: URL;
  headers?: Record<string, string>;
  /** Values that must never appear in an error message (API keys). */
  secrets?: readonly (string | undefined)[];
  /** The documented shape of a good answer; anything else is a malformed answer. */
  schema: ZodType<T>;
  /** Reads the provider's own error body (any status) into a short sentence. */
  errorDetail?: (body: unknown) => string | undefined;
  /** An error reported inside a 200 answer (the MediaWiki API does this); not retried. */
  bodyError?: (body: unknown) => string | undefined;
  tuning?: HttpTuning;
};

export type ProviderFailure = 'http' | 'timeout' | 'network' | 'malformed';

/**
 * A hosted provider did not give a usable answer. It is a 503 to API clients
 * (one error model: the route's handler maps it like any DomainError), with
 * the provider's Retry-After when it sent one.
 */
export class ProviderError extends UnavailableError {
  override name = 'ProviderError';
  readonly provider: string;
  /** The provider's HTTP status; null when no answer came (timeout, network). */
  readonly upstreamStatus: number | null;
  readonly failure: ProviderFailure;
  readonly attempts: number;
  readonly retryAfterSeconds: number | undefined;
  constructor(provider: string, failure: ProviderFailure, upstreamStatus: number | null, attempts: number, message: string, retryAfterSeconds?: number) {
    super('unavailable', message, retryAfterSeconds);
    this.provider = provider;
    this.failure = failure;
    this.upstreamStatus = upstreamStatus;
    this.attempts = attempts;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

export async function getJson<T>(req: JsonRequest<T>): Promise<T> {
  const t = { ...HTTP_DEFAULTS, ...definedOnly(req.tuning ?? {}) };
  const attempts = Math.max(1, Math.floor(t.attempts));
  const hasSecrets = (req.secrets ?? []).some(Boolean);
  const where = `hosted provider ${req.provider} (${req.url.pathname})`;
  const fail = (failure: ProviderFailure, status: number | null, n: number, what: string, retryAfterMs?: number): ProviderError => {
    // A refusal that retrying cannot mend (401, 403, 404, 422…) is the operator's to fix, not the caller's to wait out.
    const settled = failure === 'http' && status !== null && status < 500 && !RETRYABLE(status);
    const next = settled ? "the service's settings for it (key, base URL) need checking" : 'try again later';
    const tries = n > 1 ? ` after ${n} attempts` : '';
    const retryAfter = retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(retryAfterMs / 1000));
    return new ProviderError(req.provider, failure, status, n, mask(`The ${where} ${what}${tries}; ${next}.`, req.secrets), retryAfter);
  };

  for (let n = 1; ; n++) {
    let status: number | null = null;
    let text: string;
    let retryAfterMs: number | undefined;
    try {
      const res = await fetch(req.url, {
        headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...req.headers },
        signal: AbortSignal.timeout(t.timeoutMs),
        // fetch carries custom headers (X-Subscription-Token) and the query (Google's key) to wherever a
        // redirect points; with a key on board a redirect is an answer to report, not a path to follow.
        redirect: hasSecrets ? 'manual' : 'follow',
      });
      status = res.status;
      retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      text = await res.text();
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
      const what = timedOut ? `did not answer within ${t.timeoutMs} ms` : `could not be reached (${networkCode(err)})`;
      if (n < attempts) {
        await sleep(backoff(t, n));
        continue;
      }
      throw fail(timedOut ? 'timeout' : 'network', status, n, what);
    }

    if (status < 200 || status > 299) {
      const detail = clip(req.errorDetail?.(parseOrUndefined(text)));
      const what = status >= 300 && status < 400 ? `answered with a redirect (HTTP ${status}), not followed with a key` : `answered HTTP ${status}${detail ? `: ${detail}` : ''}`;
      if (!RETRYABLE(status) || n >= attempts) throw fail('http', status, n, what, retryAfterMs);
      if (retryAfterMs !== undefined && retryAfterMs > t.maxWaitMs) {
        // Waiting less than asked would only earn another refusal.
        throw fail('http', status, n, `${what} (asked to wait ${Math.ceil(retryAfterMs / 1000)} s)`, retryAfterMs);
      }
      await sleep(retryAfterMs ?? backoff(t, n));
      continue;
    }

    const body = parseOrUndefined(text);
    if (body === undefined) throw fail('malformed', status, n, 'answered with a body that is not JSON');
    const inBody = clip(req.bodyError?.(body));
    if (inBody) throw fail('http', status, n, `reported an error: ${inBody}`);
    const parsed = req.schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw fail('malformed', status, n, `answered in an undocumented shape (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'})`);
    }
    return parsed.data;
  }
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function backoff(t: Required<HttpTuning>, n: number): number {
  const full = Math.min(t.maxWaitMs, t.backoffMs * 2 ** (n - 1));
  // Half fixed, half random: callers failing together do not retry together.
  return full / 2 + Math.random() * (full / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function networkCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}

function clip(s: string | undefined): string | undefined {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, 200) : undefined;
}

/** Every secret, raw and URL-encoded, masked. */
function mask(message: string, secrets: readonly (string | undefined)[] = []): string {
  let out = message;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join('[redacted]');
  }
  return out;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
