import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { CLAIM_COLUMNS, SCORE_COLUMNS } from '../core/export.ts';
import { makeReport } from '../jobs/research.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
let headers: Record<string, string>;
const ORG = subjectIdFor('organisation', 'Harrowfield Water Board');

// A pack written here: an invented subject whose quote begins with '=' (a formula, if a spreadsheet ran it).
const pack = [
  { record: 'subject', name: 'Harrowfield Water Board', kind: 'organisation', aliases: ['Harrowfield Water'], description: 'TEST DATA (invented).', urls: ['https://harrowfield-water.example'] },
  ...[2021, 2022, 2023, 2024, 2025, 2026].map((y, i) => ({
    record: 'document', url: `https://harrowfield-water.example/press/${y}`, title: `Annual figures ${y}`, publisher: 'Harrowfield Water Board', published: `${y}-03-01`, speakers: ['Harrowfield Water Board'],
    text: `Harrowfield Water fixed ${1000 + i * 100} leaks in ${y - 1}. We will replace ${20 + i} pumping stations by December ${y + 1}.`,
  })),
  ...[2021, 2022, 2023, 2024, 2025, 2026].map((y, i) => ({
    record: 'document', url: `https://county-audit.example/${y}`, title: `Audit ${y}`, publisher: 'County Audit Office', published: `${y}-06-01`, speakers: [],
    text: `The audit found Harrowfield Water fixed ${1000 + i * 100} leaks in ${y - 1}. Harrowfield Water replaced ${20 + i} pumping stations by December ${y + 1}.`,
  })),
];

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'export');
  headers = bearer(await t.key());
  await ingestPack(t.db.pool, Readable.from(pack.map((p) => `${JSON.stringify(p)}\n`)));
  const r = await makeReport(t.db.pool, ORG, { today: '2026-11-21' });
  expect(r.status).toBe('complete');
  // A demo subject with one demo claim, left out unless asked for.
  await ingestPack(t.db.pool, Readable.from([`${JSON.stringify({ record: 'subject', name: 'Demo Speaker', kind: 'person', demo: true, description: 'TEST DATA (invented): demo.' })}\n`]));
  await t.db.pool.query(
    `INSERT INTO demo_claims (claim_id, subject_id, dataset, data, publisher_rating, published_outcome) VALUES ('clm_demo1', $1, 'test-set', $2, 'half-true', 'mixed')`,
    [subjectIdFor('person', 'Demo Speaker'), JSON.stringify({ claim_id: 'clm_demo1', claim_type: 'factual', topic: 'other', quote: '=HYPERLINK("http://x")', outcome: 'unresolvable', evidence: [] })],
  );
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers });

describe('GET /v1/export', () => {
  it('JSON Lines: subject, score and claim records of every subject\'s latest report', async () => {
    const res = await get('/v1/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="reliability-\d{4}-\d{2}-\d{2}\.jsonl"/);
    const records = res.body.trim().split('\n').map((l) => JSON.parse(l));
    const kinds = new Set(records.map((r) => r.record));
    expect([...kinds].sort()).toEqual(['claim', 'score', 'subject']);
    expect(records.filter((r) => r.record === 'subject').map((r) => r.subject_id)).toEqual([ORG]);
    const claims = records.filter((r) => r.record === 'claim');
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM claims c JOIN reports r ON r.id = c.report_id WHERE r.subject_id = $1', [ORG]);
    expect(claims.length).toBe(rows[0].n);
    for (const c of claims) {
      expect(c).toMatchObject({ subject_id: ORG, review_status: 'machine-generated, unreviewed' });
      expect(c).toHaveProperty('quote');
      expect(c).toHaveProperty('outcome');
      expect(Array.isArray(c.evidence)).toBe(true);
    }
    expect(records.find((r) => r.record === 'score' && r.type === 'overall')).toMatchObject({ subject_id: ORG, interval_80: expect.any(Array) });
    // Every record says which report it comes from: null is the whole record (reports on one topic: test/report-topics.test.ts).
    for (const r of records.filter((x) => x.record === 'score')) expect(r.topic).toBeNull();
    for (const c of claims) expect(c.report_topic).toBeNull();
  });

  it('leaves demo subjects out unless include_demo is true', async () => {
    const without = (await get('/v1/export')).body;
    expect(without).not.toContain('clm_demo1');
    const withDemo = (await get('/v1/export?include_demo=true')).body.trim().split('\n').map((l) => JSON.parse(l));
    expect(withDemo.find((r) => r.claim_id === 'clm_demo1')).toMatchObject({ demo: { dataset: 'test-set', published_outcome: 'mixed' } });
  });

  it('CSV claims and scores tables, with a header, quoted cells, and formulas neutralised', async () => {
    const claims = await get('/v1/export?format=csv&include_demo=true');
    expect(claims.headers['content-type']).toMatch(/^text\/csv/);
    const lines = claims.body.trim().split('\n');
    expect(lines[0]).toBe(CLAIM_COLUMNS.join(','));
    expect(claims.body).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(claims.body).not.toMatch(/,=HYPERLINK/);
    const scores = await get('/v1/export?format=csv&table=scores');
    const rows = scores.body.trim().split('\n');
    expect(rows[0]).toBe(SCORE_COLUMNS.join(','));
    expect(rows.some((r) => r.startsWith(`${ORG},Harrowfield Water Board,`) && r.includes(',overall,'))).toBe(true);
    // The scores table's topic column: empty for the whole record.
    expect(SCORE_COLUMNS).toContain('topic');
    expect(CLAIM_COLUMNS).toContain('report_topic');
    expect(rows.find((r) => r.includes(',overall,'))).toMatch(/,\d+\.\d+\.\d+[^,]*,,overall,/);
  });

  it('limits the export to one subject', async () => {
    const one = await get(`/v1/export?subject_id=${ORG}`);
    expect(one.body.trim().split('\n').every((l) => JSON.parse(l).subject_id === ORG)).toBe(true);
    const none = await get('/v1/export?subject_id=sub_0000000000000000');
    expect(none.statusCode).toBe(200);
    expect(none.body).toBe('');
  });
});
