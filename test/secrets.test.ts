import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyCommand, postgresPidsFor, startService, stopService, type Service } from './helpers/process.ts';

/**
 * Keys never reach a log line: the service runs with every log level on, is
 * called with a live key, a revoked key and a wrong key, and its whole log
 * output is searched for them.
 */

let dataDir: string;
let env: Record<string, string>;
let service: Service | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-secrets-'));
  await chmod(dataDir, 0o755);
  env = { DATA_DIR: dataDir, PORT: '0', LOAD_SAMPLE_PACK: 'false' };
});
afterAll(async () => {
  if (service) await stopService(service, 'SIGKILL');
  for (const pid of await postgresPidsFor(path.join(dataDir, 'pg'))) process.kill(pid, 'SIGINT');
  await rm(dataDir, { recursive: true, force: true });
});

describe('secrets in logs', () => {
  it('no key, whole or in part, appears in the logs at the most verbose level', async () => {
    const live = (await keyCommand(['create', 'logged'], env)).stdout.trim();
    const gone = (await keyCommand(['create', 'gone'], env)).stdout.trim();
    await keyCommand(['revoke', 'gone'], env);
    service = await startService({ ...env, LOG_LEVEL: 'trace' });
    const wrong = `rss_${'Z'.repeat(43)}`;
    for (const key of [live, gone, wrong]) {
      await fetch(`${service.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
      await fetch(`${service.url}/v1/reports`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name": broken' });
      await fetch(`${service.url}/v1/subjects/resolve?key=${key}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"Nobody"}' });
    }
    expect(await stopService(service)).toBe(0);
    const logs = service.stderr() + service.stdout();
    service = undefined;
    expect(logs.length).toBeGreaterThan(1000); // it did log, verbosely
    for (const key of [live, gone, wrong]) {
      expect(logs).not.toContain(key);
      expect(logs).not.toContain(key.slice(4, 24));
    }
    expect(logs).not.toMatch(/authorization/i);
  });

  it('neither checked text nor a provider key reaches the logs, when a check job fails on its model', async () => {
    const modelKey = 'sk-model-secret-0123456789abcdef';
    const marker = 'Quintessa Morrow pledged 7,301 lanterns';
    const key = (await keyCommand(['create', 'checker'], env)).stdout.trim();
    // A model provider that cannot be reached: every call fails, the job fails, and says so in the logs.
    service = await startService({
      ...env, LOG_LEVEL: 'trace', MODEL_PROVIDER: 'openai', MODEL_BASE_URL: 'http://127.0.0.1:9/v1', MODEL_API_KEY: modelKey, MODEL_NAME: 'unreachable',
      MODEL_PRICE_INPUT_PER_MTOK: '1', MODEL_PRICE_OUTPUT_PER_MTOK: '1', MODEL_MAX_RETRIES: '0', MODEL_TIMEOUT_MS: '2000',
    });
    const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const res = await fetch(`${service.url}/v1/check`, { method: 'POST', headers: auth, body: JSON.stringify({ claims: [{ text: `${marker} by 2027.` }], author: 'Quintessa Morrow' }) });
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    let status = '';
    for (let i = 0; i < 600 && !['complete', 'failed', 'insufficient'].includes(status); i++) {
      status = ((await (await fetch(`${service.url}/v1/reports/${job_id}`, { headers: auth })).json()) as { status: string }).status;
      if (!['complete', 'failed', 'insufficient'].includes(status)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('failed');
    expect(await stopService(service)).toBe(0);
    const logs = service.stderr() + service.stdout();
    service = undefined;
    expect(logs).toMatch(/check job attempt failed/);
    expect(logs).not.toContain(marker);
    expect(logs).not.toContain('7,301');
    expect(logs).not.toContain(modelKey);
    expect(logs).not.toContain(modelKey.slice(3, 20));
  }, 120_000);
});
