import { mkdir, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../core/site/layout.ts';
import { CACHE_FILE, PageCache, StaleCacheError, readCacheList, stampFile } from './page-cache.ts';

/**
 * The page cache on folders laid out as builds are (builds/<id>/client/…),
 * without Astro: a page is taken from the last version only when its data
 * hashes the same, the list was made by the same renderer, and the files it
 * lists are still the very files (inodes) it was written as.
 */

let root: string;
const FILE = 'reports/rep_a/index.html';
const DATA = JSON.stringify({ view: 'report', report_id: 'rep_a', quote: 'We will fix 100 leaks.' });

const client = (build: string) => path.join(root, build, 'client');
const ino = async (p: string) => (await stat(p)).ino;

/** A version with one rendered page (and, unless `small`, its copies), its list written as a full build writes it. */
async function version(build: string, o: { small?: boolean; data?: string } = {}): Promise<void> {
  const cache = await PageCache.open(null);
  cache.start(client(build));
  expect(await cache.reuse(FILE, o.data ?? DATA)).toBe(false);
  const file = path.join(client(build), FILE);
  await mkdir(path.dirname(file), { recursive: true });
  await mkdir(path.join(client(build), '_astro'), { recursive: true });
  await writeFile(path.join(client(build), '_astro', 'site.Ab12.css'), 'body{}');
  await writeFile(file, '<html>page</html>');
  const files = [stampFile(await stat(file, { bigint: true }))];
  if (!o.small) {
    for (const ext of ['.br', '.gz']) {
      await writeFile(file + ext, `copy${ext}`);
      files.push(stampFile(await stat(file + ext, { bigint: true })));
    }
  }
  cache.rendered(FILE, files);
  await cache.write(path.join(root, build));
}

/** A new build's folder with Astro's assets as `names`. */
async function newBuild(build: string, names = ['site.Ab12.css']): Promise<string> {
  for (const n of names) await writeFileAtomic(path.join(client(build), '_astro', n), 'body{}');
  return client(build);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'page-cache-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Opens the cache of version `from` for a new build whose client folder is `to`, already writable. */
async function opened(from: string, to: string, enabled = true): Promise<PageCache> {
  const cache = await PageCache.open(path.join(root, from), enabled);
  cache.start(to);
  return cache;
}

describe('the page cache', () => {
  it('links a page whose data hashes the same, with its copies: the same files, not copies of them', async () => {
    await version('a');
    const to = await newBuild('b');
    const cache = await opened('a', to);
    expect(cache.enabled).toBe(true);
    expect(await cache.reuse(FILE, DATA)).toBe(true);
    await cache.finish();
    for (const ext of ['', '.br', '.gz']) expect(await ino(path.join(to, FILE + ext))).toBe(await ino(path.join(client('a'), FILE + ext)));
    expect(cache.reused).toBe(1);
    await cache.checkAssets(to);
    expect(() => cache.assertSound()).not.toThrow();
    // The new version lists the page as the old did: the next build may take it again.
    await cache.write(path.join(root, 'b'));
    expect(readCacheList(path.join(root, 'b'))!.pages[FILE]).toEqual(readCacheList(path.join(root, 'a'))!.pages[FILE]);
  });

  it('links the pages taken before the new folder may be written once it may (Astro empties it as it builds)', async () => {
    await version('a');
    const cache = await PageCache.open(path.join(root, 'a'));
    expect(await cache.reuse(FILE, DATA)).toBe(true);
    const to = await newBuild('b');
    await expect(stat(path.join(to, FILE))).rejects.toThrow();
    cache.start(to);
    await cache.finish();
    expect(await ino(path.join(to, FILE))).toBe(await ino(path.join(client('a'), FILE)));
  });

  it('renders a page whose data changed by one character', async () => {
    await version('a');
    const cache = await opened('a', await newBuild('b'));
    expect(await cache.reuse(FILE, DATA.replace('100', '101'))).toBe(false);
    expect(cache.reused).toBe(0);
  });

  it('reads nothing from a list made by another renderer, or with no list at all', async () => {
    await version('a');
    const list = JSON.parse(await readFile(path.join(root, 'a', CACHE_FILE), 'utf8'));
    await writeFile(path.join(root, 'a', CACHE_FILE), JSON.stringify({ ...list, identity: 'another renderer' }));
    const other = await opened('a', await newBuild('b'));
    expect(other.enabled).toBe(false);
    expect(await other.reuse(FILE, DATA)).toBe(false);
    expect(await (await opened('nothing', await newBuild('c'))).reuse(FILE, DATA)).toBe(false);
    // Nor when the build asks for none.
    await writeFile(path.join(root, 'a', CACHE_FILE), JSON.stringify(list));
    expect(await (await opened('a', await newBuild('d'), false)).reuse(FILE, DATA)).toBe(false);
  });

  it('renders a page replaced since it was listed (as an incremental build replaces it: by rename, a new inode), even with the same size', async () => {
    await version('a');
    await writeFileAtomic(path.join(client('a'), FILE), '<html>PAGE</html>');
    expect(await (await opened('a', await newBuild('b'))).reuse(FILE, DATA)).toBe(false);
  });

  it('renders a page whose copies are not those it was listed with', async () => {
    await version('a');
    await writeFileAtomic(path.join(client('a'), `${FILE}.br`), 'other copy');
    expect(await (await opened('a', await newBuild('b'))).reuse(FILE, DATA)).toBe(false);
    await version('c');
    await unlink(path.join(client('c'), `${FILE}.gz`));
    expect(await (await opened('c', await newBuild('d'))).reuse(FILE, DATA)).toBe(false);
  });

  it('takes a small page without copies, and none appear', async () => {
    await version('a', { small: true });
    const to = await newBuild('b');
    expect(await (await opened('a', to)).reuse(FILE, DATA)).toBe(true);
    await expect(stat(path.join(to, `${FILE}.br`))).rejects.toThrow();
  });

  it('when the new build names other asset files: no page is reused from then on, and one reused before fails the build', async () => {
    await version('a');
    const to = await newBuild('b', ['site.Zz99.css']);
    const before = await opened('a', to);
    await before.checkAssets(to);
    expect(await before.reuse(FILE, DATA)).toBe(false);
    expect(() => before.assertSound()).not.toThrow();

    const to2 = await newBuild('c', ['site.Zz99.css']);
    const after = await opened('a', to2);
    expect(await after.reuse(FILE, DATA)).toBe(true);
    await after.checkAssets(to2);
    expect(() => after.assertSound()).toThrow(StaleCacheError);
  });

  it('fails (never writes into a linked file) when the page is already in the new build', async () => {
    await version('a');
    const to = await newBuild('b');
    await writeFileAtomic(path.join(to, FILE), 'already here');
    await expect((await opened('a', to)).reuse(FILE, DATA)).rejects.toThrow(/EEXIST/);
    expect(await readFile(path.join(client('a'), FILE), 'utf8')).toBe('<html>page</html>');
  });
});
