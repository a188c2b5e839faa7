import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { until } from './poll.ts';

/**
 * A real Redis server (Debian's `redis-server`, which .ci/run installs) on a
 * free loopback port, with no persistence, for the tests of the Redis
 * rate-limit store. It can be stopped and started again on the same port.
 */
export type TestRedis = { url: string; port: number; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> };

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rss-redis-'));
  let child: ChildProcess | null = null;
  const url = `redis://127.0.0.1:${port}/0`;
  const start = async () => {
    const c = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    child = c;
    let failed: Error | null = null;
    c.once('error', (err) => (failed = err));
    await until(async () => {
      if (failed) throw new Error(`${REDIS_SERVER} could not be started (${failed.message}); install Debian's redis-server`);
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => {});
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    }, 'redis-server to accept connections', 10_000, 50);
  };
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((r) => {
      c.once('exit', () => r());
      c.kill('SIGTERM');
    });
  };
  await start();
  return { url, port, stop, start, close: async () => { await stop(); await rm(dir, { recursive: true, force: true }); } };
}
