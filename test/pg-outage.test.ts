import { readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../core/db/embedded.ts';
import { createPool, type Pool } from '../core/db/pool.ts';
import { createKey, newKey, revokeKey } from '../core/keys.ts';
import { until } from './helpers/poll.ts';
import { ROOT, startService, stopService, type Service } from './helpers/process.ts';

/**
 * PostgreSQL stopped for a while under traffic (issue #9, item 2). The test
 * runs a PostgreSQL of its own (not the run's shared one) that it can stop and
 * start again on the same port and data directory, and the service as a
 * separate process on it, as `npm start` runs it. While the database is down
 * every keyed request answers 503 with a problem body at once (never 500,
 * never a hang, never 401: a key that cannot be checked is neither accepted
 * from a stale cache nor called unknown); when it is back the service recovers
 * by itself, and every write it acknowledged, and every job it accepted, is
 * there and finishes.
 */

const OUTAGE_MS = 5_000;
const TICK_MS = 50;
const REQUEST_TIMEOUT_MS = 5_000;

let pgDir: string;
let siteDir: string;
let pgPort: number;
let pg: EmbeddedPostgres;
let pool: Pool;
let service: Service;
let key: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const base = path.join(ROOT, '.test-data', `pg-outage-${process.pid}-${Date.now()}`);
  pgDir = path.join(base, 'pg');
  siteDir = path.join(base, 'service');
  await mkdir(pgDir, { recursive: true, mode: 0o755 });
  await mkdir(siteDir, { recursive: true, mode: 0o755 });
  pgPort = await freePort();
  pg = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, mode: 'own' });
  // The first start loads the sample pack and researches its subjects: jobs in
  // flight when the database goes away.
  service = await startService({
    DATABASE_URL: pg.url, DATA_DIR: siteDir, ROLE: 'all', PORT: '0', LOAD_SAMPLE_PACK: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000', DAILY_JOB_LIMIT: '100000', PIPELINE_THREADS: '1',
    // Every tick replies to one claim with one key: the reply caps stay out of the way.
    RESPONSES_PER_CLAIM: '100000', RESPONSES_PER_KEY_PER_CLAIM_PER_DAY: '100000', RESPONSES_PER_KEY_PER_DAY: '1000000',
  }, 120_000);
  pool = createPool(pg.url, 2);
  key = (await createKey(pool, 'outage')).key;
}, 180_000);

afterAll(async () => {
  try {
    if (service) await stopService(service);
  } finally {
    await pg?.stop();
    void pool?.end().catch(() => {});
    if (pgDir) await rm(path.dirname(pgDir), { recursive: true, force: true });
  }
});

// This file's PostgreSQL is a child of the test process, not of the global
// setup: if the worker exits without running afterAll (an uncaught error), the
// server would outlive it. Fast shutdown of whatever postmaster.pid names.
process.once('exit', () => {
  try {
    const pid = Number(readFileSync(path.join(pgDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGINT');
  } catch {
    // already stopped
  }
});

type Kind = 'status' | 'subjects' | 'report' | 'response' | 'check' | 'health' | 'no-key' | 'malformed-key' | 'unknown-key';
type Sample = { kind: Kind; t0: number; t1: number; status: number; type: string; retryAfter: string | null; text: string; error?: string };

const ALLOWED: Record<Kind, number[]> = {
  status: [200, 503], subjects: [200, 503], report: [200, 503], response: [200, 503], check: [202, 503],
  // Liveness says nothing about the database; a missing or malformed key is
  // refused without asking it.
  health: [200], 'no-key': [401], 'malformed-key': [401],
  // A well-formed key that is not on file cannot be told from a live one while
  // the keys cannot be read: 503, not 401 (which would tell its holder to give it up).
  'unknown-key': [401, 503],
};
const KEYED: Kind[] = ['status', 'subjects', 'report', 'response', 'check', 'unknown-key'];
const UNKNOWN_KEY = newKey();

async function call(kind: Kind, pathname: string, body?: unknown, auth: string | null = key): Promise<Sample> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${service.url}${pathname}`, {
      method: body ? 'POST' : 'GET',
      headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { kind, t0, t1: performance.now(), status: res.status, type: res.headers.get('content-type') ?? '', retryAfter: res.headers.get('retry-after'), text };
  } catch (err) {
    return { kind, t0, t1: performance.now(), status: 0, type: '', retryAfter: null, text: '', error: (err as Error).name };
  }
}

/** Steady traffic: every tick a few requests, not waiting for the previous tick's. */
function traffic(subjectId: string, claimId: string) {
  const pending: Promise<Sample>[] = [];
  let n = 0;
  const timer = setInterval(() => {
    n++;
    pending.push(
      call('status', '/v1/status'),
      call('subjects', '/v1/subjects'),
      call('report', '/v1/reports', { subject_id: subjectId }),
      call('response', '/v1/responses', { claim_id: claimId, name: `Press office ${n}`, statement: `Reply number ${n} sent during the outage test.` }),
      call('health', '/health'),
    );
    if (n % 10 === 0) {
      pending.push(
        call('check', '/v1/check', { text: `Brightwater recorded ${100 + n} pollution incidents in 2024.`, author: 'Brightwater Utilities', said_on: '2025-02-25' }),
        call('no-key', '/v1/status', undefined, null),
        call('malformed-key', '/v1/status', undefined, 'not-a-key'),
        call('unknown-key', '/v1/status', undefined, UNKNOWN_KEY),
      );
    }
  }, TICK_MS);
  return { stop: async () => (clearInterval(timer), Promise.all(pending)) };
}

const FINAL = ['complete', 'insufficient', 'refused', 'failed'];

describe('PostgreSQL stopped for a while under traffic', () => {
  it('a connection lost while checked out from the pool does not end the process', async () => {
    // pg-pool listens for errors on idle clients only; the service's pool adds
    // a listener of its own (core/db/pool.ts), without which this is fatal.
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise((r) => client.once('end', r));
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await ended;
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]!.one).toBe(1);
  });

  it('answers 503 problems meanwhile, recovers by itself, and loses nothing it acknowledged', async () => {
    const auth = { authorization: `Bearer ${key}` };
    // A stored report with claims, to reply to and to ask for from store.
    const claim = await until(async () => {
      const list = (await (await fetch(`${service.url}/v1/subjects`, { headers: auth })).json()) as { subjects: { subject_id: string }[] };
      for (const s of list.subjects) {
        const page = (await (await fetch(`${service.url}/v1/subjects/${s.subject_id}/claims?page_size=1`, { headers: auth })).json()) as { claims?: { claim_id: string }[] };
        if (page.claims?.[0]) return { subjectId: s.subject_id, claimId: page.claims[0].claim_id };
      }
      return undefined;
    }, 'a stored report with claims', 120_000, 250);

    const load = traffic(claim.subjectId, claim.claimId);
    await new Promise((r) => setTimeout(r, 2_000)); // traffic before the outage
    // Jobs accepted just before the outage: a fresh research of every subject
    // that has a report, so that some are waiting or running when it starts.
    const before = (await (await fetch(`${service.url}/v1/subjects`, { headers: auth })).json()) as { subjects: { subject_id: string }[] };
    const jobsBefore: string[] = [];
    for (const s of before.subjects) {
      const res = await call('report', '/v1/reports', { subject_id: s.subject_id, refresh: true });
      expect(res.status).toBe(202);
      jobsBefore.push((JSON.parse(res.text) as { job_id: string }).job_id);
    }
    // Stop while one of them is running (the others wait behind it).
    const open = await until(async () => {
      const { rows } = await pool.query<{ status: string }>(`SELECT status FROM jobs WHERE id = ANY($1) AND status IN ('queued', 'running')`, [jobsBefore]);
      return rows.some((r) => r.status === 'running') ? rows : undefined;
    }, 'a job accepted before the outage to be running', 30_000, 5);
    const stopAt = performance.now();
    await pg.stop(); // SIGINT: PostgreSQL's fast shutdown
    const stoppedAt = performance.now();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    const restartAt = performance.now();
    pg = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, mode: 'own' });
    const readyAt = performance.now(); // PostgreSQL accepts connections
    expect(pg.port).toBe(pgPort);
    const firstOk = await until(async () => {
      const r = await call('status', '/v1/status');
      return r.status === 200 ? r : undefined;
    }, 'the first 200 from /v1/status after PostgreSQL returned', 30_000, 10).catch((err: Error) => {
      // A service that died meanwhile says why on its stderr.
      throw new Error(`${err.message}; service exit ${service.child.exitCode}, stderr: ${service.stderr().slice(-1500)}`);
    });
    await new Promise((r) => setTimeout(r, 3_000)); // traffic after recovery
    const samples = await load.stop();
    const recoveryMs = Math.round(firstOk.t1 - readyAt);

    // No hang, no 500, only the answers each request may have.
    expect(samples.filter((s) => s.error)).toEqual([]);
    for (const s of samples) expect.soft(ALLOWED[s.kind], `${s.kind} answered ${s.status}: ${s.text.slice(0, 200)}`).toContain(s.status);
    expect(Math.max(...samples.map((s) => s.t1 - s.t0))).toBeLessThan(REQUEST_TIMEOUT_MS);
    // Every error is an RFC 9457 problem, with nothing internal in it.
    for (const s of samples.filter((x) => x.status >= 400)) {
      expect(s.type).toMatch(/^application\/problem\+json/);
      const body = JSON.parse(s.text) as Record<string, unknown>;
      expect(body).toMatchObject({ type: expect.stringMatching(/^\/problems\//), title: expect.any(String), status: s.status, detail: expect.any(String) });
      expect(s.text).not.toMatch(/\bat .+:\d+|node_modules|\.ts\b|SELECT|INSERT|ECONN|57P0|terminat|pg_|postgres/i);
      if (s.status === 503) {
        expect(body).toMatchObject({ type: '/problems/unavailable', retry_after: expect.any(Number) });
        expect(Number(s.retryAfter)).toBeGreaterThan(0);
      }
    }
    // While the database was down (the whole request inside the outage), every
    // keyed request answered 503; the process itself stayed up.
    const during = samples.filter((s) => s.t0 >= stoppedAt && s.t1 <= restartAt);
    expect(during.length).toBeGreaterThan(100);
    for (const s of during.filter((x) => KEYED.includes(x.kind))) expect(s.status).toBe(503);
    expect(during.filter((s) => s.kind === 'health').every((s) => s.status === 200)).toBe(true);
    // Once recovered, everything is answered normally again.
    const after = samples.filter((s) => s.t0 >= firstOk.t1 + 500);
    expect(after.length).toBeGreaterThan(50);
    expect(after.filter((s) => s.status >= 500)).toEqual([]);
    // Before the outage, too.
    const earlier = samples.filter((s) => s.t1 < stopAt);
    expect(earlier.filter((s) => s.status >= 500)).toEqual([]);
    expect(recoveryMs).toBeLessThan(10_000);

    // Nothing acknowledged is lost: every reply answered 200 is stored, every
    // job answered 202 exists, and every job finishes (none failed).
    const acked = <T>(kind: Kind, field: string) =>
      samples.filter((s) => s.kind === kind && s.status >= 200 && s.status < 300).map((s) => (JSON.parse(s.text) as Record<string, T>)[field]!);
    const replies = acked<string>('response', 'response_id');
    const checks = acked<string>('check', 'job_id');
    expect(replies.length).toBeGreaterThan(20);
    expect(checks.length).toBeGreaterThan(2);
    const stored = await pool.query<{ id: string }>(`SELECT id FROM responses WHERE id = ANY($1)`, [replies]);
    expect(stored.rows.map((r) => r.id).sort()).toEqual([...replies].sort());
    const jobIds = [...jobsBefore, ...checks];
    const jobs = await until(async () => {
      const { rows } = await pool.query<{ id: string; status: string; kind: string; report_id: string | null; reason: string | null; attempts: number }>(
        `SELECT id, status, kind, report_id, reason, attempts FROM jobs WHERE id = ANY($1)`, [jobIds]);
      return rows.length === jobIds.length && rows.every((r) => FINAL.includes(r.status)) ? rows : undefined;
    }, 'every accepted job to end', 180_000, 500);
    expect(jobs.filter((j) => j.status === 'failed')).toEqual([]);
    for (const j of jobs.filter((x) => jobsBefore.includes(x.id))) if (j.status === 'complete') expect(j.report_id).toMatch(/^rep_/);
    // And the queue drains: nothing is left active or waiting in pg-boss.
    await until(async () => {
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('report', 'check') AND state IN ('created', 'retry', 'active')`);
      return rows[0]!.n === 0;
    }, 'the report and check queues to drain', 60_000, 500);

    // The change feed listens again, so the caches serve from memory again, and
    // a revocation made now is heard at once (a cache that came back without
    // its LISTEN would accept the revoked key for up to its TTL, a minute).
    await until(async () => (await pool.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = 'reliability-scoring-changes'`)).rowCount, 'the change feed to listen again', 15_000, 100);
    const second = (await createKey(pool, 'outage-second')).key;
    expect((await call('status', '/v1/status', undefined, second)).status).toBe(200);
    await revokeKey(pool, 'outage-second');
    await until(async () => (await call('status', '/v1/status', undefined, second)).status === 401, 'the revoked key to be refused', 2_000, 20);

    // The process stayed up and logged no unexpected error (a 500's log line).
    expect(service.child.exitCode).toBeNull();
    expect(service.stderr()).not.toMatch(/unhandled error|uncaught|unhandledRejection/i);

    const latencies = during.map((s) => s.t1 - s.t0).sort((a, b) => a - b);
    const p99 = Math.round(latencies[Math.floor(latencies.length * 0.99)]!);
    expect(p99).toBeLessThan(1_000);
    process.stdout.write(
      `pg outage: PostgreSQL down ${Math.round(restartAt - stopAt)} ms (stop took ${Math.round(stoppedAt - stopAt)} ms, start ${Math.round(readyAt - restartAt)} ms); ` +
        `${samples.length} requests, ${during.length} inside the outage (all keyed ones 503; p99 ${p99} ms, max ${Math.round(latencies.at(-1)!)} ms); recovery: first 200 on /v1/status ${recoveryMs} ms after PostgreSQL accepted connections; ` +
        `${replies.length} replies and ${jobIds.length} jobs acknowledged, all stored, jobs ${[...new Set(jobs.map((j) => j.status))].join('/')} (${open.length} still open when PostgreSQL stopped, one running; attempts ${jobs.map((j) => j.attempts).join(',')})\n`,
    );
  }, 400_000);
});
