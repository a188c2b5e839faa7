import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { connect as connectTools, startMcp as start, text, type Started } from './helpers/mcp.ts';

/** The real MCP client of the SDK, over streamable HTTP, against the running app. Answer shapes: test/mcp-shapes.test.ts. */

/** A connected SDK client that validates every structured answer against the tool's output schema. */
async function connect(s: Started, key = s.key, headers: Record<string, string> = {}) {
  return (await connectTools(s, key, headers)).client;
}

let sse: Started;
beforeAll(async () => {
  sse = await start({}, 'mcp_sse');
});
afterAll(() => sse.t.close());

describe('MCP server (SSE responses)', () => {
  it('refuses a client without a key, or with a wrong one, with 401', async () => {
    const raw = await fetch(sse.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(raw.status).toBe(401);
    await expect(connect(sse, `rss_${'B'.repeat(43)}`)).rejects.toThrow();
  });

  it('answers as an SSE stream by default', async () => {
    const raw = await fetch(sse.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${sse.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await raw.text();
    expect(body).toMatch(/^event: message\ndata: /m);
    expect(JSON.parse(body.split('data: ')[1]!.split('\n')[0]!)).toMatchObject({ jsonrpc: '2.0', id: 7, result: { tools: expect.any(Array) } });
  });

  it('lists the three tools, each with input and output schemas', async () => {
    const client = await connect(sse);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['check_claims', 'get_evidence', 'lookup_reliability']);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description!.length).toBeGreaterThan(40);
    }
    // name or subject_id (lookup), text or job_id (check): neither is required by itself.
    expect(tools.find((t) => t.name === 'lookup_reliability')!.inputSchema.required).toBeUndefined();
    expect(tools.find((t) => t.name === 'check_claims')!.inputSchema.required).toBeUndefined();
    expect(tools.find((t) => t.name === 'get_evidence')!.inputSchema.required).toEqual(['subject_id', 'claim_id']);
    await client.close();
  });

  let claimId: string;
  it('lookup_reliability makes the report within the call, overall score first, with the review label', async () => {
    const client = await connect(sse);
    const r = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'Brightwater Utilities' } });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as { status: string; overall: { score: number; interval_80: number[] }; review_status: string; featured_claims: { claim_id: string }[]; subject: { subject_id: string } };
    expect(s.status).toBe('complete');
    expect(s.review_status).toBe('machine-generated, unreviewed');
    expect(s.overall.score).toBeGreaterThanOrEqual(s.overall.interval_80[0]!);
    expect(text(r).split('\n')[0]).toMatch(/^Brightwater Utilities \(organisation\): overall reliability \d/);
    expect(text(r)).toMatch(/Factual claims: .*\nPromises: .*\nGuidance: .*\nPredictions: /);
    claimId = s.featured_claims[0]!.claim_id;
    // A second call is answered from the stored report.
    const again = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'Brightwater Utilities' } });
    expect((again.structuredContent as { report_id: string }).report_id).toBe((r.structuredContent as { report_id: string }).report_id);
    await client.close();
  });

  it('get_evidence returns everything behind one claim', async () => {
    const client = await connect(sse);
    const r = await client.callTool({ name: 'get_evidence', arguments: { subject_id: subjectIdFor('organisation', 'Brightwater Utilities'), claim_id: claimId } });
    const claim = (r.structuredContent as { claim: Record<string, unknown> }).claim;
    for (const f of ['quote', 'source', 'resolution_criteria', 'outcome', 'rationale', 'evidence', 'responses']) expect(claim).toHaveProperty(f);
    expect(text(r)).toMatch(/Fixed test: /);
    const missing = await client.callTool({ name: 'get_evidence', arguments: { subject_id: subjectIdFor('organisation', 'Brightwater Utilities'), claim_id: 'clm_nope' } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/Not found/);
    await client.close();
  });

  it('check_claims checks the claims of a text within the call: outcomes, no overall score', async () => {
    const client = await connect(sse);
    const r = await client.callTool({
      name: 'check_claims',
      arguments: { text: 'Brightwater Utilities cut leakage by 12% in 2024. The company will open a new treatment works by 2027.' },
    });
    expect(r.isError, text(r)).toBeFalsy();
    const s = r.structuredContent as { status: string; job_id: string; results: { outcome: string; claim_type: string }[]; review_status: string };
    expect(s.status).toBe('complete');
    expect(s.job_id).toMatch(/^job_/);
    expect(s.results.length).toBeGreaterThan(0);
    for (const c of s.results) expect(typeof c.outcome).toBe('string');
    expect(s).not.toHaveProperty('overall');
    expect(s.review_status).toBe('machine-generated, unreviewed');
    // Collecting by job id alone answers the same outcomes.
    const again = await client.callTool({ name: 'check_claims', arguments: { job_id: s.job_id } });
    expect(again.isError, text(again)).toBeFalsy();
    expect((again.structuredContent as { results: unknown[] }).results).toEqual(s.results);
    await client.close();
  });

  it('answers an ambiguous name with the candidates', async () => {
    const client = await connect(sse);
    const r = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'Jordan Avery' } });
    const s = r.structuredContent as { status: string; candidates: { kind: string }[] };
    expect(s.status).toBe('ambiguous');
    expect(s.candidates.map((c) => c.kind).sort()).toEqual(['organisation', 'person']);
    await client.close();
  });

  it('maps REST errors to tool errors that say what to do', async () => {
    const client = await connect(sse);
    const unknown = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'Nobody Known Here' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Not found/);
    const bad = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'x'.repeat(301) } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/300 characters at name/);
    await client.close();
  });

  it('refuses a browser Origin that is not allowed (403), accepts the service\'s own', async () => {
    await expect(connect(sse, sse.key, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const own = await connect(sse, sse.key, { origin: new URL(sse.url).origin });
    expect((await own.listTools()).tools).toHaveLength(3);
    await own.close();
  });

  it('answers GET and DELETE with 405: the server is stateless', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(sse.url, { method, headers: { authorization: `Bearer ${sse.key}`, accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
    }
  });
});

describe('MCP server (JSON responses, short waits, a small rate limit)', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ MCP_JSON_RESPONSE: 'true', MCP_WAIT_SECONDS: '0', RATE_LIMIT_PER_MINUTE: '12' }, 'mcp_json');
  });
  afterAll(() => s.t.close());

  it('answers pending while the report is made, and collects it on a later call', async () => {
    const raw = await fetch(s.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lookup_reliability', arguments: { name: 'Imogen Thale' } } }),
    });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    const first = (await raw.json()) as { result: { structuredContent: { status: string; job_id: string } } };
    expect(first.result.structuredContent.status).toBe('pending');
    const jobId = first.result.structuredContent.job_id;
    expect(jobId).toMatch(/^job_/);
    // Wait for the job through the database, not through requests that would spend the small rate limit.
    for (let i = 0; i < 600; i++) {
      const { rows } = await s.t.db.pool.query('SELECT status FROM jobs WHERE id = $1', [jobId]);
      if (rows[0].status === 'complete') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const client = await connect(s);
    const second = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'Imogen Thale' } });
    expect((second.structuredContent as { status: string }).status).toBe('complete');
    await client.close();
  });

  it('counts its REST requests against the same per-key rate limit', async () => {
    const key = await s.t.key('shared-limit');
    const client = await connect(s, key);
    // Every MCP request and every REST request a tool makes count; spend the minute through MCP...
    let limited = false;
    for (let i = 0; i < 12 && !limited; i++) {
      const r = await client.callTool({ name: 'get_evidence', arguments: { subject_id: subjectIdFor('person', 'Imogen Thale'), claim_id: 'clm_none' } }).catch(() => ({ isError: true, content: [{ type: 'text', text: '429' }] }));
      limited = /Limit reached|429/.test(text(r));
    }
    expect(limited).toBe(true);
    // ...and the same key is now refused on the REST route itself.
    const rest = await s.t.app.inject({ method: 'GET', url: '/v1/status', headers: { authorization: `Bearer ${key}` } });
    expect(rest.statusCode).toBe(429);
    await client.close().catch(() => {});
  });
});
