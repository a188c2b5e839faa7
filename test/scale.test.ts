import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { createKey } from '../core/keys.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { until } from './helpers/poll.ts';
import { NODE, ROOT } from './helpers/process.ts';

/**
 * Several processes on one database, as the README's "Running at scale" has
 * it: two ROLE=api and two ROLE=worker processes. Limits hold across API
 * processes (counters in PostgreSQL), any API process answers any poll, and
 * every job runs exactly once.
 */

let db: TestDatabase;
const procs: ChildProcess[] = [];
let apis: string[] = [];

let dataDir: string;

function startProcess(env: Record<string, string>): Promise<{ child: ChildProcess; url: string | null }> {
  // A DATA_DIR of the test's own: the workers build the static site into it.
  const child = spawn(NODE, ['scripts/start.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url, DATA_DIR: dataDir, LOAD_SAMPLE_PACK: 'false', LOG_LEVEL: 'warn', PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
      else if (out.includes('worker started')) resolve({ child, url: null });
    });
    child.on('exit', (code) => reject(new Error(`process exited early (${code})`)));
  });
}

beforeAll(async () => {
  db = await createTestDatabase('scale');
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-scale-'));
  await ingestPack(db.pool, createReadStream(SAMPLE_PACK));
  const limits = { RATE_LIMIT_PER_MINUTE: '10', DAILY_JOB_LIMIT: '3' };
  const started = await Promise.all([
    startProcess({ ROLE: 'api', ...limits }),
    startProcess({ ROLE: 'api', ...limits }),
    startProcess({ ROLE: 'worker', PIPELINE_THREADS: '1' }),
    startProcess({ ROLE: 'worker', PIPELINE_THREADS: '1' }),
  ]);
  apis = started.flatMap((s) => (s.url ? [s.url] : []));
  expect(apis).toHaveLength(2);
}, 120_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => new Promise<void>((r) => (p.exitCode !== null ? r() : (p.once('exit', () => r()), p.kill('SIGTERM'))))));
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const call = (api: string, key: string, path: string, body?: unknown) =>
  fetch(`${api}${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });

describe('two API and two worker processes on one database', () => {
  it('share the per-key rate limit across API processes', async () => {
    const { key } = await createKey(db.pool, 'rate');
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await call(apis[i % 2]!, key, '/v1/status')).status);
    expect(codes.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(codes.slice(10)).toEqual([429, 429]);
  });

  it('share the daily job limit, answer any poll from either process, and run each job exactly once', async () => {
    const { key } = await createKey(db.pool, 'jobs');
    const subjects = [subjectIdFor('organisation', 'Brightwater Utilities'), subjectIdFor('person', 'Imogen Thale'), subjectIdFor('outlet', 'The Eastmere Ledger')];
    const jobs: string[] = [];
    for (const [i, subject_id] of subjects.entries()) {
      const res = await call(apis[i % 2]!, key, '/v1/reports', { subject_id });
      expect(res.status).toBe(202);
      jobs.push(((await res.json()) as { job_id: string }).job_id);
    }
    const fourth = await call(apis[1]!, key, '/v1/reports', { name: 'Jordan Avery', kind: 'person' });
    expect(fourth.status).toBe(429);
    for (const [i, job] of jobs.entries()) {
      // Polled from the process that did not take the request.
      await until(async () => {
        const r = await call(apis[(i + 1) % 2]!, key, `/v1/reports/${job}`);
        return r.status === 200 && ((await r.json()) as { status: string }).status === 'complete';
      }, `job ${job}`, 90_000, 500);
    }
    const { rows } = await db.pool.query(`SELECT j.id, j.attempts, (SELECT count(*)::int FROM reports r WHERE r.job_id = j.id) AS reports FROM jobs j WHERE j.id = ANY($1)`, [jobs]);
    expect(rows.map((r) => [r.attempts, r.reports])).toEqual(jobs.map(() => [1, 1]));
  }, 120_000);
});
