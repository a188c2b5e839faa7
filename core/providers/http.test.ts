import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startFakeServer, type FakeServer } from '../../test/helpers/web-servers.ts';
import { DomainError } from '../errors.ts';
import { getJson, parseRetryAfter, ProviderError, USER_AGENT } from './http.ts';

/** getJson against a real loopback server: retries, waits, deadlines and what errors may say. */

const KEY = 'AIzaSy-test-key-0123456789';
const Answer = z.looseObject({ ok: z.boolean() });
const fast = { backoffMs: 10, timeoutMs: 2_000, attempts: 3 };

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const good = () => startFakeServer(() => ({ json: { ok: true } }));
const call = (s: FakeServer, tuning: object = fast, extra: object = {}) =>
  getJson({ provider: 'fake', url: new URL(`${s.url}/v1/thing?q=x&key=${KEY}`), schema: Answer, secrets: [KEY], tuning, ...extra });

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('getJson', () => {
  it('returns the parsed answer and names itself', async () => {
    server = await good();
    expect(await call(server)).toEqual({ ok: true });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['user-agent']).toBe(USER_AGENT);
    expect(server.requests[0]!.headers.accept).toBe('application/json');
  });

  it('waits out a 429 for the seconds its Retry-After asks, then succeeds', async () => {
    server = await good();
    server.script({ status: 429, headers: { 'retry-after': '1' }, json: { error: 'slow down' } });
    expect(await call(server)).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
    // The backoff alone would retry after ~10 ms.
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('reads Retry-After given as an HTTP date', async () => {
    server = await good();
    server.script({ status: 503, headers: { 'retry-after': new Date(Date.now() + 2_000).toUTCString() } });
    expect(await call(server)).toEqual({ ok: true });
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('does not wait out a Retry-After beyond maxWaitMs: it stops and passes the wait on', async () => {
    server = await good();
    server.script({ status: 429, headers: { 'retry-after': '3600' } });
    const err = await failure(call(server, { ...fast, maxWaitMs: 5_000 }));
    expect(server.requests).toHaveLength(1);
    expect(err.upstreamStatus).toBe(429);
    expect(err.retryAfterSeconds).toBe(3600);
    expect(err.headers['retry-after']).toBe('3600');
  });

  it('tries a 500 again and succeeds', async () => {
    server = await good();
    server.script({ status: 500, body: 'Internal Server Error' });
    expect(await call(server)).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a persistent 500 after the configured attempts, with backoff between them', async () => {
    server = await startFakeServer(() => ({ status: 500, json: { error: { message: 'backend down' } } }));
    const err = await failure(call(server, { ...fast, attempts: 4, backoffMs: 40 }));
    expect(server.requests).toHaveLength(4);
    expect(err).toMatchObject({ provider: 'fake', upstreamStatus: 500, failure: 'http', attempts: 4, status: 503 });
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('after 4 attempts');
    // Exponential: the waits before retries 2 and 3 are at least 20 and 40 ms (half of 40 and 80).
    const gaps = server.requests.slice(1).map((r, i) => r.at - server!.requests[i]!.at);
    expect(gaps[1]!).toBeGreaterThanOrEqual(35);
    expect(gaps[2]!).toBeGreaterThanOrEqual(75);
  });

  it('does not retry a refusal that waiting cannot mend (404)', async () => {
    server = await startFakeServer(() => ({ status: 404, json: { error: 'no such path' } }));
    const err = await failure(call(server));
    expect(server.requests).toHaveLength(1);
    expect(err.upstreamStatus).toBe(404);
    expect(err.message).toContain('settings');
  });

  it('ends an attempt at its deadline and reports a timeout', async () => {
    server = await startFakeServer(() => ({ json: { ok: true }, delayMs: 5_000 }));
    const started = Date.now();
    const err = await failure(call(server, { ...fast, timeoutMs: 150, attempts: 2 }));
    expect(err.failure).toBe('timeout');
    expect(err.upstreamStatus).toBeNull();
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports a provider it cannot reach', async () => {
    server = await good();
    const url = server.url;
    await server.close();
    server = undefined;
    const err = await failure(getJson({ provider: 'fake', url: new URL(`${url}/x`), schema: Answer, tuning: { ...fast, attempts: 2 } }));
    expect(err.failure).toBe('network');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('refuses a body that is not JSON, without retrying', async () => {
    server = await startFakeServer(() => ({ body: '{"ok": tru' }));
    const err = await failure(call(server));
    expect(err.failure).toBe('malformed');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses JSON that is not in the documented shape', async () => {
    server = await startFakeServer(() => ({ json: { ok: 'yes' } }));
    const err = await failure(call(server));
    expect(err.failure).toBe('malformed');
    expect(err.message).toContain('ok');
  });

  it('reports an error carried inside a 200 answer', async () => {
    server = await startFakeServer(() => ({ json: { error: { code: 'badvalue', info: 'Unrecognized value' } } }));
    const err = await failure(call(server, fast, { bodyError: (b: unknown) => ((b as { error?: { code: string } }).error?.code) }));
    expect(err.message).toContain('badvalue');
  });

  it('never puts the key or the query in a message, even when the provider echoes the key', async () => {
    server = await startFakeServer(() => ({ status: 400, json: { error: { message: `API key ${KEY} not valid (${encodeURIComponent(KEY)})` } } }));
    const err = await failure(call(server, fast, { errorDetail: (b: unknown) => (b as { error: { message: string } }).error.message }));
    expect(err.message).toContain('[redacted]');
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain('key=');
    expect(err.message).not.toContain('q=x');
    expect(err.message).toContain('/v1/thing');
    expect(JSON.stringify(err)).not.toContain(KEY);
    expect(String(err.stack)).not.toContain(KEY);
  });

  it('is a DomainError, so the API answers 503 with the provider named', async () => {
    server = await startFakeServer(() => ({ status: 502, body: 'Bad Gateway' }));
    const err = await failure(call(server, { ...fast, attempts: 1 }));
    expect(err).toBeInstanceOf(DomainError);
    expect(err.status).toBe(503);
    expect(err.code).toBe('unavailable');
    expect(err.message).toContain('fake');
  });
});

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, and ignores nonsense', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
