import { lstat, mkdir, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { removeTree, writeFileAtomic, type BuildManifest } from '../../core/site/layout.ts';
import { ENCODINGS, isPrecompressible, writeSiteFile } from './precompress.ts';

/**
 * Publishing a new version of the site in place, at the cost of the files it
 * changes, never of the site's size.
 *
 * A version derived from the live one (an incremental build) is written in
 * the live build folder (builds/<id>/) itself, in three steps:
 *
 * 1. Stage: every changed file (pages with their .br and .gz copies, the
 *    sitemap, the page data kept for the next build) is written under
 *    `journal/<version>/`, beside the site, never in it. Anything that fails
 *    here (a page that does not render, a full disk) leaves the live site as
 *    it was: the staged folder is removed.
 * 2. Commit: `intent.json`, the list of renames in order and the version's
 *    manifest, is written in one rename. That is the commit point.
 * 3. Apply: each staged file (or a new page's whole folder) is renamed over
 *    its place, one atomic rename each, in an order that keeps every link a
 *    reader can follow whole: new pages first, then the pages the site
 *    already had (report pages, subject pages, browse pages, the index), the
 *    sitemap, the page data; then the version's manifest goes into
 *    `versions/` (never changed again) and `build.json` (the live version)
 *    is replaced. A reader sees each page old or new, never half a page, and
 *    no page the site already had ever links to one that is not there yet.
 *
 * A process that dies after the commit point leaves `intent.json`: the next
 * build (or nightly export) finishes the renames before it does anything
 * else (recoverJournals), so a version is published whole or not at all. One
 * that dies before it leaves a staged folder without intent, which is
 * removed. Safe against a process that dies, not against the machine losing
 * power (nothing is fsynced, as before).
 */

type Op =
  | { op: 'rename'; from: string; to: string }
  /** A staged folder in place of a live one (a night's export made again): the live one goes to the journal's trash first. */
  | { op: 'replace'; from: string; to: string }
  | { op: 'unlink'; path: string }
  /** A live folder taken out (an export night past SITE_EXPORT_KEEP_DAYS): moved to the journal's trash, removed with it. */
  | { op: 'remove'; path: string };
type Intent = { ops: Op[]; manifest: BuildManifest };

export const JOURNAL_DIR = 'journal';
export const VERSIONS_DIR = 'versions';
/** Page data kept beside the pages (not public): what the next incremental build starts from. */
export const DATA_DIR = 'data';

/** Apply order: lower first. Pages that others link to come before the pages that link to them. */
function rank(rel: string): number {
  if (rel.startsWith('client/reports/')) return 0;
  if (rel.startsWith('client/subjects/')) return 1;
  if (rel.startsWith('client/browse/')) return 2;
  if (rel.startsWith('client/sitemaps/')) return 4;
  if (rel.startsWith('client/sitemap.xml') || rel.startsWith('client/robots.txt')) return 5;
  if (rel.startsWith('client/')) return 3;
  return 6;
}

export class Journal {
  readonly buildDir: string;
  readonly id: string;
  readonly dir: string;
  private readonly staged = new Map<string, 'file' | 'dir' | 'replace'>();
  private readonly unlinks = new Set<string>();
  private readonly removals = new Set<string>();
  private committed = false;

  private constructor(buildDir: string, id: string) {
    this.buildDir = buildDir;
    this.id = id;
    this.dir = path.join(buildDir, JOURNAL_DIR, id);
  }

  static async open(buildDir: string, id: string): Promise<Journal> {
    const j = new Journal(buildDir, id);
    await mkdir(path.join(j.dir, 'files'), { recursive: true });
    return j;
  }

  /** Where a file of the build folder (`client/…`, `data/…`) is staged. */
  stagedPath(rel: string): string {
    return path.join(this.dir, 'files', rel);
  }

  /** The live file the staged one will replace. */
  livePath(rel: string): string {
    return path.join(this.buildDir, rel);
  }

  /**
   * Stages a page or text file of the public site (`rel` under client/) with
   * its compressed copies. A page in a folder the site does not have yet (a
   * new report's) is published by renaming its whole folder: page and copies
   * appear together.
   */
  async writeSiteFile(rel: string, content: string | Buffer): Promise<void> {
    await writeSiteFile(this.stagedPath(rel), content);
    const folder = path.dirname(rel);
    const isNewFolder = rel.endsWith('/index.html') && folder.startsWith('client/') && !(await exists(this.livePath(folder)));
    if (isNewFolder) {
      this.staged.set(folder, 'dir');
      return;
    }
    this.staged.set(rel, 'file');
    if (!isPrecompressible(rel)) return;
    for (const e of ENCODINGS) {
      if (await exists(this.stagedPath(rel + e.ext))) this.staged.set(rel + e.ext, 'file');
      // Too small for copies now: the live page's older copies must go, or a CDN would send them.
      else this.unlinks.add(rel + e.ext);
    }
  }

  /** Stages a file that is not public (page data), written as it is. */
  async writeFile(rel: string, content: string | Buffer): Promise<void> {
    await writeFileAtomic(this.stagedPath(rel), content);
    this.staged.set(rel, 'file');
  }

  /** Takes in a folder written at stagedPath(rel): new, or in place of the live one. */
  async stageDir(rel: string): Promise<void> {
    this.staged.set(rel, (await exists(this.livePath(rel))) ? 'replace' : 'dir');
  }

  /** Takes a live folder out of the site when the version is applied (after every page that linked to it is replaced). */
  remove(rel: string): void {
    this.removals.add(rel);
  }

  /** Takes in a file already placed at stagedPath(rel) (e.g. a hard link to a live file). */
  track(rel: string): void {
    this.staged.set(rel, 'file');
  }

  get files(): number {
    return this.staged.size;
  }

  /** The commit point, then the renames. Past the commit point a failure leaves the intent for the next build to finish. */
  async commit(manifest: BuildManifest): Promise<void> {
    await this.prepare(manifest);
    await applyJournal(this.buildDir, this.id);
  }

  /** The commit point alone: from here on the version is published, by this process or, if it dies, by the next build. */
  async prepare(manifest: BuildManifest): Promise<void> {
    // New pages (whole new folders) first, then replaced files: by the time a page the site already had
    // changes, every new page it may link to is in place, so a page a reader can reach never links to a
    // missing one. (New pages may link to one another for a moment; nothing leads to them yet.)
    const order = (rel: string) => (this.staged.get(rel) === 'file' ? 10 : 0) + rank(rel);
    const ops: Op[] = [...this.staged.keys()]
      .sort((a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map((rel) => ({ op: this.staged.get(rel) === 'replace' ? ('replace' as const) : ('rename' as const), from: path.join('files', rel), to: rel }));
    for (const rel of this.unlinks) ops.push({ op: 'unlink', path: rel });
    for (const rel of this.removals) ops.push({ op: 'remove', path: rel });
    await writeFileAtomic(path.join(this.dir, 'intent.json'), JSON.stringify({ ops, manifest } satisfies Intent));
    this.committed = true;
  }

  /** Drops what was staged (before the commit point only). */
  async abort(): Promise<void> {
    if (!this.committed) await rm(this.dir, { recursive: true, force: true });
  }
}

const exists = (p: string) => lstat(p).then(() => true, () => false);

/** Applies a committed journal; idempotent, so a journal cut off halfway is finished by running it again. */
export async function applyJournal(buildDir: string, id: string, o: { afterEach?: (done: number, total: number) => Promise<void> } = {}): Promise<BuildManifest> {
  const dir = path.join(buildDir, JOURNAL_DIR, id);
  const intent = JSON.parse(await readFile(path.join(dir, 'intent.json'), 'utf8')) as Intent;
  let done = 0;
  const trash = (i: number) => path.join(dir, 'trash', String(i));
  for (const [i, op] of intent.ops.entries()) {
    if (op.op === 'replace') {
      const from = path.join(dir, op.from);
      const to = path.join(buildDir, op.to);
      // Done when the staged folder is gone; cut off between the two renames, the live one is in the trash already.
      if (await exists(from)) {
        if (await exists(to)) {
          await mkdir(path.dirname(trash(i)), { recursive: true });
          await rename(to, trash(i));
        }
        await rename(from, to);
      }
    } else if (op.op === 'remove') {
      const live = path.join(buildDir, op.path);
      if (await exists(live)) {
        await mkdir(path.dirname(trash(i)), { recursive: true });
        await rename(live, trash(i));
      }
    } else if (op.op === 'rename') {
      const from = path.join(dir, op.from);
      const to = path.join(buildDir, op.to);
      try {
        await rename(from, to);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && (await exists(to)) && !(await exists(from))) {
          // Renamed before the process that committed it stopped.
        } else if (code === 'ENOENT') {
          await mkdir(path.dirname(to), { recursive: true });
          await rename(from, to);
        } else throw err;
      }
    } else {
      await unlink(path.join(buildDir, op.path)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
    await o.afterEach?.(++done, intent.ops.length);
  }
  const body = `${JSON.stringify(intent.manifest)}\n`;
  await writeFileAtomic(path.join(buildDir, VERSIONS_DIR, `${intent.manifest.build_id}.json`), body);
  await writeFileAtomic(path.join(buildDir, 'build.json'), body);
  await removeTree(dir);
  return intent.manifest;
}

/**
 * Before a build touches the live folder: finishes every version committed
 * but not wholly applied (its process died mid-publish), and removes staged
 * folders never committed. Returns the versions finished.
 */
export async function recoverJournals(buildDir: string): Promise<string[]> {
  const root = path.join(buildDir, JOURNAL_DIR);
  const names = (await readdir(root).catch(() => [] as string[])).sort();
  const finished: string[] = [];
  for (const id of names) {
    if (await exists(path.join(root, id, 'intent.json'))) {
      await applyJournal(buildDir, id);
      finished.push(id);
    } else await rm(path.join(root, id), { recursive: true, force: true });
  }
  return finished;
}
