import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NODE = process.execPath;

/** Spawns a script of ours and resolves once it prints `listening on <url>`. */
export function spawnListening(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string; ms: number }> {
  const t0 = performance.now();
  const child = spawn(NODE, [script], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]!, ms: performance.now() - t0 });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}) before listening`)));
  });
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function keyFor(name: string, env: Record<string, string>): string {
  return execFileSync(NODE, ['scripts/key.ts', 'create', name], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
}

/** A process's resident memory now (VmRSS) and at its peak (VmHWM), in MiB, from /proc. */
export async function residentMib(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const mib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { now: mib('VmRSS'), peak: mib('VmHWM') };
}
