import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../core/method/version.ts';

/**
 * A full Astro build of site/ in a child process (site/build.ts), on the same
 * pinned Node. A child, because a Vite build is heavy and long: it never
 * blocks the worker's event loop, its memory is returned when it ends, and a
 * crash in it fails the build, not the worker. Children are killed when the
 * worker process exits, so a stopped service leaves no build running.
 */

const children = new Set<ChildProcess>();
let hooked = false;

function killChildrenOnExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of children) c.kill('SIGKILL');
  });
}

export type AstroBuild = { dataDir: string; outDir: string; cacheDir: string; timeoutMs?: number };

export function runAstroBuild(o: AstroBuild): Promise<{ ms: number }> {
  killChildrenOnExit();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'site', 'build.ts'), '--data', o.dataDir, '--out', o.outDir, '--cache', o.cacheDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
    child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 30 * 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      children.delete(child);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) {
        const last = out.trim().split('\n').at(-1) ?? '{}';
        try {
          resolve(JSON.parse(last) as { ms: number });
        } catch {
          resolve({ ms: 0 });
        }
      } else {
        const detail = (err || out).trim().split('\n').slice(-12).join('\n');
        reject(new Error(`the Astro build failed (${signal ?? `exit ${code}`}): ${detail}`));
      }
    });
  });
}
