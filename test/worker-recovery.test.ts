import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { startReportWorkers } from '../jobs/report-worker.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';
import { NODE, ROOT } from './helpers/process.ts';

/**
 * A worker process killed with SIGKILL in the middle of a report job: the job
 * is not lost. pg-boss notices the missing heartbeat and hands the job to a
 * live worker, which finishes it; it is never left `running`.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '100000' }, 'recovery');
  await ingestPack(t.db.pool, createReadStream(SAMPLE_PACK));
});
afterAll(() => t.close());

function startWorkerProcess() {
  const child = spawn(NODE, ['scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ROLE: 'worker', DATABASE_URL: t.db.url, LOAD_SAMPLE_PACK: 'false', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise<typeof child>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('worker started')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
}

describe('a worker killed mid-job', () => {
  it('does not lose the job: another worker finishes it', async () => {
    const worker = await startWorkerProcess();
    const headers = bearer(await t.key());
    const res = await t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload: { name: 'Brightwater Utilities' } });
    const jobId = res.json().job_id as string;
    await until(async () => (await t.db.pool.query(`SELECT status FROM jobs WHERE id = $1`, [jobId])).rows[0].status === 'running', 'the worker to take the job', 30_000, 10);
    worker.kill('SIGKILL');
    const killedAt = Date.now();
    await new Promise((r) => worker.once('exit', r));
    // The job is still open, not lost and not ended by the kill.
    expect((await t.db.pool.query(`SELECT status FROM jobs WHERE id = $1`, [jobId])).rows[0].status).toMatch(/running|queued/);

    await startReportWorkers(t.boss, t.db.pool);
    const done = await until(async () => {
      const r = (await t.db.pool.query(`SELECT status, attempts, report_id FROM jobs WHERE id = $1`, [jobId])).rows[0];
      return r.status === 'complete' || r.status === 'failed' ? r : undefined;
    }, 'another worker to finish the job', 90_000, 100);
    const recoveryMs = Date.now() - killedAt;
    expect(done.status).toBe('complete');
    expect(done.attempts).toBe(2);
    expect(done.report_id).toMatch(/^rep_/);
    // Documented bound: heartbeat (10 s) + monitor pass (10 s) + retry delay + the research itself.
    expect(recoveryMs).toBeLessThan(60_000);
    process.stdout.write(`worker recovery: job finished ${recoveryMs} ms after the SIGKILL\n`);
  }, 120_000);
});
