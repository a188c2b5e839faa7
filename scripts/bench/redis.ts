import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { stop } from './process.ts';

/**
 * A redis-server for a benchmark (Debian's, at REDIS_SERVER or
 * /usr/bin/redis-server), on a free loopback port, no persistence; null
 * when there is none on this machine.
 */
export async function startBenchRedis(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const bin = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
  if (!existsSync(bin)) return null;
  const port = await new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.end();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop(child);
      throw new Error(`${bin} did not start`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}/0`, stop: () => stop(child) };
}
