import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { METHOD_SEMVER, buildIdOf, methodVersion, methodVersionOf, readMethodFiles, type MethodFile } from './version.ts';

const files: MethodFile[] = [
  { path: 'content/methodology.md', content: '# Method\nScore = 100 × mean.\n' },
  { path: 'core/method/score.ts', content: 'export const PRIOR = { alpha: 1, beta: 1 };\n' },
];

describe('buildIdOf', () => {
  it('hashes path, byte length and content of each file in path order, as the methodology says', () => {
    const one: MethodFile[] = [{ path: 'b.md', content: 'é' }, { path: 'a.ts', content: 'x' }];
    // 'é' is two bytes in UTF-8: the length is of bytes, not characters.
    const expected = createHash('sha256').update('a.ts\n1\nx\nb.md\n2\né\n', 'utf8').digest('hex').slice(0, 12);
    expect(buildIdOf(one)).toBe(expected);
  });

  it('is 12 hex characters and ignores the order the files are given in', () => {
    expect(buildIdOf(files)).toMatch(/^[0-9a-f]{12}$/);
    expect(buildIdOf([...files].reverse())).toBe(buildIdOf(files));
  });

  it('changes when the code changes', () => {
    const changed = files.map((f) => (f.path.endsWith('.ts') ? { ...f, content: 'export const PRIOR = { alpha: 2, beta: 2 };\n' } : f));
    expect(buildIdOf(changed)).not.toBe(buildIdOf(files));
  });

  it('changes when the text changes, even by one character', () => {
    const changed = files.map((f) => (f.path.endsWith('.md') ? { ...f, content: '# Method\nScore = 100 × mean!\n' } : f));
    expect(buildIdOf(changed)).not.toBe(buildIdOf(files));
  });

  it('changes when a file is renamed, added, or text moves between files', () => {
    const id = buildIdOf(files);
    expect(buildIdOf(files.map((f, i) => (i === 0 ? { ...f, path: 'content/method.md' } : f)))).not.toBe(id);
    expect(buildIdOf([...files, { path: 'content/prompts/judge.md', content: '' }])).not.toBe(id);
    const a = [{ path: 'a', content: 'xy' }, { path: 'b', content: '' }];
    const b = [{ path: 'a', content: 'x' }, { path: 'b', content: 'y' }];
    expect(buildIdOf(a)).not.toBe(buildIdOf(b));
  });

  it('treats a string and its UTF-8 bytes alike, and refuses a path given twice', () => {
    const asBytes = files.map((f) => ({ ...f, content: Buffer.from(f.content as string, 'utf8') }));
    expect(buildIdOf(asBytes)).toBe(buildIdOf(files));
    expect(() => buildIdOf([...files, files[0]!])).toThrow(RangeError);
  });
});

describe('methodVersionOf', () => {
  it('is <major>.<minor>.<patch>+<build id>', () => {
    expect(methodVersionOf(files)).toBe(`${METHOD_SEMVER}+${buildIdOf(files)}`);
    expect(methodVersionOf(files, '2.1.0')).toMatch(/^2\.1\.0\+[0-9a-f]{12}$/);
    expect(() => methodVersionOf(files, 'v2')).toThrow(RangeError);
  });
});

describe('readMethodFiles', () => {
  let root: string | null = null;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = null;
  });
  const write = (rel: string, text: string) => {
    const full = join(root!, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  };

  it('takes core/method and core/research without tests (not jobs/pipeline: the thread pool, search and model I/O), the methodology and content/prompts, in path order', () => {
    root = mkdtempSync(join(tmpdir(), 'method-version-'));
    write('core/method/score.ts', 'code');
    write('core/research/rules.ts', 'rules');
    write('jobs/pipeline/cpu-pool.ts', 'threads');
    write('core/research/judge.ts', 'judge');
    write('core/research/judge.test.ts', 'judge test');
    write('jobs/pipeline/run.ts', 'orchestration');
    write('jobs/other.ts', 'not the method');
    write('core/method/score.test.ts', 'test');
    write('core/method/types/beta.d.ts', 'types');
    write('core/other.ts', 'not the method');
    write('content/methodology.md', 'text');
    write('content/prompts/judge.md', 'prompt');
    write('content/sample-pack.jsonl', 'data');
    expect(readMethodFiles(root).map((f) => f.path)).toEqual([
      'content/methodology.md',
      'content/prompts/judge.md',
      'core/method/score.ts',
      'core/method/types/beta.d.ts',
      'core/research/judge.ts',
      'core/research/rules.ts',
    ]);

    const before = buildIdOf(readMethodFiles(root));
    write('core/method/score.test.ts', 'a changed test');
    expect(buildIdOf(readMethodFiles(root))).toBe(before);
    write('content/prompts/judge.md', 'a changed prompt');
    const afterPrompt = buildIdOf(readMethodFiles(root));
    expect(afterPrompt).not.toBe(before);
    write('core/research/judge.ts', 'a changed judge');
    const afterJudge = buildIdOf(readMethodFiles(root));
    expect(afterJudge).not.toBe(afterPrompt);
    write('jobs/pipeline/run.ts', 'changed orchestration');
    expect(buildIdOf(readMethodFiles(root))).toBe(afterJudge);
  });

  it('works without content/prompts, and refuses a root without the methodology', () => {
    root = mkdtempSync(join(tmpdir(), 'method-version-'));
    write('core/method/score.ts', 'code');
    expect(() => readMethodFiles(root!)).toThrow(/methodology\.md/);
    write('content/methodology.md', 'text');
    expect(readMethodFiles(root).map((f) => f.path)).toEqual(['content/methodology.md', 'core/method/score.ts']);
  });
});

describe('methodVersion', () => {
  it('is the version of this repository\'s method files, computed once', () => {
    const version = methodVersion();
    expect(version).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
    expect(version.startsWith(`${METHOD_SEMVER}+`)).toBe(true);
    expect(version).toBe(methodVersionOf(readMethodFiles()));
    expect(methodVersion()).toBe(version);
    const paths = readMethodFiles().map((f) => f.path);
    expect(paths).toContain('content/methodology.md');
    expect(paths).toContain('core/method/score.ts');
    expect(paths).toContain('core/method/version.ts');
    expect(paths.some((p) => p.endsWith('.test.ts'))).toBe(false);
  });
});
