import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitJob, jobsStartedToday } from '../core/limits/job-admission.ts';
import { recordSpend } from '../core/limits/spend.ts';
import { verifyKey } from '../core/keys.ts';
import { Readable } from 'node:stream';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';

let t: TestApp;
const subject = { record: 'subject', name: 'Limits Test Trust', kind: 'organisation', description: 'TEST DATA (invented).' };
const subjectId = subjectIdFor('organisation', 'Limits Test Trust');
beforeAll(async () => {
  // Small limits from the environment, as an operator would set them; the
  // defaults themselves are checked in the config tests.
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '8', DAILY_JOB_LIMIT: '3', DAILY_SPEND_LIMIT_USD: '5' }, 'limits');
  await ingestPack(t.db.pool, Readable.from([`${JSON.stringify(subject)}\n`, `${JSON.stringify({ ...subject, name: 'Limits Test Museum' })}\n`]));
});
afterAll(() => t.close());

const status = (key: string) => t.app.inject({ method: 'GET', url: '/v1/status', headers: bearer(key) });

describe('request rate per key', () => {
  it('lets the quota through with RateLimit headers, then answers 429 with Retry-After', async () => {
    const key = await t.key('rate-a');
    for (let i = 0; i < 8; i++) {
      const res = await status(key);
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe('"per-key";q=8;w=60');
      expect(res.headers['ratelimit']).toMatch(new RegExp(`^"per-key";r=${7 - i};t=\\d+$`));
    }
    const over = await status(key);
    expect(over.statusCode).toBe(429);
    expect(over.headers['content-type']).toMatch(/^application\/problem\+json/);
    const wait = Number(over.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(over.headers['ratelimit']).toMatch(/^"per-key";r=0;t=\d+$/);
    expect(over.json()).toMatchObject({ status: 429, type: '/problems/rate-limited', retry_after: wait });
  });

  it('counts each key on its own', async () => {
    const a = await t.key('rate-b');
    const b = await t.key('rate-c');
    for (let i = 0; i < 8; i++) expect((await status(a)).statusCode).toBe(200);
    expect((await status(a)).statusCode).toBe(429);
    expect((await status(b)).statusCode).toBe(200);
  });

  it('counts requests that fail validation too (the limit is on requests, not successes)', async () => {
    const key = await t.key('rate-d');
    for (let i = 0; i < 8; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/subjects/x/claims?page=0', headers: bearer(key) });
      expect(res.statusCode).toBe(422);
    }
    expect((await status(key)).statusCode).toBe(429);
  });
});

describe('request size', () => {
  it('answers 413 with a problem body to a body over the limit', async () => {
    const key = await t.key('size-a');
    const body = JSON.stringify({ text: 'x'.repeat(t.config.bodyLimitBytes) });
    const res = await t.app.inject({ method: 'POST', url: '/v1/check', headers: { ...bearer(key), 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, type: '/problems/body-too-large' });
  });

  it('stops reading a chunked body (no Content-Length) once it passes the limit', async () => {
    const key = await t.key('size-b');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const limit = t.config.bodyLimitBytes;
    const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/check', headers: { ...bearer(key), 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
      let sent = 0;
      let done = false;
      req.on('response', (res) => {
        done = true;
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sent }));
      });
      req.on('error', (err) => (done ? undefined : reject(err)));
      const chunk = Buffer.alloc(16 * 1024, 'a');
      req.write('{"text":"');
      // Keep sending up to 4x the limit; the server must answer before it has read it all.
      const pump = () => {
        while (!done && sent < limit * 4) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end('"}');
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ status: 413 });
  });

  it('accepts a body just under the limit (it is validated, not refused for size)', async () => {
    const key = await t.key('size-c');
    const payload = JSON.stringify({ text: 'x'.repeat(50_001) });
    const res = await t.app.inject({ method: 'POST', url: '/v1/check', headers: { ...bearer(key), 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: ['body', 'text'], type: 'string_too_long', ctx: { max_length: 50_000 } });
  });
});

describe('daily job limit', () => {
  it('admits exactly the limit, even when asked at once from many places', async () => {
    await t.key('jobs-a');
    const key = (await verifyKey(t.db.pool, await t.key('jobs-b')))!;
    const limits = { dailyJobLimit: 3, dailySpendLimitUsd: 5 };
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => admitJob(t.db.pool, key.id, limits)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(9);
    for (const r of rejected) expect(r.reason).toMatchObject({ status: 429, code: 'job-limit' });
    expect(await jobsStartedToday(t.db.pool, key.id)).toBe(3);
  });

  it('answers 429 on the job routes once the day\'s jobs are used, and nothing else is refused', async () => {
    const plain = await t.key('jobs-c');
    const key = (await verifyKey(t.db.pool, plain))!;
    const limits = { dailyJobLimit: 3, dailySpendLimitUsd: 5 };
    for (let i = 0; i < 3; i++) await admitJob(t.db.pool, key.id, limits);
    for (const [url, payload] of [['/v1/reports', { subject_id: subjectId }], ['/v1/check', { text: 'The sky is green.' }]] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: bearer(plain), payload });
      expect(res.statusCode, url).toBe(429);
      expect(res.json()).toMatchObject({ type: '/problems/job-limit', status: 429 });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    }
    // No job was stored for the refused request, and routes that start no job are not affected.
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM jobs WHERE $1 = ANY(callers)', [key.id])).rows[0].n).toBe(0);
    expect((await status(plain)).statusCode).toBe(200);
  });
});

describe('daily spending ceiling', () => {
  it('answers 503 to new jobs once today\'s spend reaches the ceiling, and status shows it', async () => {
    const plain = await t.key('spend-a');
    const before = await t.app.inject({ method: 'POST', url: '/v1/reports', headers: bearer(plain), payload: { subject_id: subjectId } });
    expect(before.statusCode).toBe(202);
    await recordSpend(t.db.pool, { provider: 'test', purpose: 'ceiling test', inputTokens: 1000, outputTokens: 100, amountUsd: 5.25 });
    // refresh: a new job even though one is open would be shared; a check job is always new.
    const after = await t.app.inject({ method: 'POST', url: '/v1/check', headers: bearer(plain), payload: { text: 'The sky is green.' } });
    expect(after.statusCode).toBe(503);
    const report = await t.app.inject({ method: 'POST', url: '/v1/reports', headers: bearer(plain), payload: { subject_id: subjectIdFor('organisation', 'Limits Test Museum') } });
    expect(report.statusCode).toBe(503);
    expect(report.json()).toMatchObject({ type: '/problems/spend-limit' });
    expect(after.json()).toMatchObject({ type: '/problems/spend-limit', status: 503 });
    expect(after.json().detail).toMatch(/00:00 UTC/);
    const s = (await status(plain)).json();
    expect(s.spend).toMatchObject({ spent_usd: 5.25, limit_usd: 5, remaining_usd: 0 });
  });
});
