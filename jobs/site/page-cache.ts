import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../core/method/version.ts';
import { clientDir, writeFileAtomic } from '../../core/site/layout.ts';
import { siteVersion } from '../../core/site/version.ts';
import { DATA_DIR } from './journal.ts';
import { ENCODINGS } from './precompress.ts';

/**
 * The page cache of full builds: a report, subject or browse page whose data
 * is byte for byte what the last version rendered it from, rendered by the
 * same renderer, is not rendered again; the new version takes the last
 * version's page and its .br and .gz copies as hard links (no copy, no
 * extra space). A full build costs its snapshot (every page's data is still
 * read and hashed) and the pages whose data changed.
 *
 * Key on both: every page is listed under the sha256 of its data's JSON, and
 * the whole list under the renderer's identity (renderIdentity: the site
 * version, which hashes the Astro project, the page data code, the
 * methodology and the method version; the render thread and compression
 * code and settings; Node's zlib and Brotli). A list made under another
 * identity is not read at all.
 *
 * The list is kept in the version's folder (`data/page-cache.json`) and
 * records, beside each page's data hash, the identity of the files it was
 * written as: inode, modification time (ns) and size of the page and of each
 * copy. Every file of a published version is replaced by rename, never
 * written in place (core/site/layout.ts), so a page an incremental build or a
 * nightly export has since replaced is a new inode, and its entry no longer
 * matches: it is rendered again. The list is never wrong for the bytes it
 * points to, so incremental publishing needs no change to stay correct.
 *
 * The page's stylesheet links name Astro's hashed asset files: the list
 * records those names too, and a build whose Astro output names others
 * fails with StaleCacheError (the build is then made again without the cache).
 */

export const CACHE_FILE = `${DATA_DIR}/page-cache.json`;
const ASSETS_DIR = '_astro';

/** inode, mtime in ns, size: of the page, then of each copy it has (ENCODINGS order). */
export type FileStamp = [ino: string, mtimeNs: string, size: string];
export type CacheEntry = { hash: string; files: FileStamp[] };
type CacheList = { identity: string; assets: string[]; pages: Record<string, CacheEntry> };

/** Everything that shapes a page's bytes besides its data. */
let code: Buffer | undefined;
export function renderIdentity(): string {
  const v = process.versions;
  code ??= Buffer.concat(['render-worker.ts', 'render-pool.ts', 'precompress.ts', 'page-cache.ts'].map((f) => readFileSync(path.join(REPO_ROOT, 'jobs', 'site', f))));
  return hash('sha256', Buffer.concat([Buffer.from(`${siteVersion()}\nnode ${v.node} zlib ${v.zlib} brotli ${v.brotli}\n`), code])).slice(0, 32);
}

export const dataHash = (json: string) => hash('sha256', json);

/** The stamps of a page and its copies as written (a render thread: its own thread, synchronous calls). */
export function stampFile(stat: { ino: bigint; mtimeNs: bigint; size: bigint }): FileStamp {
  return [String(stat.ino), String(stat.mtimeNs), String(stat.size)];
}

export class StaleCacheError extends Error {}

/** Astro's hashed asset files in a build's client folder (not their compressed copies), sorted. */
async function assetNames(client: string): Promise<string[]> {
  const names = await readdir(path.join(client, ASSETS_DIR)).catch(() => [] as string[]);
  return names.filter((n) => !ENCODINGS.some((e) => n.endsWith(e.ext))).sort();
}

export class PageCache {
  readonly #from: string | null;
  #old: CacheList | null;
  #stale: string | null = null;
  readonly #next: Record<string, CacheEntry> = {};
  /** Hashes of pages sent to be rendered, by file, until their stamps come back. */
  readonly #pending = new Map<string, string>();
  /** Pages to link once the new build's folder may be written (Astro empties it as it builds). */
  readonly #toLink: [file: string, count: number][] = [];
  #client: string | null = null;
  #linking: Promise<void> = Promise.resolve();
  reused = 0;

  private constructor(from: string | null, old: CacheList | null) {
    this.#from = from;
    this.#old = old;
  }

  /** The cache of the live version's folder; an empty one when there is none, it is unreadable, or was made under another identity. */
  static async open(previousBuildDir: string | null, enabled = true): Promise<PageCache> {
    if (!previousBuildDir || !enabled) return new PageCache(null, null);
    const old = await readFile(path.join(previousBuildDir, CACHE_FILE), 'utf8').then((t) => JSON.parse(t) as CacheList, () => null);
    if (!old || old.identity !== renderIdentity()) return new PageCache(null, null);
    return new PageCache(clientDir(previousBuildDir), old);
  }

  get enabled(): boolean {
    return this.#old !== null;
  }

  /**
   * True when the last version's page at `file` (relative to the client
   * folder) is to be taken: its data hashes the same and its files are still
   * those the list names. It is linked into the new build's client folder
   * once start() was called. Otherwise remembers the hash for the rendered
   * page's entry (rendered()).
   */
  async reuse(file: string, json: string): Promise<boolean> {
    const h = dataHash(json);
    const e = this.#old?.pages[file];
    if (e && e.hash === h && (await this.#unchanged(file, e))) {
      this.#next[file] = e;
      this.reused++;
      if (this.#client) await this.#link(file, e.files.length);
      else this.#toLink.push([file, e.files.length]);
      return true;
    }
    this.#pending.set(file, h);
    return false;
  }

  /** The new build's client folder may be written (Astro is done): the pages taken so far are linked, and those to come as they are taken. */
  start(client: string): void {
    this.#client = client;
    const queue = this.#toLink.splice(0);
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await this.#link(...next);
    };
    this.#linking = Promise.all(Array.from({ length: 8 }, worker)).then(() => {});
    // Awaited by finish(); a failure seen before then is not an unhandled rejection.
    this.#linking.catch(() => {});
  }

  /** Waits for the links; the first failure is thrown. */
  finish(): Promise<void> {
    return this.#linking;
  }

  async #link(file: string, count: number): Promise<void> {
    const exts = ['', ...ENCODINGS.map((x) => x.ext)].slice(0, count);
    await mkdir(path.dirname(path.join(this.#client!, file)), { recursive: true });
    // A link that fails fails the build (its folder is removed whole): a page is never both linked and rendered.
    await Promise.all(exts.map((x) => link(path.join(this.#from!, file + x), path.join(this.#client!, file + x))));
  }

  async #unchanged(file: string, e: CacheEntry): Promise<boolean> {
    const exts = ['', ...ENCODINGS.map((x) => x.ext)];
    const now = await Promise.all(exts.map((x) => stat(path.join(this.#from!, file + x), { bigint: true }).then(stampFile, () => null)));
    // The page and exactly the copies it was listed with (a page under the copies' threshold has none).
    return now.every((s, i) => (i < e.files.length ? s !== null && s.every((v, j) => v === e.files[i]![j]) : s === null));
  }

  /** A page rendered by the pool, with the stamps of what was written. */
  rendered(file: string, files: FileStamp[]): void {
    const h = this.#pending.get(file);
    if (h === undefined) return;
    this.#pending.delete(file);
    this.#next[file] = { hash: h, files };
  }

  /**
   * Once the Astro build is done: when it named other asset files than the
   * list's pages link to, no page is reused from here on, and assertSound()
   * fails the build if any was already.
   */
  async checkAssets(newClient: string): Promise<void> {
    if (!this.#old) return;
    const now = await assetNames(newClient);
    if (now.join('\n') === this.#old.assets.join('\n')) return;
    this.#stale = `the Astro build named other asset files (${now.join(', ')}) than the cached pages link to (${this.#old.assets.join(', ')})`;
    this.#old = null;
  }

  /** Throws StaleCacheError when a reused page links to asset files the new build does not have. */
  assertSound(): void {
    if (this.#stale && this.reused > 0) throw new StaleCacheError(this.#stale);
  }

  /** Writes the new version's list (before it goes live). */
  async write(buildDir: string): Promise<void> {
    const list: CacheList = { identity: renderIdentity(), assets: await assetNames(clientDir(buildDir)), pages: this.#next };
    await writeFileAtomic(path.join(buildDir, CACHE_FILE), JSON.stringify(list));
  }
}

/** For tests: the list a version was published with. */
export function readCacheList(buildDir: string): CacheList | null {
  try {
    return JSON.parse(readFileSync(path.join(buildDir, CACHE_FILE), 'utf8')) as CacheList;
  } catch {
    return null;
  }
}
