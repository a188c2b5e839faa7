import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.ts';
import { bearer } from './helpers/app.ts';
import { STACK_IN_LOG, startLoggedTestApp } from './helpers/logged-app.ts';
import { until } from './helpers/poll.ts';

/**
 * Connections that misbehave below HTTP (issue #16, items 3 and 4), on a real
 * listening server: a body or headers that never finish are cut off at the
 * configured timeouts, and a client that hangs up mid-request is logged as
 * what it is, never as a database outage.
 */

const REQUEST_TIMEOUT_MS = 3_000;
const HEADERS_TIMEOUT_MS = 1_000;

let t: Awaited<ReturnType<typeof startLoggedTestApp>>;
let key: string;
let port: number;

beforeAll(async () => {
  t = await startLoggedTestApp({ REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) }, 'connections', 'debug');
  key = await t.key('connections');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

type Outcome = { closedAfterMs: number; received: string };

/**
 * Opens a raw connection, writes `head` (and nothing more), and resolves when
 * the server closes it, with what the server sent; rejects if it is still open
 * after `deadlineMs`.
 */
function holdOpen(head: string, deadlineMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${deadlineMs} ms`));
    }, deadlineMs);
    socket.on('connect', () => socket.write(head));
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('error', () => {}); // a reset is a close too
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: performance.now() - started, received });
    });
  });
}

const requestHead = (contentLength: number) =>
  `POST /v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`;

describe('request and header timeouts', () => {
  it('a body that never finishes is cut off at REQUEST_TIMEOUT_MS with a 408 problem', async () => {
    // A keyed request whose body stops a third of the way: the key is checked, then the body waits.
    const out = await holdOpen(`${requestHead(300)}{"name":"Brightwater`, REQUEST_TIMEOUT_MS + 5_000);
    expect(out.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(out.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.received).toMatch(/content-type: application\/problem\+json/i);
    const body = JSON.parse(out.received.slice(out.received.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
    expect(body).toMatchObject({ type: '/problems/request-timeout', status: 408, title: expect.any(String), detail: expect.any(String) });
  });

  it('headers that never finish are cut off at HEADERS_TIMEOUT_MS', async () => {
    const out = await holdOpen(`POST /v1/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n`, HEADERS_TIMEOUT_MS + 5_000);
    expect(out.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(out.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS - 500);
    expect(out.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(out.received).toMatch(/"type":"\/problems\/request-timeout"/);
  });

  it('a slow body that finishes within the limit is answered as usual', async () => {
    const payload = JSON.stringify({ name: 'n'.repeat(301) });
    const res = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('connect', () => {
        socket.write(`${requestHead(Buffer.byteLength(payload))}${payload.slice(0, 10)}`);
        // The rest once the server has had the start for a while (well under the limit).
        setTimeout(() => socket.write(payload.slice(10)), REQUEST_TIMEOUT_MS / 3);
      });
      socket.on('data', (d) => {
        received += d.toString('latin1');
        if (received.includes('\r\n\r\n') && received.includes('"detail"')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
    expect(res).toMatch(/^HTTP\/1\.1 422 /);
    expect(res).toMatch(/string_too_long/);
  });
});

describe('the timeout settings', () => {
  it('default to 30 s for a request and 10 s for its headers, and are documented in the OpenAPI description', async () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { info: { description: string }; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(doc.info.description).toContain(`within ${REQUEST_TIMEOUT_MS} ms and its headers within ${HEADERS_TIMEOUT_MS} ms`);
    expect(doc.paths['/v1/reports']!.post!.responses).toHaveProperty('408');
  });

  it.each([
    [{ REQUEST_TIMEOUT_MS: '0' }, /REQUEST_TIMEOUT_MS/],
    [{ REQUEST_TIMEOUT_MS: 'soon' }, /REQUEST_TIMEOUT_MS/],
    [{ HEADERS_TIMEOUT_MS: '50' }, /HEADERS_TIMEOUT_MS/],
    [{ REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }, /HEADERS_TIMEOUT_MS \(6000\) must not exceed REQUEST_TIMEOUT_MS \(5000\)/],
  ])('refuses %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('a client that hangs up', () => {
  it('mid-body is logged as a closed request, not as the database being unavailable', async () => {
    // One request first, so that the key is verified and cached: the second
    // request's hooks then run at once and its body is being read when the client goes.
    const warm = await fetch(`http://127.0.0.1:${port}/v1/status`, { headers: bearer(key) });
    expect(warm.status).toBe(200);
    const before = t.log.lines.length;
    for (const hangUp of ['end', 'reset'] as const) {
      const mark = t.log.lines.length;
      const socket = net.connect(port, '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
      socket.write(`${requestHead(5_000)}{"name":"Brightwater Utilities","topic":`);
      await until(async () => t.log.lines.slice(mark).some((l) => l.includes('incoming request') && l.includes('/v1/reports')), 'the server to take the request', 5_000, 10);
      if (hangUp === 'reset') socket.resetAndDestroy();
      else socket.destroy();
      // The server says something about the request's end: one or the other line.
      const seen = await until(
        async () => t.log.lines.slice(mark).find((l) => /database unavailable|client closed the request/.test(l)),
        `the server to notice the client ${hangUp === 'reset' ? 'resetting' : 'closing'} the connection`,
        5_000,
        10,
      );
      expect(seen).toMatch(/client closed the request/);
    }
    const after = t.log.records().slice(before);
    expect(after.filter((r) => /database/i.test(String(r.msg)))).toEqual([]);
    // Nothing at warn or above: a hang-up is the client's business.
    expect(after.filter((r) => Number(r.level) >= 40)).toEqual([]);
  });

  it('the database being really unavailable is still told apart (the pool refusing to connect)', async () => {
    // The same classification the handler uses, fed a real error from the pg driver.
    const { isDatabaseError } = await import('../api/plugins/errors.ts');
    const pg = (await import('pg')).default;
    const dead = await new Promise<number>((resolve) => {
      const srv = net.createServer();
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const pool = new pg.Pool({ connectionString: `postgres://x@127.0.0.1:${dead}/x`, connectionTimeoutMillis: 2_000 });
    const refused = await pool.query('SELECT 1').catch((e: unknown) => e);
    await pool.end();
    expect(isDatabaseError(refused)).toBe(true);
    // As Node reports a name with several addresses, none of them answering.
    expect(isDatabaseError(new AggregateError([refused], 'connect failed'))).toBe(true);
    const sqlstate = await t.db.pool.query(`DO $$ BEGIN RAISE EXCEPTION 'x' USING ERRCODE = '57P01'; END $$`).catch((e: unknown) => e);
    expect(isDatabaseError(sqlstate)).toBe(true);
    // An ordinary SQL error is a bug, not an outage.
    const syntax = await t.db.pool.query('SELEC 1').catch((e: unknown) => e);
    expect(isDatabaseError(syntax)).toBe(false);
    // A client's own hang-up, as Node's HTTP server reports it on the request stream.
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(isDatabaseError(aborted)).toBe(false);
    expect(isDatabaseError(new AggregateError([aborted], 'x'))).toBe(false);
  });
});

describe('the log', () => {
  it('holds no stack trace', () => {
    expect(t.log.lines.filter((l) => l.includes('incoming request')).length).toBeGreaterThanOrEqual(4);
    // The 408s above were logged with their error (pino's standard serializer would write its stack).
    expect(t.log.records().filter((r) => r.msg === 'client error' && (r.err as { code?: string } | undefined)?.code === 'ERR_HTTP_REQUEST_TIMEOUT').length).toBeGreaterThanOrEqual(2);
    expect(t.log.lines.filter((l) => STACK_IN_LOG.test(l)).map((l) => l.slice(0, 500))).toEqual([]);
  });
});
