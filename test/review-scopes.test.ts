import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LABEL, reviewClient, startReviewSetting, type Headers, type ReviewSetting } from './helpers/review-client.ts';
import type { TestApp } from './helpers/app.ts';

/**
 * Editorial review's key scopes (issue #18), on the real embedded PostgreSQL and the real HTTP app: a key
 * without `review` is refused on every review route, each scope opens only its own routes, keys made before
 * scopes keep what they could do, and the OpenAPI file names each operation's scope.
 */

let setting: ReviewSetting;
let t: TestApp;
let reader: Headers;
let reviewer: Headers;
let reviewOnly: Headers;
let reportId: string;
const { get, post, claims, record } = reviewClient(() => setting);

beforeAll(async () => {
  setting = await startReviewSetting('review-scopes');
  ({ t, reader, reviewer, reviewOnly, reportId } = setting);
}, 120_000);
afterAll(() => t.close());

describe('key scopes', () => {
  it('a key without `review` gets 403 with a problem body on every review route, before its body is looked at', async () => {
    const claimId = (await claims()).claims[0]!.claim_id;
    const calls = [
      get('/v1/reviews/queue', reader),
      get(`/v1/reports/${reportId}/review`, reader),
      post(`/v1/reports/${reportId}/review`, reader, { reviewer: 'Someone' }),
      post(`/v1/claims/${claimId}/review`, reader, { outcome: 'not an outcome' }),
      post('/v1/responses/rsp_00000000000000000000/review', reader, {}),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({
        type: '/problems/insufficient-scope', title: 'Key lacks the scope', status: 403, required_scope: 'review', key_scopes: ['read', 'respond', 'label'],
      });
      expect(res.json().detail).toContain('--scope review');
    }
    expect(await record()).toEqual([]);
  });

  it('each scope opens only its own routes: review alone reads nothing else, read and review do not label or reply', async () => {
    expect((await get('/v1/reviews/queue', reviewOnly)).statusCode).toBe(200);
    const noRead = await get('/v1/subjects', reviewOnly);
    expect(noRead.statusCode).toBe(403);
    expect(noRead.json()).toMatchObject({ required_scope: 'read', key_scopes: ['review'] });
    const claimId = (await claims()).claims[0]!.claim_id;
    expect((await post('/v1/labels', reviewer, { claim_id: claimId, verdict: 'true' })).json()).toMatchObject({ status: 403, required_scope: 'label' });
    expect((await post('/v1/responses', reviewer, { claim_id: claimId, name: 'X', statement: 'Y' })).json()).toMatchObject({ status: 403, required_scope: 'respond' });
    // The MCP endpoint reads: it needs `read`.
    expect((await post('/mcp', reviewOnly, {})).statusCode).toBe(403);
  });

  it('keys made before scopes existed (no scopes given) keep exactly what they could do: read, reply and label', async () => {
    const { rows } = await t.db.pool.query<{ scopes: string[] }>(
      `INSERT INTO api_keys (name, key_hash, key_prefix) VALUES ('legacy', sha256('legacy-key'::bytea), 'rss_lega') RETURNING scopes`,
    );
    expect(rows[0]!.scopes).toEqual(['read', 'respond', 'label']);
    const claimId = (await claims()).claims[1]!.claim_id;
    expect((await post('/v1/labels', reader, { claim_id: claimId, verdict: 'true' })).statusCode).toBe(200);
    expect((await get('/v1/labels', reader)).statusCode).toBe(200);
    expect((await get(`/v1/reports/${reportId}`, reader)).statusCode).toBe(200);
    await expect(t.db.pool.query(`INSERT INTO api_keys (name, key_hash, key_prefix, scopes) VALUES ('bad', sha256('bad'::bytea), 'rss_bad_', '{admin}')`)).rejects.toThrow(/api_keys_scopes_known/);
  });

  it('the OpenAPI file names each operation\'s scope in its security requirement', async () => {
    const doc = (await get('/openapi.json', {})).json();
    expect(doc.paths['/v1/claims/{claim_id}/review'].post.security).toEqual([{ bearerAuth: ['review'] }]);
    expect(doc.paths['/v1/reviews/queue'].get.security).toEqual([{ bearerAuth: ['review'] }]);
    expect(doc.paths['/v1/labels'].post.security).toEqual([{ bearerAuth: ['label'] }]);
    expect(doc.paths['/v1/responses'].post.security).toEqual([{ bearerAuth: ['respond'] }]);
    expect(doc.paths['/v1/subjects'].get.security).toEqual([{ bearerAuth: ['read'] }]);
    expect(doc.paths['/v1/claims/{claim_id}/review'].post.responses['403'].content['application/problem+json']).toBeDefined();
    expect(doc.components.schemas.ReviewStatus.enum).toEqual([LABEL, 'reviewed']);
    expect(Object.keys(doc.components.schemas.Claim.properties)).toEqual(expect.arrayContaining(['review_status', 'machine_verdict', 'review']));
  });
});
