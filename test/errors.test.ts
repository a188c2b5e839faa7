import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../core/keys.ts';
import { PROBLEM_TYPES } from '../core/problems.ts';
import { bearer } from './helpers/app.ts';
import { STACK_IN_LOG, startLoggedTestApp } from './helpers/logged-app.ts';

let t: Awaited<ReturnType<typeof startLoggedTestApp>>;
let headers: Record<string, string>;
beforeAll(async () => {
  // The app logs as the service does (every level), so that the last test can read the log.
  t = await startLoggedTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'errors');
  // Every scope: the errors of every route are checked, the review routes too.
  headers = bearer(await t.key('errors', SCOPES));
});
afterAll(() => t.close());

type Item = { loc: (string | number)[]; msg: string; type: string; input?: unknown; ctx?: Record<string, unknown> };

/** Exactly the spec's 422 body: `detail` items with loc, msg, type and optionally input and ctx, nothing else. */
function expectValidationBody(body: unknown): Item[] {
  expect(Object.keys(body as object)).toEqual(['detail']);
  const detail = (body as { detail: Item[] }).detail;
  expect(Array.isArray(detail)).toBe(true);
  expect(detail.length).toBeGreaterThan(0);
  for (const item of detail) {
    for (const k of Object.keys(item)) expect(['loc', 'msg', 'type', 'input', 'ctx']).toContain(k);
    expect(Array.isArray(item.loc)).toBe(true);
    for (const part of item.loc) expect(['string', 'number']).toContain(typeof part);
    expect(typeof item.msg).toBe('string');
    expect(typeof item.type).toBe('string');
    if ('ctx' in item) expect(typeof item.ctx).toBe('object');
  }
  return detail;
}

async function post(url: string, payload: unknown, extra: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

describe('422 validation body', () => {
  const cases: [string, string, unknown, (string | number)[], string, Record<string, unknown>?][] = [
    ['name too long', '/v1/reports', { name: 'n'.repeat(301) }, ['body', 'name'], 'string_too_long', { max_length: 300 }],
    ['subject_id too long', '/v1/reports', { subject_id: 's'.repeat(101) }, ['body', 'subject_id'], 'string_too_long', { max_length: 100 }],
    ['too many urls', '/v1/reports', { name: 'A', urls: Array(21).fill('https://example.org') }, ['body', 'urls'], 'too_long', { max_length: 20, actual_length: 21 }],
    ['too many handles', '/v1/subjects/resolve', { name: 'A', handles: Array(21).fill('@a') }, ['body', 'handles'], 'too_long', { max_length: 20 }],
    ['bad kind', '/v1/reports', { name: 'A', kind: 'robot' }, ['body', 'kind'], 'enum'],
    ['bad depth', '/v1/reports', { name: 'A', depth: 'deep' }, ['body', 'depth'], 'enum'],
    ['refresh not boolean', '/v1/reports', { name: 'A', refresh: 'yes' }, ['body', 'refresh'], 'bool_parsing'],
    ['topic too long', '/v1/reports', { name: 'A', topic: 't'.repeat(201) }, ['body', 'topic'], 'string_too_long', { max_length: 200 }],
    ['topic not one of the method\'s', '/v1/reports', { name: 'A', topic: 'gossip' }, ['body', 'topic'], 'enum', { expected: expect.stringMatching(/^'economy', .*'public_safety', .* or 'other'$/) }],
    ['consent_ref too long', '/v1/reports', { name: 'A', consent_ref: 'c'.repeat(301) }, ['body', 'consent_ref'], 'string_too_long'],
    ['name wrong type', '/v1/reports', { name: 42 }, ['body', 'name'], 'string_type'],
    ['nothing to say who', '/v1/reports', {}, ['body'], 'value_error'],
    ['resolve text too long', '/v1/subjects/resolve', { text: 'x'.repeat(50_001) }, ['body', 'text'], 'string_too_long', { max_length: 50_000 }],
    ['check text too long', '/v1/check', { text: 'x'.repeat(50_001) }, ['body', 'text'], 'string_too_long'],
    ['too many claims', '/v1/check', { claims: Array(51).fill({ text: 'a' }) }, ['body', 'claims'], 'too_long', { max_length: 50 }],
    ['claim text too long', '/v1/check', { claims: [{ text: 'ok' }, { text: 'x'.repeat(5001) }] }, ['body', 'claims', 1, 'text'], 'string_too_long', { max_length: 5000 }],
    ['claim text missing', '/v1/check', { claims: [{ source_url: 'https://a.example' }] }, ['body', 'claims', 0, 'text'], 'missing'],
    ['source_url too long', '/v1/check', { claims: [{ text: 'a', source_url: 'h'.repeat(2001) }] }, ['body', 'claims', 0, 'source_url'], 'string_too_long', { max_length: 2000 }],
    ['said_on not a date', '/v1/check', { text: 'a', said_on: '21/11/2026' }, ['body', 'said_on'], 'string_pattern_mismatch'],
    ['said_on impossible date', '/v1/check', { text: 'a', said_on: '2026-02-30' }, ['body', 'said_on'], 'value_error'],
    ['said_on too long', '/v1/check', { text: 'a', said_on: '2026-11-21T00:00:00Z' }, ['body', 'said_on'], 'string_pattern_mismatch'],
    ['response claim_id missing', '/v1/responses', { name: 'A', statement: 'B' }, ['body', 'claim_id'], 'missing'],
    ['response statement too long', '/v1/responses', { claim_id: 'c', name: 'A', statement: 's'.repeat(10_001) }, ['body', 'statement'], 'string_too_long', { max_length: 10_000 }],
    ['counter evidence url too long', '/v1/responses', { claim_id: 'c', name: 'A', statement: 'B', counter_evidence_url: 'h'.repeat(2001) }, ['body', 'counter_evidence_url'], 'string_too_long'],
    ['label verdict unknown', '/v1/labels', { claim_id: 'c', verdict: 'pants_on_fire' }, ['body', 'verdict'], 'enum'],
    ['label verdict missing', '/v1/labels', { claim_id: 'c' }, ['body', 'verdict'], 'missing'],
    ['label verdict null', '/v1/labels', { claim_id: 'c', verdict: null }, ['body', 'verdict'], 'enum'],
    ['label note too long', '/v1/labels', { claim_id: 'c', verdict: 'true', note: 'n'.repeat(2001) }, ['body', 'note'], 'string_too_long', { max_length: 2000 }],
    ['label reviewer too long', '/v1/labels', { claim_id: 'c', verdict: 'true', reviewer: 'r'.repeat(201) }, ['body', 'reviewer'], 'string_too_long', { max_length: 200 }],
    ['label on_time not boolean', '/v1/labels', { claim_id: 'c', verdict: 'true', on_time: 'late' }, ['body', 'on_time'], 'bool_parsing'],
    ['body is an array', '/v1/reports', [1, 2], ['body'], 'model_attributes_type'],
    ['body is null', '/v1/reports', 'null', ['body'], 'model_attributes_type'],
  ];
  it.each(cases)('%s', async (_label, url, payload, loc, type, ctx) => {
    const res = await post(url, payload);
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const detail = expectValidationBody(res.json());
    const item = detail.find((d) => JSON.stringify(d.loc) === JSON.stringify(loc));
    expect(item, JSON.stringify(detail)).toBeDefined();
    expect(item!.type).toBe(type);
    if (ctx) expect(item!.ctx).toMatchObject(ctx);
  });

  it('reports every problem of a body at once', async () => {
    const res = await post('/v1/labels', { verdict: 'maybe', note: 'n'.repeat(2001) });
    const types = expectValidationBody(res.json()).map((d) => `${d.loc.join('.')}:${d.type}`).sort();
    expect(types).toEqual(['body.claim_id:missing', 'body.note:string_too_long', 'body.verdict:enum']);
  });

  it('echoes long inputs only in part', async () => {
    const res = await post('/v1/reports', { name: 'n'.repeat(5000) });
    const [item] = expectValidationBody(res.json());
    expect(String(item!.input).length).toBeLessThan(300);
  });

  it('malformed JSON gets 422 json_invalid saying where', async () => {
    const res = await post('/v1/reports', '{"name": "A",');
    const [item] = expectValidationBody(res.json());
    expect(item).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    expect(String(item!.ctx!.error)).toMatch(/position|JSON/);
  });

  it('an empty JSON body gets 422 json_invalid', async () => {
    const res = await post('/v1/check', '');
    expect(res.statusCode).toBe(422);
    expect(expectValidationBody(res.json())[0]).toMatchObject({ type: 'json_invalid' });
  });

  it('prototype-poisoning JSON is refused as invalid, not merged', async () => {
    const res = await post('/v1/reports', '{"name":"A","__proto__":{"admin":true}}');
    expect(res.statusCode).toBe(422);
    expect(expectValidationBody(res.json())[0]).toMatchObject({ type: 'json_invalid' });
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'])(
    'a %s body gets 422 naming the content type',
    async (ct) => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers: { ...headers, 'content-type': ct }, payload: 'name=A' });
      expect(res.statusCode).toBe(422);
      const [item] = expectValidationBody(res.json());
      expect(item).toMatchObject({ loc: ['header', 'content-type'], type: 'content_type' });
    },
  );

  it('application/json with a charset is JSON', async () => {
    const res = await post('/v1/reports', { name: 'n'.repeat(301) }, { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(422);
    expect(expectValidationBody(res.json())[0]!.type).toBe('string_too_long');
  });

  it('bad query parameters get 422 with loc in the query', async () => {
    const cases: [string, (string | number)[], string][] = [
      ['/v1/subjects/s/claims?page=0', ['query', 'page'], 'greater_than_equal'],
      ['/v1/subjects/s/claims?page_size=0', ['query', 'page_size'], 'greater_than_equal'],
      ['/v1/subjects/s/claims?page_size=201', ['query', 'page_size'], 'less_than_equal'],
      ['/v1/subjects/s/claims?page=two', ['query', 'page'], 'int_parsing'],
      ['/v1/subjects/s/claims?page=1.5', ['query', 'page'], 'int_parsing'],
      ['/v1/subjects/s/claims?page=1&page=2', ['query', 'page'], 'int_parsing'],
      ['/v1/subjects/s/claims?claim_type=rumour', ['query', 'claim_type'], 'enum'],
      ['/v1/subjects/s/claims?type=factual&claim_type=promise', ['query', 'type'], 'value_error'],
      ['/v1/subjects/s/claims?outcome=maybe', ['query', 'outcome'], 'enum'],
      ['/v1/subjects/s/claims?topic=gossip', ['query', 'topic'], 'enum'],
      ['/v1/export?format=xml', ['query', 'format'], 'enum'],
      ['/v1/export?table=people', ['query', 'table'], 'enum'],
      ['/v1/export?include_demo=perhaps', ['query', 'include_demo'], 'bool_parsing'],
      [`/v1/export?subject_id=${'s'.repeat(101)}`, ['query', 'subject_id'], 'string_too_long'],
      ['/v1/labels?format=xlsx', ['query', 'format'], 'enum'],
      ['/v1/labels?page_size=201', ['query', 'page_size'], 'less_than_equal'],
      ['/v1/labels/claims?subject_id=s&page=0', ['query', 'page'], 'greater_than_equal'],
      ['/v1/subjects?page=one', ['query', 'page'], 'int_parsing'],
      ['/v1/subjects?page_size=0', ['query', 'page_size'], 'greater_than_equal'],
      ['/v1/labels/claims', ['query', 'subject_id'], 'missing'],
      ['/v1/methodology?format=pdf', ['query', 'format'], 'enum'],
    ];
    for (const [url, loc, type] of cases) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(422);
      const detail = expectValidationBody(res.json());
      expect(detail.find((d) => d.loc.join('.') === loc.join('.'))?.type, `${url} ${JSON.stringify(detail)}`).toBe(type);
    }
  });

  it('bad path parameters get 422 with loc in the path', async () => {
    for (const url of [`/v1/subjects/${'s'.repeat(101)}`, `/v1/reports/${'r'.repeat(101)}`, `/v1/reports/${'r'.repeat(101)}/html`, `/v1/subjects/${'s'.repeat(101)}/claims`]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      expect(res.statusCode, url).toBe(422);
      expect(expectValidationBody(res.json())[0]).toMatchObject({ type: 'string_too_long' });
      expect(expectValidationBody(res.json())[0]!.loc[0]).toBe('path');
    }
  });

  it('a path with broken percent-encoding gets 422, not 500', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/subjects/%E0%A4%A', headers });
    expect(res.statusCode).toBe(422);
    expectValidationBody(res.json());
  });
});

/** Every POST operation of the OpenAPI document, ids filled with ones that do not exist. */
async function postRoutes(): Promise<string[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).filter(([, ops]) => 'post' in ops).map(([p]) => p.replace(/\{[^}]+\}/g, 'x_missing'));
}

describe('deeply nested JSON', () => {
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const objects = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

  it.each([
    ['10,000 nested arrays', arrays(10_000)],
    ['10,000 nested objects', objects(10_000)],
    ['200,000 unclosed brackets', '['.repeat(200_000)],
    ['nesting inside a valid field', `{"name":"A","urls":${arrays(5_000)}}`],
  ])('%s, on every POST route, get the 422 body naming the limit', async (_label, payload) => {
    const routes = await postRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(5);
    for (const url of routes) {
      const res = await post(url, payload);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(422);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const [item] = expectValidationBody(res.json());
      expect(item).toMatchObject({ loc: ['body'], type: 'json_invalid', ctx: { max_depth: 64 } });
      expect(item!.msg).toMatch(/64/);
      expect(res.body.length).toBeLessThan(1000);
    }
  });

  it('64 levels are read; 65 are refused', async () => {
    const at = await post('/v1/reports', objects(64));
    expect(at.statusCode).toBe(422);
    expect(expectValidationBody(at.json())[0]!.type).not.toBe('json_invalid');
    const past = await post('/v1/reports', objects(65));
    expect(expectValidationBody(past.json())[0]).toMatchObject({ type: 'json_invalid', ctx: { max_depth: 64 } });
    const mixed = await post('/v1/check', `{"claims":${'[{"text":'.repeat(32)}"a"${'}]'.repeat(32)}}`);
    expect(expectValidationBody(mixed.json())[0]).toMatchObject({ type: 'json_invalid', ctx: { max_depth: 64 } });
  });

  it('the limit is stated in the OpenAPI description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { info: { description: string }; paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    expect(doc.info.description).toMatch(/nest objects and arrays at most 64 levels deep/);
    expect(doc.paths['/v1/check']!.post!.responses['422']!.description).toMatch(/nested deeper than 64 levels/);
  });

  it('brackets inside strings are text, not nesting', async () => {
    for (const text of ['['.repeat(20_000), `\\"${'{'.repeat(20_000)}`, `\\\\${'[{'.repeat(10_000)}`]) {
      const res = await post('/v1/subjects/resolve', `{"text":"${text}"}`);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    }
  });
});

describe('the input echoed in a 422 is bounded', () => {
  it('a body nested within the limit comes back as a short rendering, not the whole value', async () => {
    const res = await post('/v1/reports', `${'['.repeat(60)}${'1,'.repeat(5000)}1${']'.repeat(60)}`);
    const [item] = expectValidationBody(res.json());
    expect(item).toMatchObject({ loc: ['body'], type: 'model_attributes_type' });
    expect(typeof item!.input).toBe('string');
    expect(String(item!.input)).toMatch(/^\[\[\[\[.*…$/);
    expect(JSON.stringify(item!.input).length).toBeLessThan(300);
  });

  it('a long array and a large object come back cut short, saying what they held', async () => {
    const list = await post('/v1/reports', JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ n: i }))));
    const [l] = expectValidationBody(list.json());
    expect(String(l!.input)).toMatch(/^\[\{"n":0\},\{"n":1\},.*…$/);
    expect(JSON.stringify(l!.input).length).toBeLessThan(300);
    const obj = await post('/v1/reports', { name: { first: 'x'.repeat(100_000), deeper: { a: [1, 2, 3] } } });
    const item = expectValidationBody(obj.json()).find((d) => d.loc.join('.') === 'body.name');
    expect(item).toMatchObject({ type: 'string_type' });
    expect(String(item!.input)).toMatch(/^\{"first":"xxxx.*…$/);
    expect(JSON.stringify(item!.input).length).toBeLessThan(300);
  });

  it('a small value comes back as sent', async () => {
    const res = await post('/v1/reports', [1, 'two', { three: 3 }]);
    expect(expectValidationBody(res.json())[0]!.input).toEqual([1, 'two', { three: 3 }]);
    const empty = await post('/v1/reports', {});
    const [item] = expectValidationBody(empty.json());
    expect(item!.type).toBe('value_error');
    // The object itself (as validation saw it, defaults filled in), not a placeholder.
    expect(item!.input).toEqual(expect.objectContaining({ depth: 'quick' }));
  });
});

describe('problem details', () => {
  it('unknown routes get a 404 problem', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ type: '/problems/not-found', title: 'Not found', status: 404 });
  });

  it('an unknown report\'s page answers a 404 problem, not an invented page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/reports/rep_x/html', headers });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, type: '/problems/not-found' });
    expect(Object.keys(res.json()).sort()).toEqual(['detail', 'status', 'title', 'type']);
  });

  it('every problem type has a public page at its type URI saying what it means and what to do', async () => {
    for (const [code, p] of Object.entries(PROBLEM_TYPES)) {
      const res = await t.app.inject({ method: 'GET', url: `/problems/${code}` });
      expect(res.statusCode, code).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(`<h1>${p.title.replace(/'/g, '&#39;')}</h1>`);
      expect(res.body).toContain(`HTTP status ${p.status}`);
      for (const text of [p.means, p.todo]) expect(res.body).toContain(text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/`([^`]+)`/g, '<code>$1</code>'));
    }
    const index = await t.app.inject({ method: 'GET', url: '/problems' });
    expect(index.statusCode).toBe(200);
    for (const code of Object.keys(PROBLEM_TYPES)) expect(index.body).toContain(`href="/problems/${code}"`);
    const unknown = await t.app.inject({ method: 'GET', url: '/problems/no-such-type' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ type: '/problems/not-found', status: 404 });
  });

  it('the type of a problem the API answers with leads to its page, whose title it carries', async () => {
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/v1/subjects/sub_0000000000000000', headers }),
      t.app.inject({ method: 'GET', url: '/v1/status' }),
      t.app.inject({ method: 'GET', url: '/v1/reports/rep_x', headers }),
      post('/v1/reports', 'x'.repeat(300_000)),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([404, 401, 404, 413]);
    for (const res of answers) {
      const problem = res.json() as { type: string; title: string };
      const code = problem.type.replace(/^\/problems\//, '') as keyof typeof PROBLEM_TYPES;
      expect(problem.title).toBe(PROBLEM_TYPES[code].title);
      const page = await t.app.inject({ method: 'GET', url: problem.type });
      expect(page.statusCode, problem.type).toBe(200);
      expect(page.body).toContain(problem.title);
    }
  });

  it('no response carries a stack trace or SQL', async () => {
    const bodies = await Promise.all([
      post('/v1/reports', '{bad'),
      t.app.inject({ method: 'GET', url: '/nowhere' }),
      post('/v1/responses', { claim_id: 'clm_x', name: 'Someone', statement: 'A reply.' }),
      post('/v1/reports', { subject_id: 'sub_missing' }),
    ]);
    for (const res of bodies) {
      expect(res.body).not.toMatch(/\bat .+\.(ts|js):\d+|node_modules|SELECT |INSERT |pg_|stack/i);
    }
  });
});

/** One request to every operation of the OpenAPI document, keyed, ids filled with ones that do not exist. */
async function everyOperation() {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  const out = [];
  for (const [p, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) {
      const url = p.replace(/\{[^}]+\}/g, 'x_missing');
      out.push(await t.app.inject({ method: method.toUpperCase() as 'GET', url, headers, ...(method === 'get' ? {} : { payload: {} }) }));
    }
  }
  expect(out.length).toBeGreaterThan(15);
  return out;
}

describe('security headers', () => {
  it('are on every response, errors included', async () => {
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/health' }),
      await t.app.inject({ method: 'GET', url: '/v1/status' }),
      await t.app.inject({ method: 'GET', url: '/v1/status', headers }),
      await post('/v1/reports', '{bad'),
      await t.app.inject({ method: 'GET', url: '/nowhere' }),
      await t.app.inject({ method: 'DELETE', url: '/mcp', headers }),
      ...(await everyOperation()),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    }
  });
});

// Last: everything above was hostile input. Nothing of it may have put a stack
// trace (or the sign of a stack overflow) into the service's log.
describe('the log after hostile input', () => {
  it('holds no stack trace', () => {
    const lines = t.log.lines;
    // The log was written: one line at least for every request above.
    expect(lines.filter((l) => l.includes('incoming request')).length).toBeGreaterThan(100);
    const bad = lines.filter((l) => STACK_IN_LOG.test(l));
    expect(bad.map((l) => l.slice(0, 500))).toEqual([]);
  });
});
