import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allExamples } from '../core/schemas/examples.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { DocValidator, operationsOf, type Doc as FullDoc } from './helpers/openapi-doc.ts';

type Schema = { $ref?: string; type?: string | string[]; maxLength?: number; maxItems?: number; minimum?: number; maximum?: number; enum?: unknown[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; required?: string[]; default?: unknown };
type Param = { name: string; in: string; required?: boolean; schema: Schema };
type Operation = { operationId: string; parameters?: Param[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema?: Schema }> }>; security?: unknown[] };
type Doc = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> } };

let t: TestApp;
let doc: Doc;
beforeAll(async () => {
  t = await startTestApp({}, 'openapi');
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => t.close());

/** Follows $ref and nullable unions down to the schema that holds the constraints. */
function resolve(s: Schema | undefined): Schema {
  if (!s) throw new Error('no schema');
  if (s.$ref) return resolve(doc.components.schemas[s.$ref.split('/').pop()!]);
  // A nullable union; an object's own anyOf (a rule between its fields) is not one.
  const branches = s.properties ? undefined : (s.anyOf ?? s.oneOf);
  if (branches) {
    const concrete = branches.map(resolve).find((b) => b.type !== 'null');
    if (concrete) return { ...concrete, ...('default' in s ? { default: s.default } : {}) };
  }
  return s;
}

function bodyOf(path: string, method = 'post'): Schema {
  return resolve(doc.paths[path]![method]!.requestBody!.content['application/json']!.schema);
}

describe('OpenAPI description', () => {
  it('is OpenAPI 3.1 declaring interface version 0.1, the same at both addresses, with bearer auth', async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe('0.1');
    const other = (await t.app.inject({ method: 'GET', url: '/developers/openapi.json' })).json();
    expect(other).toEqual(doc);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists every route of the spec', () => {
    const ops = Object.entries(doc.paths).flatMap(([p, m]) => Object.keys(m).map((x) => `${x.toUpperCase()} ${p}`));
    expect(ops).toEqual(expect.arrayContaining([
      'GET /health', 'GET /v1/status', 'POST /v1/subjects/resolve', 'GET /v1/subjects', 'GET /v1/subjects/{subject_id}',
      'POST /v1/reports', 'GET /v1/reports/{report_or_job_id}', 'GET /v1/reports/{report_id}/html',
      'GET /v1/subjects/{subject_id}/claims', 'GET /v1/export', 'POST /v1/check', 'POST /v1/responses', 'GET /v1/demo',
      'POST /v1/labels', 'GET /v1/labels', 'GET /v1/labels/claims', 'GET /v1/methodology',
    ]));
  });

  it('carries the spec\'s body constraints', () => {
    const report = bodyOf('/v1/reports');
    const p = report.properties!;
    expect(resolve(p.subject_id).maxLength).toBe(100);
    expect(resolve(p.name).maxLength).toBe(300);
    expect(resolve(p.urls).maxItems).toBe(20);
    expect(resolve(p.handles).maxItems).toBe(20);
    expect(resolve(p.kind).enum).toEqual(['person', 'organisation', 'outlet']);
    expect(resolve(p.topic).maxLength).toBe(200);
    expect(resolve(p.depth)).toMatchObject({ enum: ['quick', 'standard'], default: 'quick' });
    expect(resolve(p.consent_ref).maxLength).toBe(300);
    expect(resolve(p.refresh)).toMatchObject({ type: 'boolean', default: false });
    expect(report.required ?? []).toEqual([]);
    // No field is required by itself, but one must say who: the refinement, as JSON Schema.
    expect(report.anyOf!.map((b) => b.required![0]).sort()).toEqual(['handles', 'name', 'subject_id', 'urls']);
    expect(bodyOf('/v1/subjects/resolve').anyOf!.map((b) => b.required![0]).sort()).toEqual(['handles', 'name', 'text', 'urls']);
    expect(bodyOf('/v1/check').anyOf!.map((b) => b.required![0]).sort()).toEqual(['claims', 'text']);

    const resolveReq = bodyOf('/v1/subjects/resolve').properties!;
    expect(resolve(resolveReq.text).maxLength).toBe(50_000);

    const check = bodyOf('/v1/check').properties!;
    expect(resolve(check.text).maxLength).toBe(50_000);
    expect(resolve(check.claims).maxItems).toBe(50);
    const claim = resolve(resolve(check.claims).items);
    expect(resolve(claim.properties!.text).maxLength).toBe(5000);
    expect(resolve(claim.properties!.source_url).maxLength).toBe(2000);
    expect(claim.required).toEqual(['text']);
    expect(resolve(check.author).maxLength).toBe(300);

    const response = bodyOf('/v1/responses');
    expect(response.required!.sort()).toEqual(['claim_id', 'name', 'statement']);
    expect(resolve(response.properties!.statement).maxLength).toBe(10_000);
    expect(resolve(response.properties!.counter_evidence_url).maxLength).toBe(2000);

    const label = bodyOf('/v1/labels');
    expect(label.required!.sort()).toEqual(['claim_id', 'verdict']);
    expect(resolve(label.properties!.verdict).enum).toEqual(['true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'unresolvable', 'not_a_claim']);
    expect(resolve(label.properties!.note).maxLength).toBe(2000);
    expect(resolve(label.properties!.reviewer).maxLength).toBe(200);
  });

  it('carries the query parameters with their limits', () => {
    const params = (path: string) => Object.fromEntries((doc.paths[path]!.get!.parameters ?? []).map((p) => [`${p.in}:${p.name}`, p]));
    const claims = params('/v1/subjects/{subject_id}/claims');
    expect(Object.keys(claims).sort()).toEqual(['path:subject_id', 'query:claim_type', 'query:outcome', 'query:page', 'query:page_size', 'query:topic', 'query:type']);
    expect(resolve(claims['query:page']!.schema)).toMatchObject({ minimum: 1, default: 1 });
    expect(resolve(claims['query:page_size']!.schema)).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    const exp = params('/v1/export');
    expect(resolve(exp['query:format']!.schema)).toMatchObject({ enum: ['jsonl', 'csv'], default: 'jsonl' });
    expect(resolve(exp['query:table']!.schema)).toMatchObject({ enum: ['claims', 'scores', 'reviews'], default: 'claims' });
    expect(resolve(exp['query:include_demo']!.schema)).toMatchObject({ default: false });
    expect(params('/v1/labels/claims')['query:subject_id']!.required).toBe(true);
    // Every list is paged alike, and says so: the parameters, and `paging` in the answer.
    for (const path of ['/v1/subjects', '/v1/subjects/{subject_id}/claims', '/v1/labels', '/v1/labels/claims', '/v1/demo']) {
      const p = params(path);
      expect(resolve(p['query:page']!.schema), path).toMatchObject({ minimum: 1, default: 1 });
      expect(resolve(p['query:page_size']!.schema), path).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
      const body = resolve(doc.paths[path]!.get!.responses['200']!.content!['application/json']!.schema!);
      expect(body.required, path).toContain('paging');
      expect(Object.keys(resolve(body.properties!.paging!).properties ?? {}).sort(), path).toEqual(['page', 'page_size', 'total', 'total_pages']);
    }
    expect(resolve(params('/v1/methodology')['query:format']!.schema).enum).toEqual(['json', 'markdown', 'html']);
  });

  it('declares responses with schemas, and the error bodies every secured route can give', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const codes = Object.keys(op.responses);
        expect(codes.some((c) => c.startsWith('2')) || path === '/mcp', `${method} ${path}`).toBe(true);
        if ((op.security ?? []).length) expect(codes, `${method} ${path}`).toEqual(expect.arrayContaining(['401', '429']));
        if (op.requestBody) expect(codes).toEqual(expect.arrayContaining(['413', '422']));
        if (op.responses['422']) expect(op.responses['422'].content!['application/json']!.schema!.$ref).toMatch(/ValidationError$/);
        if (op.responses['401']) expect(op.responses['401'].content!['application/problem+json']!.schema!.$ref).toMatch(/Problem$/);
      }
    }
    const report = doc.paths['/v1/reports']!.post!.responses;
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['200', '202', '409', '503']));
    const stored = resolve(report['200']!.content!['application/json']!.schema);
    expect(Object.keys(stored.properties!).sort()).toEqual(['generated_at', 'html_url', 'report', 'report_id', 'stale', 'status', 'topic']);
    const claim = resolve(doc.components.schemas.Claim);
    for (const f of ['claim_id', 'claim_type', 'quote', 'quote_verified', 'said_on', 'source', 'resolution_criteria', 'outcome', 'on_time', 'rationale', 'evidence', 'judges_disagree', 'responses', 'review_status']) {
      expect(claim.properties, f).toHaveProperty(f);
    }
  });
});

describe('a description a client generator can use', () => {
  it('declares every request body required, as the service treats an absent one as {} and refuses it', () => {
    for (const { method, path, op } of operationsOf(doc as unknown as FullDoc)) {
      if (op.requestBody) expect(op.requestBody.required, `${method} ${path}`).toBe(true);
    }
  });

  it('has an example on every request body and every response body, valid against its own schema', () => {
    const full = doc as unknown as FullDoc;
    const v = new DocValidator(full);
    let checked = 0;
    for (const { method, path, op } of operationsOf(full)) {
      const media = [
        ...Object.entries(op.requestBody?.content ?? {}).map(([type, m]) => ({ at: ['requestBody', 'content', type], m })),
        ...Object.entries(op.responses).flatMap(([status, r]) => Object.entries(r.content ?? {}).map(([type, m]) => ({ at: ['responses', status, 'content', type], m }))),
      ];
      for (const { at, m } of media) {
        const where = `${method} ${path} ${at.join(' ')}`;
        expect(m.schema, where).toBeDefined();
        expect(m.example, where).toBeDefined();
        expect(v.check(['paths', path, method, ...at, 'schema'], m.example), where).toBeNull();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('parses every example with the zod schema it illustrates', () => {
    for (const [schema, example] of allExamples()) expect(schema.safeParse(example).error, JSON.stringify(example).slice(0, 200)).toBeUndefined();
  });

  it('describes every tag, and every operation names declared tags', () => {
    const tags = (doc as unknown as FullDoc).tags ?? [];
    for (const tag of tags) expect(tag.description?.length, tag.name).toBeGreaterThan(20);
    const names = new Set(tags.map((g) => g.name));
    for (const { op } of operationsOf(doc as unknown as FullDoc)) for (const tag of op.tags ?? []) expect(names.has(tag), tag).toBe(true);
  });

  it('lists every media type a response really has', () => {
    const types = (path: string, method = 'get') => Object.keys(doc.paths[path]![method]!.responses['200']!.content ?? {}).sort();
    expect(types('/v1/export')).toEqual(['application/x-ndjson', 'text/csv']);
    expect(types('/v1/labels')).toEqual(['application/json', 'text/csv']);
    expect(types('/v1/methodology')).toEqual(['application/json', 'text/html', 'text/markdown']);
    expect(types('/v1/reports/{report_id}/html')).toEqual(['text/html']);
    expect(types('/mcp', 'post')).toEqual(['application/json', 'text/event-stream']);
  });

  it('leaves out the routes that only refuse a method: GET and DELETE /mcp are 405 like any undeclared method', () => {
    expect(Object.keys(doc.paths['/mcp']!)).toEqual(['post']);
    expect(doc.paths['/v1/subjects/resolve']!.get).toBeUndefined();
  });
});
