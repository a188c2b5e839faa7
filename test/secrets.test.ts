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
});
