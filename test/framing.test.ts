import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

/**
 * Requests framed or addressed wrongly (issue #16, item 5): every answer is a
 * problem body of a documented type, or the spec's 422; never Node's own
 * `{"error":"Bad Request"}`, a bare 404 for a path that exists, or a 403
 * dressed as a bad request. Raw sockets where the bytes themselves are the
 * point, inject elsewhere.
 */

let t: TestApp;
let key: string;
let port: number;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'framing');
  key = await t.key('framing');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

type Raw = { status: number; headers: Record<string, string>; body: string; all: string };

/** Writes the bytes, reads until the server closes the connection (or 3 s), and parses the first answer. */
function raw(bytes: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let all = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the connection stayed open; received so far: ${all.slice(0, 300)}`));
    }, 3_000);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (d) => (all += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = all.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n').slice(0, length), all });
    });
  });
}

function expectProblem(r: { status: number; headers: Record<string, unknown>; body: string }, status: number, type: string) {
  expect(r.status, r.body).toBe(status);
  expect(String(r.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(r.body) as Record<string, unknown>;
  expect(body).toMatchObject({ type: `/problems/${type}`, status, title: expect.any(String), detail: expect.any(String) });
  return body;
}

const auth = () => `Authorization: Bearer ${key}\r\n`;

describe('framing errors (raw sockets)', () => {
  it('a Content-Length shorter than the body: a 400 problem, and the connection is closed', async () => {
    const body = '{"claim_id":"clm_x","name":"A","statement":"B"}';
    const r = await raw(`POST /v1/responses HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 5\r\n\r\n${body}`);
    expectProblem(r, 400, 'bad-request');
    // Not Node's own shape, and not a method error for the leftover bytes.
    expect(r.all).not.toMatch(/"error":"Bad Request"|Client Error|method-not-implemented/);
  });

  it('both Content-Length and Transfer-Encoding: a 400 problem', async () => {
    const r = await raw(`POST /v1/responses HTTP/1.1\r\nHost: x\r\n${auth()}Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
    expectProblem(r, 400, 'bad-request');
    expect(r.all).not.toMatch(/Client Error/);
  });

  it('a method the server does not know: 501 problem (RFC 9110 15.6.2)', async () => {
    for (const method of ['FOO', 'BREW', 'get']) {
      const r = await raw(`${method} /v1/status HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`);
      expectProblem(r, 501, 'method-not-implemented');
    }
  });

  it('a path id far over its limit: the spec\'s 422 naming the limit, not "No route"', async () => {
    for (const path of [`/v1/reports/${'r'.repeat(3_000)}`, `/v1/subjects/${'s'.repeat(5_000)}/claims`, `/v1/claims/${'c'.repeat(8_000)}/responses`]) {
      const r = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
      expect(r.status, path.slice(0, 40)).toBe(422);
      const item = (JSON.parse(r.body) as { detail: { loc: unknown[]; type: string; ctx: unknown; input: string }[] }).detail[0]!;
      expect(item).toMatchObject({ type: 'string_too_long', ctx: { max_length: 100 } });
      expect(item.loc[0]).toBe('path');
      // The echo is bounded, however long the id.
      expect(r.body.length).toBeLessThan(600);
    }
  });

  it('a path longer than the request line may be: a 431 problem', async () => {
    const r = await raw(`GET /v1/reports/${'r'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`);
    expectProblem(r, 431, 'headers-too-large');
  });

  it('dot segments, plain or percent-encoded, with or without a key: one 400 problem', async () => {
    for (const path of ['/v1/../v1/status', '/../etc/passwd', '/reports/../../x', '/%2e%2e/x', '/reports/..%2F..%2Fetc', '/v1/./status', '/a/%2E/b', '/x/..%5c..%5cwin.ini']) {
      for (const withKey of [true, false]) {
        const r = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\n${withKey ? auth() : ''}Connection: close\r\n\r\n`);
        const body = expectProblem(r, 400, 'bad-request');
        expect(body.detail, path).toMatch(/dot segment/);
      }
    }
    // A dot inside a segment is no dot segment.
    const ok = await t.app.inject({ method: 'GET', url: '/v1/subjects/sub_a..b', headers: bearer(key) });
    expect(ok.statusCode).toBe(404);
  });
});

describe('a method a path does not answer: 405 with Allow', () => {
  const cases: [string, string, string][] = [
    ['DELETE', '/v1/status', 'GET, HEAD'],
    ['POST', '/v1/status', 'GET, HEAD'],
    ['GET', '/v1/responses', 'POST'],
    ['PUT', '/v1/responses', 'POST'],
    ['GET', '/v1/reports', 'POST'],
    ['OPTIONS', '/v1/subjects/sub_x/claims', 'GET, HEAD'],
    ['PATCH', '/v1/claims/clm_x/responses', 'GET, HEAD'],
    ['POST', '/v1/reports/rep_x', 'GET, HEAD'],
    ['DELETE', '/v1/subjects/sub_x/', 'GET, HEAD'],
    ['PATCH', '/health', 'GET, HEAD'],
    ['POST', '/openapi.json', 'GET, HEAD'],
    ['POST', '/', 'GET, HEAD'],
    ['DELETE', '/reports/rep_x/', 'GET, HEAD'],
    ['PUT', '/mcp', 'POST'],
  ];

  it.each(cases)('%s %s', async (method, url, allow) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(method === 'GET' || method === 'OPTIONS' ? {} : { payload: {} }) });
    const body = expectProblem({ status: res.statusCode, headers: res.headers, body: res.body }, 405, 'method-not-allowed');
    expect(res.headers.allow).toBe(allow);
    expect(body.detail).toContain(allow);
  });

  it('on the wire too, and HEAD of a POST route gets the status and Allow', async () => {
    const r = await raw(`DELETE /v1/status HTTP/1.1\r\nHost: x\r\n${auth()}Connection: close\r\n\r\n`);
    expectProblem(r, 405, 'method-not-allowed');
    expect(r.headers.allow).toBe('GET, HEAD');
    const head = await t.app.inject({ method: 'HEAD', url: '/v1/responses', headers: bearer(key) });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('POST');
  });

  it('a path no route has stays a 404 (401 without a key under /v1), and the 404 quotes the path only in part', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/no-such-thing', headers: bearer(key) });
    expectProblem({ status: res.statusCode, headers: res.headers, body: res.body }, 404, 'not-found');
    expect(res.headers.allow).toBeUndefined();
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/status' })).statusCode).toBe(401);
    const long = await t.app.inject({ method: 'GET', url: `/v1/${'z'.repeat(5_000)}/x`, headers: bearer(key) });
    expect(long.statusCode).toBe(404);
    expect(long.body.length).toBeLessThan(500);
  });

  it('a GET the site answers but finds no page for is a 404, not a 405', async () => {
    for (const url of ['/reports/rep_not_built/', '/no-such-page.html']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers.allow).toBeUndefined();
      }
    }
  });

  it('the routes a path does answer still answer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/status', headers: bearer(key) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: '/health' })).statusCode).toBe(200);
  });
});
