import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { ClaimsPageSchema, ResponseAckSchema } from '../core/schemas/resources.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { makeReport } from './helpers/reports.ts';
import type { Queryable } from '../core/db/pool.ts';

/** POST /v1/responses: a reply stored against a claim and shown on it, on a real report made by the real pipeline. */

let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');
const STATUS = 'response received, not yet reviewed';

const post = (headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url: '/v1/responses', headers, payload });
const claims = async (headers: Record<string, string>) =>
  ClaimsPageSchema.parse((await t.app.inject({ method: 'GET', url: `/v1/subjects/${BRIGHTWATER}/claims?page_size=200`, headers })).json());

const report = (headers: Record<string, string>, payload: object) => makeReport(t, headers, payload);

/** A demo subject and one demo claim, as the demo import stores them (migration 005's table). */
async function insertDemoClaim(db: Queryable, o: { subjectName: string; claimId: string }) {
  const subjectId = subjectIdFor('person', o.subjectName);
  await db.query(
    `INSERT INTO subjects (id, name, kind, description, demo, name_keys) VALUES ($1, $2, 'person', 'TEST DATA (invented).', true, ARRAY[lower($2)])
     ON CONFLICT (id) DO NOTHING`,
    [subjectId, o.subjectName],
  );
  const data = {
    claim_id: o.claimId, claim_type: 'factual', topic: 'economy', quote: 'Unemployment fell to 4% last year.', quote_verified: true, said_on: '2024-03-01',
    source: { url: 'https://demo.example/statement', title: 'Statement', outlet: 'Demo Outlet', published: '2024-03-01' },
    resolution_criteria: 'True if an independent source confirms it.', due: null, outcome: 'mostly_true', on_time: null,
    rationale: 'An independent source reports 4.2%.', evidence: [], judges_disagree: false,
  };
  await db.query(
    `INSERT INTO demo_claims (claim_id, subject_id, dataset, data, publisher_rating, published_outcome) VALUES ($1, $2, 'test-set', $3, 'half-true', 'mixed')`,
    [o.claimId, subjectId, JSON.stringify(data)],
  );
  return { subjectId, claimId: o.claimId };
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'responses', { workers: true });
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  alice = bearer(await t.key('alice'));
  bob = bearer(await t.key('bob'));
  await report(alice, { subject_id: BRIGHTWATER });
}, 120_000);
afterAll(() => t.close());

describe('a reply to a claim', () => {
  let claimId: string;
  let first: ReturnType<typeof ResponseAckSchema.parse>;

  it('is stored and acknowledged', async () => {
    claimId = (await claims(alice)).claims[3]!.claim_id;
    const res = await post(alice, {
      claim_id: claimId, name: 'Lena Marsh', role: 'Chief executive, Brightwater Utilities',
      statement: 'The figure counts pipes replaced by our contractors too; see our audited report.', counter_evidence_url: 'https://brightwater-utilities.example/annual-report-2024',
    });
    expect(res.statusCode).toBe(200);
    first = ResponseAckSchema.parse(res.json());
    expect(Object.keys(res.json()).sort()).toEqual(['claim_id', 'received_at', 'response_id', 'status', 'subject_id']);
    expect(first).toMatchObject({ claim_id: claimId, subject_id: BRIGHTWATER, status: STATUS });
    expect(first.response_id).toMatch(/^rsp_[0-9a-f]{20}$/);
    expect(Date.now() - Date.parse(first.received_at)).toBeLessThan(60_000);
  });

  it('shows on the claim in the claims list, to every key, newest first; other claims carry none', async () => {
    const second = ResponseAckSchema.parse((await post(bob, { claim_id: claimId, name: 'A second sender', statement: 'A further correction.' })).json());
    const page = await claims(bob);
    const claim = page.claims.find((c) => c.claim_id === claimId)!;
    expect(claim.responses).toEqual([
      { response_id: second.response_id, name: 'A second sender', role: null, statement: 'A further correction.', counter_evidence_url: null, received_at: second.received_at, status: STATUS, review: null },
      {
        response_id: first.response_id, name: 'Lena Marsh', role: 'Chief executive, Brightwater Utilities',
        statement: 'The figure counts pipes replaced by our contractors too; see our audited report.',
        counter_evidence_url: 'https://brightwater-utilities.example/annual-report-2024', received_at: first.received_at, status: STATUS, review: null,
      },
    ]);
    expect(claim.responses_total).toBe(2);
    expect(claim.responses_url).toBe(`/v1/claims/${claimId}/responses`);
    // The claim's own verdict and review label are unchanged by a reply.
    expect(claim.review_status).toBe('machine-generated, unreviewed');
    for (const c of page.claims.filter((c) => c.claim_id !== claimId)) expect(c).toMatchObject({ responses: [], responses_total: 0 });
    // Filters and paging keep the replies on the claim.
    const filtered = ClaimsPageSchema.parse((await t.app.inject({ method: 'GET', url: `/v1/subjects/${BRIGHTWATER}/claims?claim_type=${claim.claim_type}&page_size=200`, headers: alice })).json());
    expect(filtered.claims.find((c) => c.claim_id === claimId)!.responses).toHaveLength(2);
    // The key that sent a reply is never shown.
    expect(JSON.stringify(page)).not.toMatch(/key_id/);
  });

  it('stays on the claim when the report is remade', async () => {
    const before = await claims(alice);
    const newReport = await report(alice, { subject_id: BRIGHTWATER, refresh: true });
    const after = await claims(alice);
    expect(after.report_id).toBe(newReport);
    expect(after.report_id).not.toBe(before.report_id);
    expect(after.claims.find((c) => c.claim_id === claimId)!.responses.map((r) => r.response_id)).toContain(first.response_id);
  });

  it('may be sent on a demo claim', async () => {
    const demo = await insertDemoClaim(t.db.pool, { subjectName: 'Responses Demo Speaker', claimId: 'clm_demo_responses_1' });
    const res = await post(alice, { claim_id: demo.claimId, name: 'Demo Speaker', statement: 'That quote was cut short.' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ claim_id: demo.claimId, subject_id: demo.subjectId, status: STATUS });
    const { rows } = await t.db.pool.query('SELECT claim_id, subject_id, status FROM responses WHERE id = $1', [res.json().response_id]);
    expect(rows).toEqual([{ claim_id: demo.claimId, subject_id: demo.subjectId, status: STATUS }]);
  });
});

describe('refusals', () => {
  it('an unknown claim, or a check result\'s id: 404 problem, nothing stored', async () => {
    for (const claim_id of ['clm_00000000000000000000', 'chk_00000000000000000000']) {
      const res = await post(alice, { claim_id, name: 'Someone', statement: 'A reply.' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 404, type: '/problems/not-found' });
    }
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM responses WHERE claim_id LIKE '%00000000'`)).rows[0].n).toBe(0);
  });

  it('counter_evidence_url must be an http or https URL (422)', async () => {
    const claim_id = (await claims(alice)).claims[0]!.claim_id;
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://files.example/x', 'file:///etc/passwd', 'brightwater.example/report', 'https://', 'http:// spaced.example', 'mailto:a@b.example']) {
      const res = await post(alice, { claim_id, name: 'Someone', statement: 'A reply.', counter_evidence_url: url });
      expect(res.statusCode, url).toBe(422);
      const item = res.json().detail.find((d: { loc: unknown[] }) => JSON.stringify(d.loc) === '["body","counter_evidence_url"]');
      expect(item, url).toBeDefined();
    }
    for (const url of ['http://example.org/evidence', 'HTTPS://Example.org/a?b=c#d']) {
      expect((await post(alice, { claim_id, name: 'Someone', statement: 'A reply.', counter_evidence_url: url })).statusCode, url).toBe(200);
    }
  });

  it('the required fields and their limits (422)', async () => {
    const claim_id = (await claims(alice)).claims[0]!.claim_id;
    const cases: [object, string][] = [
      [{ claim_id, statement: 'x' }, 'name'],
      [{ claim_id, name: 'x' }, 'statement'],
      [{ claim_id, name: 'n'.repeat(301), statement: 'x' }, 'name'],
      [{ claim_id, name: 'x', statement: 'x', role: 'r'.repeat(301) }, 'role'],
      [{ claim_id, name: '', statement: 'x' }, 'name'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(alice, payload);
      expect(res.statusCode, field).toBe(422);
      expect(res.json().detail.map((d: { loc: unknown[] }) => d.loc.join('.'))).toContain(`body.${field}`);
    }
  });
});
