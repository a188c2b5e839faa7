import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The method version printed on every report: a semver that people bump, plus a
// build id that nobody can forget to bump, because it is a hash of the method's
// code and published text. Two reports with the same method_version were scored
// by the same code under the same text. The hashing rule is stated in
// content/methodology.md ("Versioning"); keep the two in step.

export const METHOD_SEMVER = '1.8.0';

/** One input to the build id: a path relative to the repository root, with forward slashes. */
export type MethodFile = { readonly path: string; readonly content: string | Uint8Array };

/** The repository root, two folders up from this file (core/method/). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The method is core/method (scoring) and core/research (the stages and their
 * rules). jobs/pipeline (the thread pool, search and model I/O, the
 * orchestration) is how the method is run, not what it is, and is left out.
 */
const METHOD_DIRS = ['core/method', 'core/research'];
const METHODOLOGY = 'content/methodology.md';
const PROMPTS_DIR = 'content/prompts';

/**
 * First 12 hex characters of SHA-256 over the files in path order; per file: path,
 * newline, content length in bytes, newline, content, newline. The length prefix
 * keeps the encoding unambiguous, so moving text from one file to the next changes
 * the id too.
 */
export function buildIdOf(files: readonly MethodFile[]): string {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = createHash('sha256');
  let previous: string | null = null;
  for (const file of sorted) {
    if (file.path === previous) throw new RangeError(`method file ${file.path} given twice`);
    previous = file.path;
    const bytes = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    hash.update(`${file.path}\n${bytes.byteLength}\n`, 'utf8');
    hash.update(bytes);
    hash.update('\n', 'utf8');
  }
  return hash.digest('hex').slice(0, 12);
}

/** `<major>.<minor>.<patch>+<build id>` for explicit files; methodVersion() reads the real ones. */
export function methodVersionOf(files: readonly MethodFile[], semver: string = METHOD_SEMVER): string {
  if (!/^\d+\.\d+\.\d+$/.test(semver)) throw new RangeError(`not a plain semver: ${semver}`);
  return `${semver}+${buildIdOf(files)}`;
}

/** Every file under `dir` (relative to root), recursively, as forward-slash relative paths. */
function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(join(root, rel)).isDirectory()) out.push(...listFiles(root, rel));
    else out.push(rel);
  }
  return out;
}

/**
 * The files the build id covers: core/method/ (scoring) and core/research/ (how
 * claims are found, tested and judged, and the method's rules) without their
 * tests, the methodology text, and content/prompts/ when it exists (prompts steer the machine judges, so
 * they are part of the method). Throws when the methodology text is missing: a
 * version computed without the published text would vouch for nothing.
 */
export function readMethodFiles(root: string = REPO_ROOT): MethodFile[] {
  const paths = METHOD_DIRS.filter((d) => existsSync(join(root, d)))
    .flatMap((d) => listFiles(root, d))
    .filter((p) => !p.endsWith('.test.ts'));
  if (!existsSync(join(root, METHODOLOGY))) throw new Error(`${METHODOLOGY} not found under ${root}`);
  paths.push(METHODOLOGY);
  if (existsSync(join(root, PROMPTS_DIR))) paths.push(...listFiles(root, PROMPTS_DIR));
  paths.sort();
  return paths.map((path) => ({ path, content: readFileSync(join(root, path)) }));
}

let cached: string | undefined;

/** The running method's version, computed on first use and then kept for the life of the process. */
export function methodVersion(): string {
  cached ??= methodVersionOf(readMethodFiles());
  return cached;
}
