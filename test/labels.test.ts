import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import type { Queryable } from '../core/db/pool.ts';
import { LABEL_CSV_COLUMNS, labelsCsv } from '../core/labels.ts';
import { ClaimsPageSchema, JobPollSchema, LabelAckSchema, LabelListSchema, LabelQueueSchema } from '../core/schemas/resources.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';

/**
 * Labels: the blind queue, verdicts per key (one per claim, replaced by a
 * second), the caller's own list as JSON and CSV, and demo claims with their
 * published outcomes. On a real report made by the real pipeline, and demo
 * claims stored as the demo import stores them.
 */

let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
let carol: Record<string, string>;
const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');
const THALE = subjectIdFor('person', 'Imogen Thale');
const DEMO = subjectIdFor('person', 'Labels Demo Speaker');
const DEMO_CLAIMS = [
  { claim_id: 'clm_demo_labels_1', outcome: 'mostly_true', rationale: 'An independent source reports 4.2%, near the claimed 4%.', rating: 'Half True', published: 'mixed' },
  { claim_id: 'clm_demo_labels_2', outcome: 'false', rationale: 'The bridge opened in 2019, not 2021.', rating: 'Pants on Fire', published: 'false' },
] as const;

/** A demo subject and its claims, as the demo import stores them (migration 005's table). */
async function insertDemoClaims(db: Queryable) {
  await db.query(
    `INSERT INTO subjects (id, name, kind, description, demo, name_keys) VALUES ($1, 'Labels Demo Speaker', 'person', 'TEST DATA (invented).', true, ARRAY['labels demo speaker'])`,
    [DEMO],
  );
  for (const [i, c] of DEMO_CLAIMS.entries()) {
    const data = {
      claim_id: c.claim_id, claim_type: 'factual', topic: 'economy', quote: `Demo statement number ${i + 1} with a figure of ${i + 4}%.`, quote_verified: true, said_on: `2024-0${i + 1}-01`,
      source: { url: `https://demo.example/statement/${i}`, title: 'Statement', outlet: 'Demo Outlet', published: `2024-0${i + 1}-01` },
      resolution_criteria: 'True if an independent source confirms it.', due: null, outcome: c.outcome, on_time: null, rationale: c.rationale,
      evidence: [{ url: `https://independent.example/${i}`, publisher: 'Independent Desk', published: '2024-05-01', quote: 'A passage that bears on it.', independent_of_subject: true }],
      judges_disagree: i === 1,
    };
    await db.query(
      `INSERT INTO demo_claims (claim_id, subject_id, dataset, data, publisher_rating, published_outcome) VALUES ($1, $2, 'test-set', $3, $4, $5)`,
      [c.claim_id, DEMO, JSON.stringify(data), c.rating, c.published],
    );
  }
}

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'labels', { workers: true });
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
  await insertDemoClaims(t.db.pool);
  [alice, bob, carol] = [bearer(await t.key('alice')), bearer(await t.key('bob')), bearer(await t.key('carol'))];
  const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers: alice, payload: { subject_id: BRIGHTWATER } });
  await until(async () => JobPollSchema.parse((await t.app.inject({ method: 'GET', url: `/v1/reports/${res.json().job_id}`, headers: alice })).json()).status === 'complete', 'the report', 60_000, 100);
}, 120_000);
afterAll(() => t.close());

const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: 'GET', url, headers });
const label = (headers: Record<string, string>, payload: object) => t.app.inject({ method: 'POST', url: '/v1/labels', headers, payload });
const queue = async (headers: Record<string, string>, subjectId = BRIGHTWATER) => {
  const res = await get(headers, `/v1/labels/claims?subject_id=${subjectId}&page_size=200`);
  expect(res.statusCode).toBe(200);
  return LabelQueueSchema.parse(res.json());
};
const list = async (headers: Record<string, string>, query = '') => LabelListSchema.parse((await get(headers, `/v1/labels${query}`)).json()).labels;
const claimsOf = async () => ClaimsPageSchema.parse((await get(alice, `/v1/subjects/${BRIGHTWATER}/claims?page_size=200`)).json());

const BLIND_KEYS = ['claim_id', 'claim_type', 'evidence', 'label', 'labelled', 'machine', 'quote', 'resolution_criteria', 'said_on', 'source'];

describe('the blind queue', () => {
  it('lists the latest report\'s claims with quote, source, fixed test and evidence, and nothing of the verdict', async () => {
    const all = await claimsOf();
    const q = await queue(alice);
    expect(q).toMatchObject({ subject_id: BRIGHTWATER, report_id: all.report_id, labelled: 0 });
    expect(q.claims.map((c) => c.claim_id)).toEqual(all.claims.map((c) => c.claim_id));
    for (const [i, item] of q.claims.entries()) {
      const claim = all.claims[i]!;
      const raw = (await get(alice, `/v1/labels/claims?subject_id=${BRIGHTWATER}`)).json().claims[i];
      expect(Object.keys(raw).sort()).toEqual(BLIND_KEYS);
      expect(item).toMatchObject({ labelled: false, label: null, machine: null, quote: claim.quote, resolution_criteria: claim.resolution_criteria });
      expect(item.evidence).toEqual(claim.evidence);
      const text = JSON.stringify(raw);
      expect(text).not.toContain(claim.rationale);
      expect(text).not.toMatch(/"(outcome|rationale|judges_disagree|on_time)"/);
    }
  });

  it('a subject that is not known: 404; a known one with nothing researched: an empty queue', async () => {
    const res = await get(alice, '/v1/labels/claims?subject_id=sub_0000000000000000');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404, type: '/problems/not-found' });
    expect(await queue(alice, THALE)).toEqual({ subject_id: THALE, report_id: null, claims: [], labelled: 0, paging: { page: 1, page_size: 200, total: 0, total_pages: 0 } });
  });
});

describe('labelling', () => {
  it('reveals the machine verdict in the answer, then in the caller\'s queue, and to no other key', async () => {
    const all = await claimsOf();
    const x = all.claims[0]!;
    const res = await label(alice, { claim_id: x.claim_id, verdict: 'mostly_true', note: 'Close enough.', reviewer: 'alice' });
    expect(res.statusCode).toBe(200);
    const ack = LabelAckSchema.parse(res.json());
    expect(ack).toMatchObject({
      replaced: false,
      machine: { outcome: x.outcome, rationale: x.rationale, judges_disagree: x.judges_disagree, review_status: 'machine-generated, unreviewed' },
      published: null,
      label: { claim_id: x.claim_id, subject_id: BRIGHTWATER, verdict: 'mostly_true', on_time: null, note: 'Close enough.', reviewer: 'alice' },
    });

    const mine = await queue(alice);
    expect(mine.labelled).toBe(1);
    const item = mine.claims.find((c) => c.claim_id === x.claim_id)!;
    expect(item).toMatchObject({ labelled: true, label: { verdict: 'mostly_true' }, machine: ack.machine });
    for (const other of mine.claims.filter((c) => c.claim_id !== x.claim_id)) expect(other.machine).toBeNull();

    const theirs = await queue(bob);
    expect(theirs.labelled).toBe(0);
    expect(theirs.claims.find((c) => c.claim_id === x.claim_id)).toMatchObject({ labelled: false, label: null, machine: null });
  });

  it('a second verdict on the same claim replaces the first', async () => {
    const x = (await claimsOf()).claims[0]!;
    const res = await label(alice, { claim_id: x.claim_id, verdict: 'false', on_time: false });
    expect(res.statusCode).toBe(200);
    const ack = LabelAckSchema.parse(res.json());
    expect(ack.replaced).toBe(true);
    expect(ack.label).toMatchObject({ verdict: 'false', on_time: false, note: null, reviewer: null });
    const labels = (await list(alice)).filter((l) => l.claim_id === x.claim_id);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ verdict: 'false', note: null });
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM labels WHERE claim_id = $1`, [x.claim_id]);
    expect(rows[0].n).toBe(1);
  });

  it('an unknown claim, or a check result\'s id: 404, nothing stored', async () => {
    for (const claim_id of ['clm_00000000000000000000', 'chk_00000000000000000000']) {
      const res = await label(alice, { claim_id, verdict: 'true' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, type: '/problems/not-found' });
    }
    expect((await t.db.pool.query(`SELECT count(*)::int AS n FROM labels WHERE claim_id LIKE '%00000000'`)).rows[0].n).toBe(0);
  });
});

describe('demo claims', () => {
  it('are in their subject\'s queue, blind: neither the machine verdict nor the published outcome shows', async () => {
    const q = await queue(carol, DEMO);
    expect(q).toMatchObject({ subject_id: DEMO, report_id: null, labelled: 0 });
    // Newest said first.
    expect(q.claims.map((c) => c.claim_id)).toEqual([DEMO_CLAIMS[1].claim_id, DEMO_CLAIMS[0].claim_id]);
    const text = JSON.stringify((await get(carol, `/v1/labels/claims?subject_id=${DEMO}`)).json());
    for (const c of DEMO_CLAIMS) {
      expect(text).not.toContain(c.rating);
      expect(text).not.toContain(c.rationale);
    }
    expect(text).not.toMatch(/"(outcome|rationale|publisher_rating|published_outcome|dataset|judges_disagree)"/);
    for (const item of q.claims) expect(Object.keys(item).sort()).toEqual(BLIND_KEYS);
  });

  it('labelling one reveals the machine verdict and the published outcome', async () => {
    const c = DEMO_CLAIMS[1];
    const ack = LabelAckSchema.parse((await label(carol, { claim_id: c.claim_id, verdict: 'mixed' })).json());
    expect(ack).toMatchObject({
      replaced: false,
      label: { subject_id: DEMO, verdict: 'mixed' },
      machine: { outcome: 'false', rationale: c.rationale, judges_disagree: true },
      published: { outcome: 'false', publisher_rating: 'Pants on Fire', dataset: 'test-set' },
    });
    const q = await queue(carol, DEMO);
    expect(q.claims.find((x) => x.claim_id === c.claim_id)!.machine).toMatchObject({ outcome: 'false' });
    expect(q.claims.find((x) => x.claim_id === DEMO_CLAIMS[0].claim_id)!.machine).toBeNull();
  });
});

describe('the caller\'s own labels', () => {
  it('GET /v1/labels: only the labels made with the caller\'s key, optionally for one subject', async () => {
    const all = await claimsOf();
    const [x, y] = [all.claims[0]!, all.claims[1]!];
    // Bob labels the claim Alice labelled, and another; both label a demo claim.
    expect((await label(bob, { claim_id: x.claim_id, verdict: 'true', note: 'bob was here' })).statusCode).toBe(200);
    expect((await label(bob, { claim_id: y.claim_id, verdict: 'unresolvable' })).statusCode).toBe(200);
    expect((await label(bob, { claim_id: DEMO_CLAIMS[0].claim_id, verdict: 'not_a_claim' })).statusCode).toBe(200);
    expect((await label(alice, { claim_id: DEMO_CLAIMS[0].claim_id, verdict: 'true' })).statusCode).toBe(200);

    const a = await list(alice);
    expect(a.map((l) => [l.claim_id, l.verdict])).toEqual([[x.claim_id, 'false'], [DEMO_CLAIMS[0].claim_id, 'true']]);
    const b = await list(bob);
    expect(b.map((l) => [l.claim_id, l.verdict])).toEqual([[x.claim_id, 'true'], [y.claim_id, 'unresolvable'], [DEMO_CLAIMS[0].claim_id, 'not_a_claim']]);
    expect(JSON.stringify(a)).not.toContain('bob was here');
    expect(await list(alice, `?subject_id=${BRIGHTWATER}`)).toEqual([a[0]]);
    expect(await list(alice, `?subject_id=${DEMO}`)).toEqual([a[1]]);
    expect(await list(bob, `?subject_id=${THALE}`)).toEqual([]);
    // Carol labelled only a demo claim; a new key has none.
    expect((await list(carol)).map((l) => l.claim_id)).toEqual([DEMO_CLAIMS[1].claim_id]);
    expect(await list(bearer(await t.key('dave')))).toEqual([]);
    // Each key's queue reveals the verdict only where that key labelled.
    expect((await queue(bob)).labelled).toBe(2);
    expect((await queue(alice)).claims.find((c) => c.claim_id === y.claim_id)!.machine).toBeNull();
  });
});

/** A reader of RFC 4180 CSV, written apart from the writer, to read the download back. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += ch;
  }
  expect(quoted).toBe(false);
  expect(cell).toBe('');
  return rows;
}

describe('CSV', () => {
  it('writes RFC 4180 with formula prefixes neutralised', () => {
    const base = { claim_id: 'clm_1', subject_id: 'sub_1', verdict: 'true' as const, on_time: null, labelled_at: '2026-01-02T03:04:05.000Z' };
    const csv = labelsCsv([
      { ...base, note: 'x,y and say "hi"', reviewer: 'plain' },
      { ...base, note: 'two\nlines', reviewer: 'cr\rhere', on_time: true },
      { ...base, note: '=1+2', reviewer: '+SUM(A1)', on_time: false },
      { ...base, note: '-5', reviewer: '@cmd' },
      { ...base, note: '\tTAB', reviewer: '\uFF1Dfull-width' },
      { ...base, note: ' =not first', reviewer: null },
    ]);
    const row = (on: string, note: string, reviewer: string) => `clm_1,sub_1,true,${on},${note},${reviewer},2026-01-02T03:04:05.000Z\r\n`;
    expect(csv).toBe(
      'claim_id,subject_id,verdict,on_time,note,reviewer,labelled_at\r\n' +
      row('', '"x,y and say ""hi"""', 'plain') +
      row('true', '"two\nlines"', '"cr\rhere"') +
      row('false', "'=1+2", "'+SUM(A1)") +
      row('', "'-5", "'@cmd") +
      row('', "'\tTAB", "'\uFF1Dfull-width") +
      row('', ' =not first', ''),
    );
  });

  it('GET /v1/labels?format=csv: the caller\'s labels, a header row, every field read back as stored, no cell a formula', async () => {
    const claims = (await claimsOf()).claims.slice(2, 7);
    const nasty = [
      { note: 'He said "no", then left,\nthen came back', reviewer: '=HYPERLINK("http://evil.example","click")' },
      { note: '+1 to this; -2 to that', reviewer: '@SUM(A1:A9)' },
      { note: '-cmd|\' /C calc\'!A0', reviewer: 'Comma, Reviewer' },
      { note: '\tstarts with a tab\r\nand has CRLF', reviewer: null },
      { note: null, reviewer: 'plain' },
    ];
    for (const [i, c] of claims.entries()) {
      expect((await label(carol, { claim_id: c.claim_id, verdict: 'mixed', on_time: i === 0 ? true : null, ...nasty[i] })).statusCode).toBe(200);
    }
    const json = await list(carol);
    const res = await get(carol, '/v1/labels?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="labels.csv"');
    expect(res.body.endsWith('\r\n')).toBe(true);
    const rows = readCsv(res.body);
    expect(rows[0]).toEqual([...LABEL_CSV_COLUMNS]);
    expect(rows).toHaveLength(json.length + 1);
    const neutral = (v: string | null) => (v === null ? '' : /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(v) ? `'${v}` : v);
    for (const [i, l] of json.entries()) {
      expect(rows[i + 1]).toEqual([l.claim_id, l.subject_id, l.verdict, l.on_time === null ? '' : String(l.on_time), neutral(l.note), neutral(l.reviewer), l.labelled_at]);
    }
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/);
    expect(res.body).toContain('"He said ""no"", then left,\nthen came back"');
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);

    // One subject only; and only the caller's.
    const demoOnly = readCsv((await get(carol, `/v1/labels?format=csv&subject_id=${DEMO}`)).body);
    expect(demoOnly.slice(1).map((r) => r[0])).toEqual([DEMO_CLAIMS[1].claim_id]);
    const bobs = (await get(bob, '/v1/labels?format=csv')).body;
    expect(bobs).not.toContain('HYPERLINK');
    expect(readCsv(bobs)).toHaveLength((await list(bob)).length + 1);
    expect(readCsv((await get(bearer(await t.key('erin')), '/v1/labels?format=csv')).body)).toEqual([[...LABEL_CSV_COLUMNS]]);
  });
});

describe('paging', () => {
  it('the blind queue comes a page at a time; `labelled` counts the whole queue', async () => {
    const whole = await queue(bob);
    expect(whole.paging).toEqual({ page: 1, page_size: 200, total: whole.claims.length, total_pages: 1 });
    expect(whole.claims.length).toBeGreaterThan(3);
    const pages = [];
    for (let page = 1; page <= Math.ceil(whole.claims.length / 3); page++) {
      const res = await get(bob, `/v1/labels/claims?subject_id=${BRIGHTWATER}&page=${page}&page_size=3`);
      const one = LabelQueueSchema.parse(res.json());
      expect(one.paging).toEqual({ page, page_size: 3, total: whole.claims.length, total_pages: Math.ceil(whole.claims.length / 3) });
      // Bob labelled the first two claims: every page says so, whichever claims it holds.
      expect(one.labelled).toBe(2);
      pages.push(...one.claims);
    }
    expect(pages).toEqual(whole.claims);
    const past = LabelQueueSchema.parse((await get(bob, `/v1/labels/claims?subject_id=${BRIGHTWATER}&page=1000&page_size=3`)).json());
    expect(past).toMatchObject({ claims: [], labelled: 2, paging: { page: 1000, total: whole.claims.length } });
    // Default page: 50 claims at most.
    const first = LabelQueueSchema.parse((await get(bob, `/v1/labels/claims?subject_id=${BRIGHTWATER}`)).json());
    expect(first.paging.page_size).toBe(50);
    expect(first.claims).toEqual(whole.claims.slice(0, 50));
  });

  it('the caller\'s labels come a page at a time as JSON, and whole as CSV', async () => {
    const all = await list(bob);
    expect(all).toHaveLength(3);
    const p1 = LabelListSchema.parse((await get(bob, '/v1/labels?page_size=2')).json());
    const p2 = LabelListSchema.parse((await get(bob, '/v1/labels?page_size=2&page=2')).json());
    expect(p1.paging).toEqual({ page: 1, page_size: 2, total: 3, total_pages: 2 });
    expect(p2.paging).toEqual({ page: 2, page_size: 2, total: 3, total_pages: 2 });
    expect([...p1.labels, ...p2.labels]).toEqual(all);
    expect(LabelListSchema.parse((await get(bob, `/v1/labels?subject_id=${BRIGHTWATER}&page_size=1`)).json()).paging).toMatchObject({ total: 2, total_pages: 2 });
    expect(LabelListSchema.parse((await get(bob, '/v1/labels?page=3&page_size=2')).json()).labels).toEqual([]);
    const csv = (await get(bob, '/v1/labels?format=csv&page_size=1')).body;
    expect(readCsv(csv)).toHaveLength(1 + 3);
    expect((await get(bob, '/v1/labels?page=0')).statusCode).toBe(422);
  });
});
