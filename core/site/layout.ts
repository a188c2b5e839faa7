import { spawn } from 'node:child_process';
import { alive } from '../pid.ts';
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, readdir, readFile, readlink, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The static site's folder (DATA_DIR/site) and how a new version of the site
 * is published. Every full build is a folder of its own under `builds/`;
 * `current` is a symbolic link to the live one, replaced in one rename, and a
 * build that fails leaves the last good site untouched.
 *
 *   current -> builds/<id>       the live version
 *   builds/<id>/client/          the public site, served at / (copy this to a static host or CDN)
 *   builds/<id>/server/          the page renderer (@astrojs/node middleware bundle) of that build
 *   builds/<id>/build.json       the live version of that folder (BuildManifest)
 *   builds/<id>/versions/        every version published in that folder, one manifest each, never changed
 *   builds/<id>/data/            page data the next incremental build starts from (index, browse letters)
 *   builds/<id>/journal/         a version being published in place (jobs/site/journal.ts)
 *   work/                        data handed to a full Astro build, deleted after it
 *   cache/                       Astro's cache
 *   node_modules -> <project>/node_modules   where the renderer bundle finds its dependencies
 *   .lock                        held by the one process building
 *
 * A full build makes a new folder and swaps `current` to it. An incremental
 * build publishes in place, in the live folder: each changed file replaced
 * by one rename, after every file was staged and the version committed
 * (jobs/site/journal.ts), so its cost is the pages it changes, whatever the
 * site's size. A night's export starts a new folder as a copy made of hard
 * links (no extra space) and swaps `current` to it. Every file is replaced
 * by rename: a replaced file is a new inode, so a reader that opened the old
 * one reads it whole.
 */

export type BuildManifest = {
  build_id: string;
  kind: 'full' | 'incremental' | 'export';
  built_at: string;
  /** Hash of everything that shapes the pages except their data (site code, methodology text, method version). */
  site_version: string;
  based_on: string | null;
  /**
   * The database snapshot (pg_current_snapshot()) the version was built from:
   * a report, reply or review written by a transaction not visible in it is
   * new to the version (jobs/site/changes.ts). Null (or absent: a site
   * published before snapshots were recorded): only a full build can bring
   * it up to date.
   */
  db_snapshot: string | null;
  measurement_at: string | null;
  pages: number;
  rendered: number;
  ms: number;
};

export type SiteLayout = { root: string; current: string; builds: string; work: string; cache: string; nodeModules: string; lock: string };

export function siteLayout(siteDir: string): SiteLayout {
  return {
    root: siteDir,
    current: path.join(siteDir, 'current'),
    builds: path.join(siteDir, 'builds'),
    work: path.join(siteDir, 'work'),
    cache: path.join(siteDir, 'cache'),
    nodeModules: path.join(siteDir, 'node_modules'),
    lock: path.join(siteDir, '.lock'),
  };
}

/** The public files of a version, or of the live one. */
export const clientDir = (buildDir: string) => path.join(buildDir, 'client');
export const publicRoot = (siteDir: string) => clientDir(siteLayout(siteDir).current);

export function newBuildId(now = new Date()): string {
  // Sortable by time, unique across processes.
  return `${now.toISOString().replace(/[-:.TZ]/g, '').slice(0, 17)}-${randomBytes(4).toString('hex')}`;
}

export async function readCurrent(siteDir: string): Promise<{ dir: string; manifest: BuildManifest } | null> {
  const l = siteLayout(siteDir);
  try {
    const target = await readlink(l.current);
    const dir = path.resolve(siteDir, target);
    const manifest = JSON.parse(await readFile(path.join(dir, 'build.json'), 'utf8')) as BuildManifest;
    return { dir, manifest };
  } catch {
    return null;
  }
}

/** Writes a file by rename: readers see the old bytes or the new, and a hard-linked older copy is left as it was. */
export async function writeFileAtomic(file: string, content: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, file);
}

function run(cmd: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'ignore' });
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

/**
 * Copies a folder tree as hard links: folders are new, files are shared until
 * replaced. A large site is tens of thousands of links: GNU `cp -al` makes
 * them in a process of its own, which is faster and leaves this process's
 * thread pool (which also serves the API's file reads) free; elsewhere, or if
 * it fails, the same copy is made here.
 */
export async function cloneTree(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  if (process.platform === 'linux' && (await run('cp', ['-al', '--', from, to]))) return;
  await rm(to, { recursive: true, force: true });
  await cloneTreeHere(from, to);
}

async function cloneTreeHere(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const queue = await readdir(from, { withFileTypes: true });
  // Bounded parallelism: fast on a large site without exhausting file handles.
  const worker = async () => {
    for (let e = queue.shift(); e; e = queue.shift()) {
      const src = path.join(from, e.name);
      const dst = path.join(to, e.name);
      if (e.isDirectory()) await cloneTreeHere(src, dst);
      else if (e.isFile()) await link(src, dst);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, queue.length) }, worker));
}

/** Removes a folder tree; a large one by `rm -rf` in a process of its own (see cloneTree). */
export async function removeTree(dir: string): Promise<void> {
  if (process.platform !== 'win32' && (await run('rm', ['-rf', '--', dir]))) return;
  await rm(dir, { recursive: true, force: true });
}

/** Makes `builds/<id>` the live version, in one rename. */
export async function swapCurrent(siteDir: string, buildId: string): Promise<void> {
  const l = siteLayout(siteDir);
  const tmp = `${l.current}.${randomBytes(4).toString('hex')}`;
  await symlink(path.join('builds', buildId), tmp);
  await rename(tmp, l.current);
}

/**
 * Removes versions other than the live one and the one before it (a reader
 * may still be reading that), and leftovers of builds that did not finish.
 */
export async function pruneBuilds(siteDir: string, keep: readonly string[]): Promise<void> {
  const l = siteLayout(siteDir);
  const names = await readdir(l.builds).catch(() => [] as string[]);
  for (const n of names) if (!keep.includes(n)) await removeTree(path.join(l.builds, n));
  await removeTree(l.work);
}

/** The link through which the renderer bundle (built with its dependencies left outside) finds them. */
export async function ensureNodeModulesLink(siteDir: string, projectNodeModules: string): Promise<void> {
  const l = siteLayout(siteDir);
  await mkdir(siteDir, { recursive: true });
  try {
    if ((await readlink(l.nodeModules)) === projectNodeModules) return;
    await unlink(l.nodeModules);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EINVAL') throw new Error(`${l.nodeModules} exists and is not a link; remove it`);
  }
  await symlink(projectNodeModules, l.nodeModules, 'dir').catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
}

// One build at a time per site folder: in this process by a promise chain,
// across processes (several workers on one DATA_DIR) by a lock file holding
// the owner's pid, broken when that process is gone.
const chains = new Map<string, Promise<unknown>>();

async function acquireFileLock(file: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const me = JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString() });
  for (;;) {
    try {
      const h = await open(file, 'wx');
      await h.writeFile(me);
      await h.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      const owner = JSON.parse(await readFile(file, 'utf8')) as { pid: number; host: string; at: string };
      const stale = (owner.host === os.hostname() && !alive(owner.pid)) || Date.now() - Date.parse(owner.at) > 6 * 3600_000;
      if (stale) await unlink(file).catch(() => {});
    } catch {
      // Half-written by an owner that is starting: wait for it.
      const st = await lstat(file).catch(() => null);
      if (st && Date.now() - st.mtimeMs > 60_000) await unlink(file).catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`the site folder is locked by another build (${file})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function withSiteLock<T>(siteDir: string, fn: () => Promise<T>, timeoutMs = 30 * 60_000): Promise<T> {
  const prev = chains.get(siteDir) ?? Promise.resolve();
  const run = prev.catch(() => {}).then(async () => {
    await mkdir(siteDir, { recursive: true });
    const file = siteLayout(siteDir).lock;
    await acquireFileLock(file, timeoutMs);
    try {
      return await fn();
    } finally {
      await unlink(file).catch(() => {});
    }
  });
  chains.set(siteDir, run);
  try {
    return await run;
  } finally {
    if (chains.get(siteDir) === run) chains.delete(siteDir);
  }
}
