import { Readable } from 'node:stream';
import { SCOPES } from '../core/keys.ts';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { bearer } from './helpers/app.ts';
import { STACK_IN_LOG, startLoggedTestApp } from './helpers/logged-app.ts';

/**
 * Bad input, generated: bodies, query strings, path ids, headers and
 * encodings sent to every route of the OpenAPI document. The service never
 * answers 500 and never hangs; every rejection is a 4xx with the documented
 * body (422: the validation body; others: a problem). And nothing of it puts
 * a stack trace into the service's log (the last test reads the log).
 */

let t: Awaited<ReturnType<typeof startLoggedTestApp>>;
let headers: Record<string, string>;
type Op = { method: 'GET' | 'POST' | 'DELETE'; path: string };
let ops: Op[];

beforeAll(async () => {
  t = await startLoggedTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', DAILY_JOB_LIMIT: '1000000' }, 'fuzz');
  // Every scope: every route is fuzzed, the review routes too.
  headers = bearer(await t.key('fuzz', SCOPES));
  await ingestPack(t.db.pool, Readable.from([`${JSON.stringify({ record: 'subject', name: 'Fuzz Subject', kind: 'organisation', description: 'TEST DATA (invented).' })}\n`]));
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  ops = Object.entries(doc.paths).flatMap(([path, m]) => Object.keys(m).map((method) => ({ method: method.toUpperCase() as Op['method'], path })));
});
afterAll(() => t.close());

// Strings with the edge cases that break naive code: NUL, lone surrogates, right-to-left marks, long runs.
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\ud800b', '\u202e\u200f', '\u2028', '../../etc/passwd', '%00', '%E0%A4%A', '<script>alert(1)</script>', "' OR 1=1 --", 'x'.repeat(50_000), '🙂'.repeat(1000)),
);
const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), nasty, fc.constant(null));
const body = fc.oneof(
  fc.dictionary(fc.constantFrom('name', 'subject_id', 'text', 'claims', 'kind', 'depth', 'refresh', 'urls', 'handles', 'claim_id', 'verdict', 'statement', 'said_on', 'topic', 'consent_ref', '__proto__', 'constructor'), jsonValue, { maxKeys: 6 }),
  jsonValue,
);

function expectDocumentedBody(status: number, contentType: string | undefined, raw: string, path = '') {
  expect(status, raw.slice(0, 300)).toBeLessThan(500 + (status === 501 || status === 503 ? 100 : 0));
  if (path === '/mcp' && status >= 400 && contentType?.startsWith('application/json') && raw.includes('"jsonrpc"')) {
    // The MCP transport's own refusals are JSON-RPC errors, as the MCP specification has them.
    expect(JSON.parse(raw)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
  } else if (status === 422) {
    const b = JSON.parse(raw) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    expect(Array.isArray(b.detail)).toBe(true);
    for (const d of b.detail) {
      expect(Array.isArray(d.loc)).toBe(true);
      expect(typeof d.msg).toBe('string');
      expect(typeof d.type).toBe('string');
    }
  } else if (status >= 400) {
    expect(contentType).toMatch(/^application\/problem\+json/);
    const p = JSON.parse(raw) as { status: number; title: string; detail: string };
    expect(p.status).toBe(status);
    expect(typeof p.detail).toBe('string');
  }
  expect(raw).not.toMatch(/node_modules|\bat [\w.<>]+ \(|SELECT |INSERT INTO/);
}

async function send(req: InjectOptions) {
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 10 s')), 10_000));
  return Promise.race([t.app.inject(req), timeout]);
}

describe('generated bad input', () => {
  it('bodies to every route: never 500, every rejection documented', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), body, fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', ''), async (i, b, ct) => {
        const op = ops[i % ops.length]!;
        if (op.method === 'GET' || op.method === 'DELETE') return;
        const url = op.path.replace(/\{[^}]+\}/g, 'x');
        const res = await send({ method: op.method, url, headers: { ...headers, ...(ct ? { 'content-type': ct } : {}) }, payload: typeof b === 'string' && ct !== 'application/json' ? b : JSON.stringify(b) });
        expectDocumentedBody(res.statusCode, res.headers['content-type'] as string | undefined, res.body, op.path);
      }),
      { numRuns: 250 },
    );
  });

  it('nesting of any depth, in any body of any route: never 500, past 64 levels the 422 body naming the limit', async () => {
    // Arrays and objects inside one another, some with brackets and escaped quotes in strings on the way.
    const level = fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['[1,"[{",', ']'], ['{"k\\"[":', '}'], ['{"\\\\":', '}']);
    const posts = ops.filter((o) => o.method === 'POST');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), fc.array(level, { minLength: 1, maxLength: 6 }), fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 3000 })), async (i, kinds, depth) => {
        const op = posts[i % posts.length]!;
        const opens: string[] = [];
        const closes: string[] = [];
        for (let d = 0; d < depth; d++) {
          const [o, c] = kinds[d % kinds.length]!;
          opens.push(o);
          closes.push(c);
        }
        const payload = `${opens.join('')}null${closes.reverse().join('')}`;
        const res = await send({ method: 'POST', url: op.path.replace(/\{[^}]+\}/g, 'x'), headers: { ...headers, 'content-type': 'application/json' }, payload });
        expectDocumentedBody(res.statusCode, res.headers['content-type'] as string | undefined, res.body, op.path);
        const refused = res.statusCode === 422 && (res.json() as { detail: { type: string; ctx?: { max_depth?: number } }[] }).detail[0]?.ctx?.max_depth === 64;
        expect(refused, `depth ${depth} on ${op.path}: ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(depth > 64);
        expect(res.body.length).toBeLessThan(2000);
      }),
      { numRuns: 150 },
    );
  });

  it('path ids and query strings to every route: never 500, every rejection documented', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), nasty, fc.dictionary(fc.constantFrom('page', 'page_size', 'type', 'claim_type', 'topic', 'outcome', 'format', 'table', 'subject_id', 'include_demo'), nasty, { maxKeys: 4 }), async (i, id, query) => {
        const op = ops[i % ops.length]!;
        if (op.method !== 'GET') return;
        const url = op.path.replace(/\{[^}]+\}/g, encodeURIComponent(id.toWellFormed()).slice(0, 3000));
        const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, v.toWellFormed().slice(0, 3000)])).toString();
        const res = await send({ method: 'GET', url: qs ? `${url}?${qs}` : url, headers });
        expectDocumentedBody(res.statusCode, res.headers['content-type'] as string | undefined, res.body);
      }),
      { numRuns: 250 },
    );
  });

  it('odd headers: never 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), fc.string({ maxLength: 60 }), fc.constantFrom('authorization', 'content-type', 'accept', 'content-encoding', 'origin', 'x-forwarded-for'), async (i, value, name) => {
        const op = ops[i % ops.length]!;
        const url = op.path.replace(/\{[^}]+\}/g, 'x');
        // Header values must be latin-1 without control characters to be sent at all.
        const v = value.replace(/[^\x20-\x7e]/g, '');
        const res = await send({ method: op.method, url, headers: { ...headers, [name]: v }, ...(op.method === 'POST' ? { payload: '{}' } : {}) });
        expectDocumentedBody(res.statusCode, res.headers['content-type'] as string | undefined, res.body, op.path);
      }),
      { numRuns: 200 },
    );
  });

  it('raw bytes that are not UTF-8, and a 50,000-character text with NUL and lone surrogates, are answered 4xx or stored safely', async () => {
    const bad = Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const res = await send({ method: 'POST', url: '/v1/subjects/resolve', headers: { ...headers, 'content-type': 'application/json' }, payload: bad });
    expectDocumentedBody(res.statusCode, res.headers['content-type'] as string | undefined, res.body);
    const text = `${'Fuzz Subject said prices rose 5%. '.repeat(1400)}\u0000\ud800\u202e`.slice(0, 50_000);
    const big = await send({ method: 'POST', url: '/v1/subjects/resolve', headers, payload: { text } });
    expectDocumentedBody(big.statusCode, big.headers['content-type'] as string | undefined, big.body);
    expect(big.statusCode).toBe(200);
  });
});

// Last: the log of everything above.
describe('the log after generated bad input', () => {
  it('holds no stack trace', () => {
    expect(t.log.lines.filter((l) => l.includes('incoming request')).length).toBeGreaterThan(500);
    expect(t.log.lines.filter((l) => STACK_IN_LOG.test(l)).map((l) => l.slice(0, 500))).toEqual([]);
  });
});
