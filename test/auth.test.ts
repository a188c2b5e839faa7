import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

/**
 * Auth on every route, table-driven over the OpenAPI document itself: a route
 * added later is covered without touching this file.
 */

let t: TestApp;
let live: string;
let revoked: string;
type Op = { method: string; path: string; secured: boolean };
let ops: Op[];

beforeAll(async () => {
  t = await startTestApp({}, 'auth');
  live = await t.key('live');
  revoked = await t.key('gone');
  await t.revoke('gone');
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      // Any value that passes the parameter's own validation.
      path: path.replace(/\{[^}]+\}/g, 'sub_example'),
      secured: (op.security ?? []).length > 0,
    })),
  );
});
afterAll(() => t.close());

const problemOf = (body: string) => JSON.parse(body) as { type: string; title: string; status: number; detail: string };

describe('auth', () => {
  it('covers every route of the interface', () => {
    const paths = new Set(ops.map((o) => `${o.method} ${o.path}`));
    for (const expected of [
      'GET /health', 'GET /v1/status', 'POST /v1/subjects/resolve', 'GET /v1/subjects', 'GET /v1/subjects/sub_example',
      'POST /v1/reports', 'GET /v1/reports/sub_example', 'GET /v1/reports/sub_example/html', 'GET /v1/subjects/sub_example/claims',
      'GET /v1/export', 'POST /v1/check', 'POST /v1/responses', 'GET /v1/demo', 'POST /v1/labels', 'GET /v1/labels',
      'GET /v1/labels/claims', 'GET /v1/methodology', 'POST /mcp',
    ]) expect(paths).toContain(expected);
    // Only /health is public among the documented operations.
    expect(ops.filter((o) => !o.secured).map((o) => o.path)).toEqual(['/health']);
  });

  it('answers 401 with a problem body to a missing, malformed, unknown or revoked key on every secured route', async () => {
    const unknown = `rss_${'A'.repeat(43)}`;
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: `Bearer ${unknown}` },
      bearer(revoked),
      { authorization: `Bearer ${live}x` },
    ];
    for (const op of ops.filter((o) => o.secured)) {
      for (const headers of cases) {
        const res = await t.app.inject({ method: op.method as 'GET', url: op.path, headers });
        expect(res.statusCode, `${op.method} ${op.path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        const p = problemOf(res.body);
        expect(p).toMatchObject({ status: 401, title: 'Unauthorized' });
        expect(p.detail).toMatch(/Bearer/);
        // Never echoes what was sent.
        expect(res.body).not.toContain(revoked);
      }
    }
  });

  it('lets a live key through on every secured route (whatever the route answers, it is not 401)', async () => {
    for (const op of ops.filter((o) => o.secured)) {
      const res = await t.app.inject({ method: op.method as 'GET', url: op.path, headers: bearer(live) });
      expect(res.statusCode, `${op.method} ${op.path}`).not.toBe(401);
    }
  });

  it('accepts the scheme in any case, as RFC 7235 asks', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/status', headers: { authorization: `bEaReR ${live}` } });
    expect(res.statusCode).toBe(200);
  });

  it('serves /health and both OpenAPI files without a key', async () => {
    for (const url of ['/health', '/openapi.json', '/developers/openapi.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
    }
  });

  it('answers 401, not 404, to a stranger asking for an unknown path under /v1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/no-such-thing' });
    expect(res.statusCode).toBe(401);
    const withKey = await t.app.inject({ method: 'GET', url: '/v1/no-such-thing', headers: bearer(live) });
    expect(withKey.statusCode).toBe(404);
    expect(problemOf(withKey.body).status).toBe(404);
  });

  it('stops accepting a key within moments of its revocation, though verified keys are cached', async () => {
    const key = await t.key('short-lived');
    // Twice: the second answer comes from the key cache.
    for (let i = 0; i < 2; i++) expect((await t.app.inject({ method: 'GET', url: '/v1/status', headers: bearer(key) })).statusCode).toBe(200);
    const revokedAt = Date.now();
    await t.revoke('short-lived');
    // The revocation reaches the cache by NOTIFY; poll with a deadline, never a fixed sleep.
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 2000) {
      status = (await t.app.inject({ method: 'GET', url: '/v1/status', headers: bearer(key) })).statusCode;
    }
    expect(status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(2000);
  });
});
