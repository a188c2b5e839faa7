import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyCommand, postgresPidsFor, startService, stopService, type Service } from './helpers/process.ts';

/**
 * The service as `npm start` runs it: a real process with its own embedded
 * PostgreSQL under a fresh DATA_DIR. Start, serve, stop on a signal, start
 * again on the same DATA_DIR with everything kept.
 */

let dataDir: string;
let env: Record<string, string>;
let service: Service | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-life-'));
  await chmod(dataDir, 0o755);
  env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
});
afterAll(async () => {
  if (service) await stopService(service, 'SIGKILL');
  for (const pid of await postgresPidsFor(path.join(dataDir, 'pg'))) process.kill(pid, 'SIGINT');
  await rm(dataDir, { recursive: true, force: true });
});

describe('service lifecycle', () => {
  let key: string;

  it('makes a key from the command line before the service has ever run, printing only the key', async () => {
    const res = await keyCommand(['create', 'first-reader'], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^rss_[A-Za-z0-9_-]{43}\n$/);
    key = res.stdout.trim();
    // The command started a PostgreSQL for the moment and stopped it again.
    expect(await postgresPidsFor(path.join(dataDir, 'pg'))).toEqual([]);
  });

  it('starts on the DATA_DIR, prints one line with its URL, and serves', async () => {
    service = await startService(env);
    expect(service.stdout().trim().split('\n')).toHaveLength(1);
    const health = await fetch(`${service.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const status = await fetch(`${service.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(status.status).toBe(200);
    expect(((await status.json()) as { method_version: string }).method_version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
  });

  it('on its first start, researched every sample subject by itself: reports within a minute, refusals with reasons', async () => {
    const { until } = await import('./helpers/poll.ts');
    const listed = await until(async () => {
      const res = await fetch(`${service!.url}/v1/subjects`, { headers: { authorization: `Bearer ${key}` } });
      const body = (await res.json()) as { subjects: { name: string }[] };
      return body.subjects.length >= 3 ? body.subjects : undefined;
    }, 'finished sample reports', 60_000, 500);
    expect(listed.map((s) => s.name)).toEqual(expect.arrayContaining(['Brightwater Utilities', 'Imogen Thale', 'The Eastmere Ledger']));
    // The serving politician's job ended refused, with the reason (read through the research CLI's database).
    const { stdout } = await (await import('node:util')).promisify((await import('node:child_process')).execFile)(
      (await import('./helpers/process.ts')).NODE, ['scripts/research.ts', 'Rafe Dunmore', '--today', '2026-11-21'],
      { cwd: (await import('./helpers/process.ts')).ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
    ).catch((e: { stdout: string }) => e);
    expect(stdout).toMatch(/refused[\s\S]*political office/);
  });

  it('loaded the sample pack on its first start, so research runs at once', async () => {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { NODE, ROOT } = await import('./helpers/process.ts');
    const { stdout } = await promisify(execFile)(NODE, ['scripts/research.ts', 'The Eastmere Ledger', '--today', '2026-11-21'], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 });
    expect(stdout).toMatch(/The Eastmere Ledger \(outlet, sub_[0-9a-f]{16}\): complete/);
  });

  it('manages keys while the service runs, using the running database', async () => {
    const created = await keyCommand(['create', 'second-reader'], env);
    expect(created.code).toBe(0);
    const second = created.stdout.trim();
    expect((await fetch(`${service!.url}/v1/status`, { headers: { authorization: `Bearer ${second}` } })).status).toBe(200);

    const list = await keyCommand(['list'], env);
    expect(list.stdout).toMatch(/first-reader/);
    expect(list.stdout).toMatch(/second-reader/);
    // The list never shows a whole key.
    expect(list.stdout).not.toContain(second);

    expect((await keyCommand(['create', 'second-reader'], env)).code).toBe(1);
    expect((await keyCommand(['revoke', 'second-reader'], env)).code).toBe(0);
    expect((await fetch(`${service!.url}/v1/status`, { headers: { authorization: `Bearer ${second}` } })).status).toBe(401);
    expect((await keyCommand(['revoke', 'no-such-name'], env)).code).toBe(1);
    expect((await keyCommand(['frobnicate'], env)).code).toBe(2);
  });

  it('lets an in-flight request finish on SIGTERM, then stops its PostgreSQL and exits 0', async () => {
    // A request whose body is still arriving when the signal comes.
    const url = new URL('/v1/subjects/resolve', service!.url);
    const http = await import('node:http');
    const inflight = new Promise<number>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': '18' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write('{"name":');
      setTimeout(() => req.end('"Someone"}'), 400);
    });
    await new Promise((r) => setTimeout(r, 100));
    const exited = stopService(service!, 'SIGTERM');
    expect(await inflight).toBe(200); // answered in full, not cut off
    expect(await exited).toBe(0);
    expect(await postgresPidsFor(path.join(dataDir, 'pg'))).toEqual([]);
    service = undefined;
  });

  it('manages keys while the service is stopped', async () => {
    const list = await keyCommand(['list'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/first-reader/);
  });

  it('keeps all data across a restart on the same DATA_DIR, and stops on SIGINT too', async () => {
    service = await startService(env);
    const status = await fetch(`${service.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(status.status).toBe(200);
    expect(await stopService(service, 'SIGINT')).toBe(0);
    service = undefined;
    expect(await postgresPidsFor(path.join(dataDir, 'pg'))).toEqual([]);
  });

  it('recovers a PostgreSQL left behind by a service killed with SIGKILL', async () => {
    service = await startService(env);
    await stopService(service, 'SIGKILL');
    service = undefined;
    // Its PostgreSQL outlived it...
    expect((await postgresPidsFor(path.join(dataDir, 'pg'))).length).toBeGreaterThan(0);
    // ...and the next start adopts it, serves the stored keys, and stops it when asked.
    service = await startService(env);
    expect((await fetch(`${service.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect(await stopService(service, 'SIGTERM')).toBe(0);
    service = undefined;
    expect(await postgresPidsFor(path.join(dataDir, 'pg'))).toEqual([]);
  });

  it('refuses a bad configuration at start, naming the variable', async () => {
    await expect(startService({ ...env, PORT: 'eighty' }, 20_000)).rejects.toThrow(/PORT/);
    await expect(startService({ ...env, ROLE: 'worker' }, 20_000)).rejects.toThrow(/DATABASE_URL/);
  });
});
