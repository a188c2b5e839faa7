import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimResponsesPageSchema, ClaimsPageSchema } from '../core/schemas/resources.ts';
import { RESPONSES_INLINE } from '../core/responses.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { storeFakeReport } from './site-fixtures.ts';

/**
 * Replies are bounded (issue #16, item 1): a cap per claim (409) and per key
 * and day (429), exact when requests race; a claim carries only its newest
 * replies with their count and the path of the rest; that path lists them
 * all, newest first, a page at a time.
 */

const PER_CLAIM = 4;
const PER_KEY_PER_CLAIM = 2;
const PER_KEY_PER_DAY = 6;

let t: TestApp;
let report: Awaited<ReturnType<typeof storeFakeReport>>;
let n = 0;
const claimId = (i: number) => report.claims[i]!.claim_id;
const newKey = async () => bearer(await t.key(`k${++n}`));

const reply = (headers: Record<string, string>, claim_id: string, statement = 'A correction.') =>
  t.app.inject({ method: 'POST', url: '/v1/responses', headers, payload: { claim_id, name: 'Press office', statement } });
const stored = async (claim: string) =>
  (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM responses WHERE claim_id = $1', [claim])).rows[0]!.n;

/** Replies stored straight into the table, a second apart, oldest first; returns their ids in that order. */
async function seedReplies(claim: string, count: number, statement = (i: number) => `Reply number ${i}.`): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `rsp_seed${String(++n).padStart(16, '0')}`;
    await t.db.pool.query(
      `INSERT INTO responses (id, claim_id, subject_id, name, statement, received_at) VALUES ($1, $2, $3, 'Seeder', $4, now() - make_interval(secs => $5))`,
      [id, claim, report.subjectId, statement(i), 1000 - i],
    );
    ids.push(id);
  }
  return ids;
}

beforeAll(async () => {
  t = await startTestApp({
    RATE_LIMIT_PER_MINUTE: '100000',
    RESPONSES_PER_CLAIM: String(PER_CLAIM),
    RESPONSES_PER_KEY_PER_CLAIM_PER_DAY: String(PER_KEY_PER_CLAIM),
    RESPONSES_PER_KEY_PER_DAY: String(PER_KEY_PER_DAY),
  }, 'responses_limits');
  report = await storeFakeReport(t.db.pool, { name: 'Replied Utilities', claims: 20 });
});
afterAll(() => t.close());

function expectProblem(res: Awaited<ReturnType<typeof reply>>, status: number, type: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({ status, type: `/problems/${type}` });
}

describe('caps on replies', () => {
  it(`a key sends at most ${PER_KEY_PER_CLAIM} replies to one claim a day: 429 until 00:00 UTC`, async () => {
    const key = await newKey();
    for (let i = 0; i < PER_KEY_PER_CLAIM; i++) expect((await reply(key, claimId(0))).statusCode).toBe(200);
    const res = await reply(key, claimId(0));
    expectProblem(res, 429, 'reply-limit');
    const wait = Number(res.headers['retry-after']);
    const midnight = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1);
    expect(Math.abs(Date.now() + wait * 1000 - midnight)).toBeLessThan(5_000);
    expect(res.json().retry_after).toBe(wait);
    expect(await stored(claimId(0))).toBe(PER_KEY_PER_CLAIM);
    // The same key may still reply to another claim; another key to this one.
    expect((await reply(key, claimId(1))).statusCode).toBe(200);
    expect((await reply(await newKey(), claimId(0))).statusCode).toBe(200);
  });

  it(`a claim takes at most ${PER_CLAIM} replies in all, whoever sends them: 409`, async () => {
    for (let i = 0; i < PER_CLAIM; i++) expect((await reply(await newKey(), claimId(2))).statusCode).toBe(200);
    const res = await reply(await newKey(), claimId(2));
    expectProblem(res, 409, 'claim-replies-full');
    expect(res.json().detail).toContain(`/v1/claims/${claimId(2)}/responses`);
    expect(await stored(claimId(2))).toBe(PER_CLAIM);
  });

  it(`a key sends at most ${PER_KEY_PER_DAY} replies a day in all: 429`, async () => {
    const key = await newKey();
    for (let i = 0; i < PER_KEY_PER_DAY; i++) expect((await reply(key, claimId(3 + i))).statusCode).toBe(200);
    const res = await reply(key, claimId(3 + PER_KEY_PER_DAY));
    expectProblem(res, 429, 'reply-limit');
    expect(res.json().detail).toMatch(new RegExp(`${PER_KEY_PER_DAY} replies today`));
    expect(await stored(claimId(3 + PER_KEY_PER_DAY))).toBe(0);
  });

  it('requests racing at a cap leave exactly the cap', async () => {
    // Many keys at once on one claim: exactly PER_CLAIM are stored, the rest get 409.
    for (const i of [10, 11, 12]) {
      const keys = await Promise.all(Array.from({ length: 8 }, () => newKey()));
      const answers = await Promise.all(keys.map((k) => reply(k, claimId(i))));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(PER_CLAIM);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(8 - PER_CLAIM);
      expect(await stored(claimId(i))).toBe(PER_CLAIM);
    }
    // One key at once on one claim: exactly PER_KEY_PER_CLAIM.
    const key = await newKey();
    const answers = await Promise.all(Array.from({ length: 6 }, () => reply(key, claimId(13))));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(PER_KEY_PER_CLAIM);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(6 - PER_KEY_PER_CLAIM);
    expect(await stored(claimId(13))).toBe(PER_KEY_PER_CLAIM);
    // Two requests at the last place: one wins.
    await seedReplies(claimId(14), PER_CLAIM - 1);
    const pair = await Promise.all([reply(await newKey(), claimId(14)), reply(await newKey(), claimId(14))]);
    expect(pair.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await stored(claimId(14))).toBe(PER_CLAIM);
  });

  it('are stated in the OpenAPI description', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { description: string; responses: Record<string, { description: string }> }>> };
    const op = doc.paths['/v1/responses']!.post!;
    expect(op.description).toContain(`at most ${PER_CLAIM} replies in all`);
    expect(op.responses['409']!.description).toMatch(/claim-replies-full/);
    expect(op.responses['429']!.description).toMatch(/reply-limit/);
  });
});

describe('replies on a claim, and the rest of them', () => {
  let ids: string[];
  const claims = async () =>
    ClaimsPageSchema.parse((await t.app.inject({ method: 'GET', url: `/v1/subjects/${report.subjectId}/claims?page_size=200`, headers: await newKey() })).json());
  const page = async (claim: string, query: string, headers?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/v1/claims/${claim}/responses${query}`, headers: headers ?? (await newKey()) });

  beforeAll(async () => {
    ids = await seedReplies(claimId(15), 7); // oldest first
  });

  it(`a Claim carries its ${RESPONSES_INLINE} newest replies, newest first, their count and the path of them all`, async () => {
    const all = await claims();
    const claim = all.claims.find((c) => c.claim_id === claimId(15))!;
    expect(claim.responses.map((r) => r.response_id)).toEqual([...ids].reverse().slice(0, RESPONSES_INLINE));
    expect(claim.responses_total).toBe(7);
    expect(claim.responses_url).toBe(`/v1/claims/${claimId(15)}/responses`);
    const none = all.claims.find((c) => c.claim_id === claimId(19))!;
    expect(none).toMatchObject({ responses: [], responses_total: 0, responses_url: `/v1/claims/${claimId(19)}/responses` });
  });

  it('the paged list holds them all, newest first, in the paging envelope', async () => {
    const newest = [...ids].reverse();
    const p1 = ClaimResponsesPageSchema.parse((await page(claimId(15), '?page_size=3')).json());
    expect(p1).toMatchObject({ claim_id: claimId(15), subject_id: report.subjectId, paging: { page: 1, page_size: 3, total: 7, total_pages: 3 } });
    expect(p1.responses.map((r) => r.response_id)).toEqual(newest.slice(0, 3));
    const p3 = ClaimResponsesPageSchema.parse((await page(claimId(15), '?page=3&page_size=3')).json());
    expect(p3.responses.map((r) => r.response_id)).toEqual(newest.slice(6));
    const past = ClaimResponsesPageSchema.parse((await page(claimId(15), '?page=4&page_size=3')).json());
    expect(past.responses).toEqual([]);
    // Default page size 50: all seven; the first five are the Claim's own.
    const whole = ClaimResponsesPageSchema.parse((await page(claimId(15), '')).json());
    expect(whole.paging).toEqual({ page: 1, page_size: 50, total: 7, total_pages: 1 });
    expect(whole.responses.map((r) => r.response_id)).toEqual(newest);
    expect(Object.keys(whole.responses[0]!).sort()).toEqual(['counter_evidence_url', 'name', 'received_at', 'response_id', 'review', 'role', 'statement', 'status']);
  });

  it('a claim with no reply lists none; an unknown claim is 404; the page size is bounded', async () => {
    const empty = ClaimResponsesPageSchema.parse((await page(claimId(19), '')).json());
    expect(empty).toMatchObject({ responses: [], paging: { total: 0, total_pages: 0 } });
    const unknown = await page('clm_nothing_here', '');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ type: '/problems/not-found' });
    for (const [query, loc, type] of [
      ['?page_size=201', 'page_size', 'less_than_equal'],
      ['?page_size=0', 'page_size', 'greater_than_equal'],
      ['?page=0', 'page', 'greater_than_equal'],
      ['?page_size=many', 'page_size', 'int_parsing'],
    ] as const) {
      const res = await page(claimId(15), query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ loc: ['query', loc], type });
    }
    const long = await page('c'.repeat(101), '');
    expect(long.statusCode).toBe(422);
    expect(long.json().detail[0]).toMatchObject({ loc: ['path', 'claim_id'], type: 'string_too_long' });
    // A key is needed, as everywhere under /v1.
    expect((await t.app.inject({ method: 'GET', url: `/v1/claims/${claimId(15)}/responses` })).statusCode).toBe(401);
  });

  it('however many long replies a claim has, a page of claims carries only the newest few', async () => {
    await seedReplies(claimId(16), 40, (i) => `${i} `.padEnd(10_000, 'x'));
    const res = await t.app.inject({ method: 'GET', url: `/v1/subjects/${report.subjectId}/claims?page_size=1&page=17`, headers: await newKey() });
    const body = ClaimsPageSchema.parse(res.json());
    expect(body.claims[0]!.claim_id).toBe(claimId(16));
    expect(body.claims[0]!.responses_total).toBe(40);
    expect(body.claims[0]!.responses).toHaveLength(RESPONSES_INLINE);
    // Five replies of 10,000 characters and the claim itself; not forty.
    expect(res.body.length).toBeLessThan(RESPONSES_INLINE * 10_000 + 10_000);
  });
});
