import { spawn, execFile, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
// The pinned Node that npm scripts run on (the `node` devDependency).
export const NODE = path.join(ROOT, 'node_modules', '.bin', 'node');

const run = promisify(execFile);

/** `npm run --silent key -- …` as a user would, by the same script. */
export async function keyCommand(args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(NODE, ['scripts/key.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

export type Service = { child: ChildProcess; url: string; startedMs: number; stdout: () => string; stderr: () => string };

/** Starts `scripts/start.ts` (what `npm start` runs) and waits for its URL line. */
export function startService(env: Record<string, string>, timeoutMs = 60_000, nodeArgs: string[] = []): Promise<Service> {
  const t0 = performance.now();
  const child = spawn(NODE, [...nodeArgs, 'scripts/start.ts'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time: ${err.slice(-500)}`)), timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, startedMs: performance.now() - t0, stdout: () => out, stderr: () => err });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited (${code}) before listening: ${err.slice(-500)}`));
    });
  });
}

export function stopService(s: Service, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (s.child.exitCode !== null) return Promise.resolve(s.child.exitCode);
  return new Promise((resolve) => {
    s.child.once('exit', (code) => resolve(code));
    s.child.kill(signal);
  });
}

/** Pids of PostgreSQL servers running on a data directory. */
export async function postgresPidsFor(clusterDir: string): Promise<number[]> {
  try {
    const { stdout } = await run('pgrep', ['-f', `postgres -D ${clusterDir}( |$)`]);
    return stdout.trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resident memory of a process, as the benchmarks read it. */
export { residentMib } from '../../scripts/bench/process.ts';
