import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { FORMATS } from '../core/demo/formats.ts';
import { importDemo, type DemoJudge } from '../core/demo/import.ts';
import type { Outcome } from '../core/method/outcomes.ts';
import { OUTCOMES } from '../core/method/outcomes.ts';
import { DemoSchema } from '../core/schemas/demo.ts';
import { judgeStatement } from '../jobs/demo-judge.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

// GET /v1/demo on a small written set (invented speakers), with the machine's
// outcomes chosen by the test: the real stages build each claim and its fixed
// test, and the judges are replaced by a table, so the figures can be worked
// out by hand below.

const MACHINE: Record<string, Outcome> = {};
/** The real claim-building stages; the verdict from MACHINE, by quote. */
const tableJudge: DemoJudge = (s) => judgeStatement(s, {
  providers: { search: { name: 'none', search: async () => [] }, fetch: { name: 'none', fetch: async () => null } },
  today: '2026-11-21',
  findDocuments: async () => [],
  runAssess: async (task) => ({ evidence: [], verdict: { outcome: MACHINE[task.claim.quote] ?? 'unresolvable', on_time: null, rationale: 'Set by the test.', judges_disagree: false, opinions: [] } }),
});

// Nine fact checks, published rating → machine outcome:
//   True → true, True → mostly_true, True → unresolvable,
//   Half True → false, Half True → mixed,
//   False → false, False → unresolvable, False → pending,
//   Unproven (unrated) → mostly_false.
// reference-resolved 8, compared 5 (3 true + 2 mixed + 1 false rows the machine resolved = true/true,
// true/mostly_true, mixed/false, mixed/mixed, false/false), agree 3, adjacent 4:
// coverage 5/8 = 0.625, agreement 3/5 = 0.6, adjacent 4/5 = 0.8; the machine resolved 6 of 9.
const CHECKS: Array<[string, string, Outcome]> = [
  ['Orla Vantreece', 'True', 'true'], ['Orla Vantreece', 'True', 'mostly_true'], ['Tamsin Okoro', 'True', 'unresolvable'],
  ['Tamsin Okoro', 'Half True', 'false'], ['Tamsin Okoro', 'Half True', 'mixed'],
  ['Ada Quill', 'False', 'false'], ['Ada Quill', 'False', 'unresolvable'], ['Ada Quill', 'False', 'pending'],
  ['Ada Quill', 'Unproven', 'mostly_false'],
];
const CLAIMREVIEW = CHECKS.map(([author, rating, machine], i) => {
  const quote = `Pellow statement number ${i + 1} about the ferry timetable.`;
  MACHINE[quote] = machine;
  return JSON.stringify({
    '@type': 'ClaimReview', url: `https://pellow-factcheck.example/checks/${i + 1}`, datePublished: '2024-05-01', claimReviewed: quote,
    itemReviewed: { author: { '@type': 'Person', name: author }, datePublished: '2024-04-20' }, reviewRating: { alternateName: rating },
  });
}).join('\n');

// Four forecasts in two races: p 0.9 won, 0.1 lost; 0.3 won, 0.7 lost.
// Brier = (0.1² + 0.1² + 0.7² + 0.7²) / 4 = (0.01 + 0.01 + 0.49 + 0.49) / 4 = 0.25; the favourite was right in 2 of 4.
// The machine says every candidate won (true): compared 4, agree 2 (the winners), adjacent 2; coverage 1, agreement 0.5.
const FTE = [
  'year,office,state,special,election_date,forecast_date,forecast_type,party,candidate,projected_voteshare,actual_voteshare,probwin,probwin_outcome',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,Wren Alder,0,0,0.9,1',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,R,Ivo Brack,0,0,0.1,0',
  '2030,Governor,YY,false,2030-11-05,2030-11-05,deluxe,D,Nell Carrow,0,0,0.3,1',
  '2030,Governor,YY,false,2030-11-05,2030-11-05,deluxe,R,Bram Dace,0,0,0.7,0',
].join('\n');

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'demo_api');
  headers = bearer(await t.key());
  const fte = FORMATS.fte(FTE, { dataset: 'fte-test' });
  for (const r of fte.rows) MACHINE[r.quote] = 'true';
  await importDemo(t.db.pool, FORMATS.claimreview(CLAIMREVIEW, { dataset: 'cr-test' }), { judge: tableJudge });
  await importDemo(t.db.pool, fte, { judge: tableJudge });
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() };
};
const cell = (confusion: { rows: string[]; columns: string[]; counts: number[][] }, row: string, column: string) =>
  confusion.counts[confusion.rows.indexOf(row)]![confusion.columns.indexOf(column)];

describe('GET /v1/demo', () => {
  it('per set: n, coverage, agreement, adjacent agreement and the confusion matrix, as worked by hand', async () => {
    const { status, body } = await get('/v1/demo');
    expect(status).toBe(200);
    DemoSchema.parse(body);
    expect(body.note).toMatch(/agreement is not accuracy/i);
    const cr = body.sets.find((s: { dataset: string }) => s.dataset === 'cr-test');
    expect(cr).toMatchObject({
      n: 9, subjects: 3, n_reference_resolved: 8, n_machine_resolved: 6, n_compared: 5, n_agree: 3, n_adjacent: 4,
      coverage: 0.625, agreement: 0.6, adjacent_agreement: 0.8, forecast: null,
    });
    expect(cr.confusion.rows).toEqual([...OUTCOMES, 'unrated']);
    expect(cr.confusion.columns).toEqual([...OUTCOMES]);
    const expected: Array<[string, string, number]> = [
      ['true', 'true', 1], ['true', 'mostly_true', 1], ['true', 'unresolvable', 1], ['mixed', 'false', 1], ['mixed', 'mixed', 1],
      ['false', 'false', 1], ['false', 'unresolvable', 1], ['false', 'pending', 1], ['unrated', 'mostly_false', 1],
    ];
    for (const [r, c, n] of expected) expect([r, c, cell(cr.confusion, r, c)]).toEqual([r, c, n]);
    expect(cr.confusion.counts.flat().reduce((a: number, b: number) => a + b, 0)).toBe(9);
  });

  it('forecast sets: the Brier score of the published probabilities and the favourite\'s calls; the machine has no Brier score', async () => {
    const { body } = await get('/v1/demo?dataset=fte-test');
    expect(body.sets).toHaveLength(1);
    expect(body.sets[0]).toMatchObject({
      dataset: 'fte-test', n: 4, n_compared: 4, n_agree: 2, coverage: 1, agreement: 0.5,
      forecast: { n: 4, brier: 0.25, machine_brier: null, calls: { n: 4, right: 2, rate: 0.5 } },
    });
    expect(body.definitions.machine_brier).toMatch(/no probability/);
    expect(cell(body.sets[0].confusion, 'false', 'true')).toBe(2);
  });

  it('lists demo subjects with each claim\'s machine verdict beside the published outcome', async () => {
    const { body } = await get('/v1/demo?dataset=cr-test&page_size=200');
    expect(body.subjects.map((s: { name: string }) => s.name)).toEqual(['Ada Quill', 'Orla Vantreece', 'Tamsin Okoro']);
    const orla = body.subjects.find((s: { name: string }) => s.name === 'Orla Vantreece');
    expect(orla).toMatchObject({ subject_id: subjectIdFor('person', 'Orla Vantreece'), kind: 'person', description: expect.stringMatching(/^Demo subject, imported from published ClaimReview fact checks/) });
    const claim = orla.claims.find((c: { quote: string }) => c.quote.startsWith('Pellow statement number 2 '));
    expect(claim).toMatchObject({
      dataset: 'cr-test', said_on: '2024-04-20', tested_from: '2024-04-20',
      machine: { outcome: 'mostly_true', rationale: 'Set by the test.', judges_disagree: false, evidence: [] },
      published: { publisher_rating: 'True', outcome: 'true', forecast_probability: null, reference_url: 'https://pellow-factcheck.example/checks/2' },
      review_status: 'machine-generated, unreviewed',
    });
    expect(claim.resolution_criteria).toMatch(/independent source/);
    const ada = body.subjects.find((s: { name: string }) => s.name === 'Ada Quill');
    expect(ada.claims.find((c: { published: { publisher_rating: string } }) => c.published.publisher_rating === 'Unproven').published.outcome).toBeNull();
  });

  it('pages claims (not subjects), with the sets\' figures always over whole sets; filters by subject', async () => {
    const p1 = (await get('/v1/demo?page_size=5')).body;
    expect(p1.paging).toEqual({ page: 1, page_size: 5, total: 13, total_pages: 3 });
    expect(p1.subjects.flatMap((s: { claims: unknown[] }) => s.claims)).toHaveLength(5);
    const p3 = (await get('/v1/demo?page_size=5&page=3')).body;
    expect(p3.subjects.flatMap((s: { claims: unknown[] }) => s.claims)).toHaveLength(3);
    expect(p3.sets).toEqual(p1.sets);
    const ids = new Set<string>();
    for (const page of [1, 2, 3]) {
      for (const s of (await get(`/v1/demo?page_size=5&page=${page}`)).body.subjects) for (const c of s.claims) ids.add(c.claim_id);
    }
    expect(ids.size).toBe(13);
    expect((await get('/v1/demo?page=9')).body.subjects).toEqual([]);
    const one = (await get(`/v1/demo?subject_id=${subjectIdFor('person', 'Ada Quill')}`)).body;
    expect(one.subjects.map((s: { name: string }) => s.name)).toEqual(['Ada Quill']);
    expect(one.paging.total).toBe(4);
    expect(one.sets.map((s: { dataset: string }) => s.dataset).sort()).toEqual(['cr-test', 'fte-test']);
  });

  it('bad paging is a 422 in the spec\'s body; an unknown set is empty, not an error', async () => {
    for (const [q, loc, type] of [['page_size=201', 'page_size', 'less_than_equal'], ['page=0', 'page', 'greater_than_equal'], ['page=x', 'page', 'int_parsing']] as const) {
      const { status, body } = await get(`/v1/demo?${q}`);
      expect(status).toBe(422);
      expect(body.detail[0]).toMatchObject({ loc: ['query', loc], type });
    }
    const { status, body } = await get('/v1/demo?dataset=nothing-here');
    expect(status).toBe(200);
    expect(body).toMatchObject({ sets: [], subjects: [], paging: { total: 0, total_pages: 0 } });
  });

  it('needs a key', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/demo' })).statusCode).toBe(401);
  });
});
