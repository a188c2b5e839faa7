import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { writeFileAtomic } from '../../core/site/layout.ts';

/**
 * Precompressed copies of the site's text files: `<file>.br` and `<file>.gz`
 * beside each HTML, CSS, JSON, XML and SVG file, which the API's static
 * serving (@fastify/static `preCompressed`) sends by Accept-Encoding, and
 * which a CDN serving `current/client/` can use the same way.
 *
 * Every copy is written after its file, so it is never older than the file
 * it was made from. A version derived by hard links (an incremental build,
 * the nightly export) that replaces a file without rewriting its copies
 * leaves copies older than the file: the API sees that and sends the file
 * itself (api/routes/site.ts), never the old bytes.
 */

/** Smaller files are sent as they are (the API's compression threshold too): a copy would save a few bytes. */
export const PRECOMPRESS_MIN_BYTES = 1024;
const TEXT_FILE = /\.(html|css|json|xml|svg|txt|js|mjs)$/;
export const ENCODINGS = [
  { ext: '.br', name: 'br' },
  { ext: '.gz', name: 'gzip' },
] as const;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Brotli quality 5, not 11: a full build compresses every page of the site,
 * and quality 11 costs about 30 times the time for a few per cent fewer bytes
 * (measured on a report page: see README, "Static site"). Nor 4: on a report
 * page of 170 KB it takes about half the time (0.76 against 1.34 ms) for 16%
 * more bytes (16,312 against 14,008), and br is what browsers are sent.
 */
const BROTLI_OPTIONS = (size: number): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});
/**
 * Gzip at zlib's default level, 6, not 9: on a report page of 170 KB, 9 took
 * 35% longer for 1% fewer bytes (1.86 against 1.38 ms; 15,019 against
 * 15,183 bytes). The gzip copy goes only to clients that do not take br.
 */
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 6 };

export function compressBoth(content: Buffer): Promise<[Buffer, Buffer]> {
  return Promise.all([brotli(content, BROTLI_OPTIONS(content.length)), gzip(content, GZIP_OPTIONS)]);
}

/** The same copies, in the calling thread (a render worker: its own thread is the one to use). */
export function compressBothSync(content: Buffer): [Buffer, Buffer] {
  return [zlib.brotliCompressSync(content, BROTLI_OPTIONS(content.length)), zlib.gzipSync(content, GZIP_OPTIONS)];
}

export const isPrecompressible = (file: string) => TEXT_FILE.test(file);

/** Writes the compressed copies of one file (or removes stale ones when it is now too small to need them). */
export async function writeCompressedCopies(file: string, content: Buffer): Promise<void> {
  if (!isPrecompressible(file)) return;
  if (content.length < PRECOMPRESS_MIN_BYTES) {
    // In a hard-linked version these are links to the older file's copies; unlinking leaves the older version whole.
    for (const e of ENCODINGS) await unlink(file + e.ext).catch(() => {});
    return;
  }
  const [br, gz] = await compressBoth(content);
  await writeFileAtomic(`${file}.br`, br);
  await writeFileAtomic(`${file}.gz`, gz);
}

/** Writes a page of the site and its compressed copies. */
export async function writeSiteFile(file: string, content: string | Buffer): Promise<void> {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  await writeFileAtomic(file, bytes);
  await writeCompressedCopies(file, bytes);
}

/** True when both copies exist and are not older than the file. */
async function copiesFresh(file: string, mtimeMs: number): Promise<boolean> {
  for (const e of ENCODINGS) {
    const s = await stat(file + e.ext).catch(() => null);
    if (!s || s.mtimeMs < mtimeMs) return false;
  }
  return true;
}

/**
 * Compresses every text file of a tree that has no fresh copies (a full
 * build: all of Astro's output; files carried over from the last version keep
 * theirs), but the top-level folders in `skip` (pages written with their
 * copies already). A few at a time: zlib runs on libuv's thread pool, which also
 * serves the API's file reads.
 */
export async function precompressTree(root: string, o: { concurrency?: number; skip?: readonly string[] } = {}): Promise<{ files: number }> {
  const concurrency = o.concurrency ?? 4;
  const files: string[] = [];
  const walk = async (dir: string) => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && dir === root && o.skip?.includes(e.name)) continue;
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && isPrecompressible(p)) files.push(p);
    }
  };
  await walk(root);
  let done = 0;
  const worker = async () => {
    for (let f = files.pop(); f; f = files.pop()) {
      const s = await stat(f);
      if (s.size >= PRECOMPRESS_MIN_BYTES && (await copiesFresh(f, s.mtimeMs))) continue;
      await writeCompressedCopies(f, await readFile(f));
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { files: done };
}
