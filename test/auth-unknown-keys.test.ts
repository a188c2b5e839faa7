import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { hashKey, newKey } from '../core/keys.ts';
import { addressBucket } from '../api/plugins/auth.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';

/**
 * Unknown keys (issue #16, item 6): a flood of them must not become a flood of
 * database look-ups. A negative answer is remembered for a while (and
 * forgotten the moment any key changes, through the change feed), and each
 * client address may send only so many unknown keys a minute (429 after).
 * Look-ups are counted by watching the very pool the app queries.
 */

const LIMIT = 5;
let t: TestApp;
let live: string;
let keyQueries: number;

beforeAll(async () => {
  t = await startTestApp({ AUTH_FAILURES_PER_MINUTE: String(LIMIT), RATE_LIMIT_PER_MINUTE: '100000' }, 'auth_unknown');
  live = await t.key('live');
  const query = t.db.pool.query.bind(t.db.pool);
  vi.spyOn(t.db.pool, 'query').mockImplementation(((text: unknown, ...rest: unknown[]) => {
    const sql = typeof text === 'string' ? text : (text as { text?: string }).text ?? '';
    if (/FROM api_keys WHERE key_hash/.test(sql)) keyQueries++;
    return (query as (...a: unknown[]) => unknown)(text, ...rest);
  }) as never);
});
beforeEach(async () => {
  // Every key made so far has been heard of (each one empties the cache), so counts start clean.
  await t.app.changes.settled();
  keyQueries = 0;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

let addresses = 0;
/** A fresh client address for each test, so that the per-address budget of one does not spill into another. */
const freshAddress = () => `198.51.100.${++addresses}`;
const status = (token: string, remoteAddress: string) =>
  t.app.inject({ method: 'GET', url: '/v1/status', headers: bearer(token), remoteAddress });

describe('unknown keys are remembered', () => {
  it('the same unknown key asked for again and again is looked up once within the TTL', async () => {
    const unknown = newKey();
    // From many addresses, so that the per-address limit stays out of the way.
    for (let i = 0; i < 20; i++) expect((await status(unknown, `192.0.2.${i + 1}`)).statusCode).toBe(401);
    expect(keyQueries).toBe(1);
    // Another unknown key is its own look-up.
    expect((await status(newKey(), '192.0.2.100')).statusCode).toBe(401);
    expect(keyQueries).toBe(2);
  });

  it('a key made after it was refused is accepted at once: every write to api_keys is a notice that empties the cache', async () => {
    const token = newKey();
    const address = freshAddress();
    expect((await status(token, address)).statusCode).toBe(401);
    expect((await status(token, address)).statusCode).toBe(401);
    expect(keyQueries).toBe(1); // the second answer came from the cache
    // Made by hand, as a person at psql would: no application code sends a notice.
    const madeAt = Date.now();
    await t.db.pool.query('INSERT INTO api_keys (name, key_hash, key_prefix) VALUES ($1, $2, $3)', ['made-by-hand', hashKey(token), token.slice(0, 8)]);
    // Each try from an address of its own: the tries that still meet the old answer count as unknown keys.
    // (Polled with a pause between tries: answers from memory alone would never let the notice in.)
    await until(async () => (await status(token, freshAddress())).statusCode === 200, 'the new key to be accepted', 2_000, 5);
    // Well within the negative answer's lifetime (30 s): the notice, not the clock, did it.
    expect(Date.now() - madeAt).toBeLessThan(2_000);
  });

  it('a revoked key is still refused within moments, though it was cached as live', async () => {
    const token = await t.key('to-revoke');
    await t.app.changes.settled();
    const address = freshAddress();
    for (let i = 0; i < 3; i++) expect((await status(token, address)).statusCode).toBe(200);
    expect(keyQueries).toBe(1);
    const revokedAt = Date.now();
    await t.revoke('to-revoke');
    await until(async () => (await status(token, address)).statusCode === 401, 'the revoked key to be refused', 2_000, 5);
    expect(Date.now() - revokedAt).toBeLessThan(2_000);
  });

  it('malformed keys cost no look-up at all', async () => {
    const address = freshAddress();
    for (const token of ['not-a-key', `rss_${'A'.repeat(42)}`, `${newKey()}x`]) expect((await status(token, address)).statusCode).toBe(401);
    expect(keyQueries).toBe(0);
  });
});

describe('unknown keys per client address', () => {
  it(`allows ${LIMIT} a minute, then answers 429 with Retry-After without looking the key up`, async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT; i++) expect((await status(newKey(), address)).statusCode).toBe(401);
    expect(keyQueries).toBe(LIMIT);
    const res = await status(newKey(), address);
    expect(res.statusCode).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const body = res.json() as { type: string; status: number; retry_after: number; detail: string };
    expect(body).toMatchObject({ type: '/problems/auth-failures', status: 429 });
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(body.retry_after).toBe(wait);
    expect(keyQueries).toBe(LIMIT); // refused before any look-up
    // Another address is not affected.
    expect((await status(newKey(), freshAddress())).statusCode).toBe(401);
  });

  it('a live key the cache holds still passes from a throttled address; live keys, missing and malformed keys use up nothing', async () => {
    const address = freshAddress();
    // Live keys first: each look-up's unit is given back.
    const other = await t.key('uncached');
    await t.app.changes.settled();
    expect((await status(other, address)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await status(live, address)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/v1/status', remoteAddress: address })).statusCode).toBe(401);
      expect((await status('not-a-key', address)).statusCode).toBe(401);
    }
    for (let i = 0; i < LIMIT; i++) expect((await status(newKey(), address)).statusCode).toBe(401);
    expect((await status(newKey(), address)).statusCode).toBe(429);
    // The live key is in the cache: it passes without a look-up.
    expect((await status(live, address)).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', async () => {
    expect(addressBucket('2001:db8:1:2::1')).toBe(addressBucket('2001:db8:1:2:ffff::9'));
    expect(addressBucket('2001:db8:1:2::1')).not.toBe(addressBucket('2001:db8:1:3::1'));
    expect(addressBucket('::ffff:203.0.113.9')).toBe('203.0.113.9');
    for (let i = 1; i <= LIMIT; i++) expect((await status(newKey(), `2001:db8:7:7::${i}`)).statusCode).toBe(401);
    expect((await status(newKey(), '2001:db8:7:7:abcd::1')).statusCode).toBe(429);
    expect((await status(newKey(), '2001:db8:7:8::1')).statusCode).toBe(401);
  });

  it('is stated in the OpenAPI description of the 429', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    expect(doc.paths['/v1/status']!.get!.responses['429']!.description).toMatch(new RegExp(`over ${LIMIT} requests with an unknown or revoked key`));
  });
});
