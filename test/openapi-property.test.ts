import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasDotSegment } from '../api/plugins/paths.ts';
import { SCOPES } from '../core/keys.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { DocValidator, arbitraryOf, operationsOf, type Doc, type Operation, type Param } from './helpers/openapi-doc.ts';
import { storeFakeReport, storeReply, tempDataDir } from './site-fixtures.ts';

/**
 * The OpenAPI document against the service, property-based (what Schemathesis
 * does with `--checks all`, in TypeScript): for every operation of the served
 * document, requests are generated from its own schemas and sent to the real
 * app on a real database.
 *
 * - A request the document calls valid is never answered 422
 *   (positive_data_acceptance).
 * - A request the document calls invalid (a wrong type, a required field
 *   left out, a value over its limit, a query parameter the operation does
 *   not declare) is refused: 422 with the validation body, or for /mcp the
 *   transport's JSON-RPC error (400, 415) (negative_data_rejection). Whether
 *   it is invalid is decided by the document's schemas (ajv), never by the
 *   mutation that made it.
 * - Every answer has a status the operation declares, a content type the
 *   status declares, and a body valid against the declared schema; none is
 *   a 500.
 * - Every method a path does not declare is answered 405 with an Allow
 *   header naming exactly the methods it declares (and HEAD with GET).
 *
 * Failures are collected (one per check, operation and status, as
 * Schemathesis counts unique failures) and listed together, with the seed
 * (FC_SEED=<seed> replays a run).
 */

const RUNS = Number(process.env.OPENAPI_PROPERTY_RUNS ?? 100);
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

let t: TestApp;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let doc: Doc;
let v: DocValidator;
let key: string;
const known: Record<string, string[]> = {};

beforeAll(async () => {
  // A data folder of its own: no site is built in it, so the HTML route answers its documented 503
  // rather than rendering with whatever site build another run left in the shared one.
  data = await tempDataDir('openapi-prop');
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', DAILY_JOB_LIMIT: '1000000', DATA_DIR: data.dir }, 'openapi-prop');
  key = await t.key('prop', SCOPES);
  // Ids that exist, so that generated requests reach found resources too, not only 404s.
  const { reportId, subjectId, claims } = await storeFakeReport(t.db.pool, { name: 'Property Test Council', claims: 6 });
  const replyId = await storeReply(t.db.pool, claims[0]!.claim_id, subjectId, { name: 'A. Press Officer', role: 'press officer', statement: 'We dispute the figure.', counter_evidence_url: 'https://council.example/figures' });
  const job = (await t.app.inject({ method: 'POST', url: '/v1/reports', headers: bearer(key), payload: { subject_id: subjectId, refresh: true } })).json() as { job_id: string };
  await t.app.changes.settled();
  Object.assign(known, {
    subject_id: [subjectId],
    report_id: [reportId],
    report_or_job_id: [reportId, job.job_id],
    claim_id: claims.map((c) => c.claim_id),
    response_id: [replyId],
  });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Doc;
  v = new DocValidator(doc);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await data?.remove();
});

type Req = { path: Record<string, string>; query: Record<string, string>; body?: unknown; hasBody: boolean };
type Failure = { key: string; detail: string };

const idOverride = (name: string) => (known[name] ? fc.oneof(fc.constantFrom(...known[name]!), fc.constantFrom(...known[name]!)) : undefined);

const paramsIn = (op: Operation, where: Param['in']) => (op.parameters ?? []).filter((p) => p.in === where);

/** A request the document calls valid, mostly (it is checked after). */
function requestArb(op: Operation): fc.Arbitrary<Req> {
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  // No value that is a dot segment (`.`, `..`, or one inside it after a `/`): URL parsers (inject's
  // among them) remove those, even percent-encoded, before the request leaves; sent raw, the
  // service answers 400 before routing (test/framing.test.ts).
  for (const p of paramsIn(op, 'path')) pathArbs[p.name] = fc.oneof(idOverride(p.name) ?? fc.constant('x'), arbitraryOf(v, p.schema)).map(String).filter((id) => !hasDotSegment(`/${id}`));
  const queryArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of paramsIn(op, 'query')) queryArbs[p.name] = (idOverride(p.name) ? fc.oneof(idOverride(p.name)!, arbitraryOf(v, p.schema)) : arbitraryOf(v, p.schema)).map(String);
  const required = paramsIn(op, 'query').filter((p) => p.required).map((p) => p.name);
  const media = op.requestBody?.content['application/json'];
  const body: fc.Arbitrary<{ hasBody: boolean; body?: unknown }> = media?.schema
    ? fc.oneof(
        { weight: 9, arbitrary: arbitraryOf(v, media.schema, idOverride).map((b) => ({ hasBody: true, body: b })) },
        { weight: op.requestBody?.required ? 0 : 1, arbitrary: fc.constant({ hasBody: false }) },
      )
    : fc.constant({ hasBody: false });
  return fc.record({ path: fc.record(pathArbs), query: fc.record(queryArbs, { requiredKeys: required }), b: body }).map(({ path, query, b }) => ({ path, query, ...b }));
}

/** Ways to spoil a request: each makes it invalid by the document, or is skipped as not doing so. */
function mutations(op: Operation, r: Req): Req[] {
  const out: Req[] = [];
  const with_ = (patch: Partial<Req>) => out.push({ ...r, ...patch, path: { ...r.path, ...patch.path }, query: patch.query ?? { ...r.query } });
  with_({ query: { ...r.query, zz_not_a_parameter: '1' } });
  for (const p of paramsIn(op, 'query')) {
    const s = v.deref(p.schema);
    const q = (value: string) => with_({ query: { ...r.query, [p.name]: value } });
    if (s.type === 'integer') q('abc'), q(String((s.maximum ?? 1e9) + 1)), q(String((s.minimum ?? -1e9) - 1));
    if (s.enum) q('not_one_of_them');
    if (s.type === 'boolean') q('maybe');
    if (s.maxLength !== undefined) q('q'.repeat(s.maxLength + 1));
    if (p.required) {
      const { [p.name]: _gone, ...rest } = r.query;
      with_({ query: rest });
    }
  }
  for (const p of paramsIn(op, 'path')) {
    const s = v.deref(p.schema);
    if (s.maxLength !== undefined) with_({ path: { [p.name]: 'p'.repeat(s.maxLength + 1) } });
  }
  const media = op.requestBody?.content['application/json'];
  if (media?.schema) {
    with_({ hasBody: false, body: undefined });
    for (const b of [[], 42, 'text', null, true]) with_({ hasBody: true, body: b });
    const bodySchema = v.deref(media.schema);
    if (r.hasBody && r.body && typeof r.body === 'object' && !Array.isArray(r.body)) {
      const body = r.body as Record<string, unknown>;
      for (const name of bodySchema.required ?? []) {
        const { [name]: _gone, ...rest } = body;
        with_({ body: rest });
      }
      for (const [name, ps] of Object.entries(bodySchema.properties ?? {})) {
        for (const wrong of [12345, { nested: 1 }, 'a string', [1, 2], false]) with_({ body: { ...body, [name]: wrong } });
        const branches = [v.deref(ps), ...(v.deref(ps).anyOf ?? []).map((b) => v.deref(b))];
        for (const b of branches) {
          if (b.maxLength !== undefined) with_({ body: { ...body, [name]: 'z'.repeat(b.maxLength + 1) } });
          if (b.maxItems !== undefined) with_({ body: { ...body, [name]: Array.from({ length: b.maxItems + 1 }, () => 'i') } });
        }
      }
    }
  }
  return out;
}

/** Whether the document calls the request valid; with the reason when not. */
function invalidity(path: string, method: string, op: Operation, r: Req): string | null {
  const at = ['paths', path, method];
  const declared = new Set(paramsIn(op, 'query').map((p) => p.name));
  for (const name of Object.keys(r.query)) if (!declared.has(name)) return `query parameter ${name} is not declared`;
  const params = op.parameters ?? [];
  for (const [i, p] of params.entries()) {
    if (p.in !== 'query' && p.in !== 'path') continue;
    const value = p.in === 'query' ? r.query[p.name] : r.path[p.name];
    if (value === undefined) {
      if (p.required) return `${p.in} parameter ${p.name} is required`;
      continue;
    }
    const err = v.check([...at, 'parameters', String(i), 'schema'], value, true);
    if (err) return `${p.in} ${p.name}: ${err}`;
  }
  if (op.requestBody) {
    if (!r.hasBody) return op.requestBody.required ? 'the body is required' : null;
    const err = v.check([...at, 'requestBody', 'content', 'application/json', 'schema'], r.body);
    if (err) return `body: ${err}`;
  }
  return null;
}

function urlOf(path: string, r: Req): string {
  const p = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(r.path[name] ?? 'x'));
  const q = new URLSearchParams(r.query).toString();
  return q ? `${p}?${q}` : p;
}

async function send(method: string, url: string, body: { hasBody: boolean; body?: unknown }) {
  const req: InjectOptions = {
    method: method.toUpperCase() as 'GET',
    url,
    // Both media types the MCP transport asks for; every other route ignores Accept.
    headers: { ...bearer(key), accept: 'application/json, text/event-stream', ...(body.hasBody ? { 'content-type': 'application/json' } : {}) },
    ...(body.hasBody ? { payload: JSON.stringify(body.body) } : {}),
  };
  return t.app.inject(req);
}

/** Checks one answer against the operation's responses. */
function conformance(path: string, method: string, op: Operation, res: { statusCode: number; headers: Record<string, unknown>; body: string }): Failure[] {
  const name = `${method.toUpperCase()} ${path}`;
  const status = String(res.statusCode);
  if (res.statusCode >= 500 && res.statusCode !== 503) return [{ key: `server_error ${name} ${status}`, detail: res.body.slice(0, 300) }];
  const declared = op.responses[status] ?? op.responses.default;
  if (!declared) return [{ key: `status_code_conformance ${name} ${status}`, detail: `declared: ${Object.keys(op.responses).join(', ')}; body ${res.body.slice(0, 200)}` }];
  if (res.body.length === 0) return [];
  const contentType = String(res.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const media = declared.content?.[contentType];
  if (!media) return [{ key: `content_type_conformance ${name} ${status} ${contentType}`, detail: `declared: ${Object.keys(declared.content ?? {}).join(', ') || 'no content'}` }];
  if (media.schema && /[/+]json$/.test(contentType)) {
    const responseKey = op.responses[status] ? status : 'default';
    const err = v.check(['paths', path, method, 'responses', responseKey, 'content', contentType, 'schema'], JSON.parse(res.body));
    if (err) return [{ key: `response_schema_conformance ${name} ${status}`, detail: `${err}; body ${res.body.slice(0, 300)}` }];
  }
  return [];
}

/**
 * Rules between fields that JSON Schema cannot state for query parameters,
 * stated in words in the document instead: a valid-looking request that
 * breaks one gets 422 naming exactly that parameter. The test holds the
 * words to the document (the parameter's description must say it).
 */
const STATED_IN_WORDS = [{ path: '/v1/subjects/{subject_id}/claims', param: 'type', words: 'must agree' }];

function excused(path: string, op: Operation, body: string): boolean {
  const rule = STATED_IN_WORDS.find((r) => r.path === path);
  if (!rule) return false;
  const described = (op.parameters ?? []).find((p) => p.in === 'query' && p.name === rule.param)?.description ?? '';
  if (!described.includes(rule.words)) return false;
  const items = (JSON.parse(body) as { detail: { loc: unknown[] }[] }).detail;
  return items.length > 0 && items.every((d) => d.loc.length === 2 && d.loc[0] === 'query' && d.loc[1] === rule.param);
}

/** The statuses by which an operation refuses a request it cannot take: the validation body, and the MCP transport's JSON-RPC errors. */
const REFUSALS = new Set([400, 413, 415, 422]);

const failures = new Map<string, string>();
const note = (fs: Failure[]) => fs.forEach((f) => failures.has(f.key) || failures.set(f.key, f.detail));

function report(): string {
  return `${failures.size} distinct failures (seed ${SEED}; replay with FC_SEED=${SEED}):\n${[...failures].map(([k, d]) => `- ${k}: ${d}`).join('\n')}`;
}

describe('the OpenAPI document against the service', () => {
  it('generated requests, valid and invalid, to every operation: the answers are the ones documented', async () => {
    let sent = 0;
    for (const [n, { method, path, op }] of operationsOf(doc).entries()) {
      const name = `${method.toUpperCase()} ${path}`;
      const samples = fc.sample(fc.tuple(requestArb(op), fc.nat()), { numRuns: RUNS, seed: SEED + n });
      for (const [valid, pick] of samples) {
        const spoiled = mutations(op, valid);
        for (const r of [valid, spoiled[pick % spoiled.length]!].filter(Boolean)) {
          const why = invalidity(path, method, op, r);
          const res = await send(method, urlOf(path, r), r);
          sent++;
          note(conformance(path, method, op, res));
          if (why === null && REFUSALS.has(res.statusCode) && !(res.statusCode === 422 && excused(path, op, res.body))) {
            note([{ key: `positive_data_acceptance ${name}`, detail: `valid by the document, answered ${res.statusCode}: ${res.body.slice(0, 300)}; request ${urlOf(path, r)} ${JSON.stringify(r.body)?.slice(0, 300)}` }]);
          }
          if (why !== null && !REFUSALS.has(res.statusCode)) {
            const cls = res.statusCode < 300 ? 'negative_data_rejection' : 'invalid_request_status';
            note([{ key: `${cls} ${name}`, detail: `${why}; answered ${res.statusCode} ${res.body.slice(0, 200)}; request ${urlOf(path, r)}` }]);
          }
        }
      }
    }
    console.log(`${sent} requests to ${operationsOf(doc).length} operations (seed ${SEED})`);
    expect(sent).toBeGreaterThan(operationsOf(doc).length * RUNS);
    expect(failures.size, report()).toBe(0);
  }, 120_000);

  it('every method a path does not declare: 405 with Allow naming the declared ones', async () => {
    const found = new Map<string, string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      const declared = Object.keys(item).map((m) => m.toUpperCase());
      const allowed = new Set([...declared, ...(declared.includes('GET') ? ['HEAD'] : [])]);
      const url = path.replace(/\{[^}]+\}/g, 'prop_x');
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']) {
        if (allowed.has(method)) continue;
        const withBody = !['GET', 'HEAD', 'OPTIONS', 'TRACE'].includes(method);
        const res = await t.app.inject({ method: method as 'GET', url, headers: { ...bearer(key), ...(withBody ? { 'content-type': 'application/json' } : {}) }, ...(withBody ? { payload: '{}' } : {}) });
        const allow = String(res.headers.allow ?? '').split(',').map((m) => m.trim()).filter(Boolean);
        if (res.statusCode !== 405 || allow.length !== allowed.size || !allow.every((m) => allowed.has(m))) {
          found.set(`unsupported_method ${method} ${path}`, `answered ${res.statusCode}, Allow "${res.headers.allow ?? ''}", declared ${[...allowed].join(', ')}`);
        }
      }
    }
    expect(found.size, [...found].map(([k, d]) => `- ${k}: ${d}`).join('\n')).toBe(0);
  }, 60_000);
});
