import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { NODE, ROOT, keyCommand, postgresPidsFor } from './helpers/process.ts';
import { storeFakeReport, tempDataDir } from './site-fixtures.ts';

/**
 * The command-line tools as a user runs them (`npm run --silent <name> -- …`
 * runs these very scripts on the pinned Node): which database the key
 * command used, `npm run export`, and the snake_case of every `--json`.
 */

const run = promisify(execFile);
let db: TestDatabase;
let data: Awaited<ReturnType<typeof tempDataDir>>;

beforeAll(async () => {
  db = await createTestDatabase('cli');
  data = await tempDataDir('cli');
});
afterAll(async () => {
  await db.drop();
  await data.remove();
});

/** Runs a script; a failing exit is returned, not thrown. */
async function cli(script: string, args: string[], env: Record<string, string>): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(NODE, [`scripts/${script}.ts`, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: 170_000, maxBuffer: 20_000_000 });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout: string; stderr: string; code: number };
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

/** Every field name, at any depth, that is not snake_case (camelCase: a capital after a lower-case letter or digit). */
function camelNames(value: unknown, at = '$'): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => camelNames(v, `${at}[${i}]`));
  return Object.entries(value).flatMap(([k, v]) => [...(/[a-z0-9][A-Z]/.test(k) ? [`${at}.${k}`] : []), ...camelNames(v, `${at}.${k}`)]);
}

describe('npm run key: which database', () => {
  it('names the embedded database it used, and warns when there was none and it made a new, empty one', async () => {
    const dir = path.join(data.dir, 'fresh');
    const env = { DATA_DIR: dir, DATABASE_URL: '' };
    try {
      const first = await keyCommand(['create', 'laptop'], env);
      expect(first.code, first.stderr).toBe(0);
      // stdout is the key alone, so that KEY=$(npm run --silent key -- create NAME) works.
      expect(first.stdout).toMatch(/^rss_[A-Za-z0-9_-]{43}\n$/);
      expect(first.stderr).toContain(`key: using the embedded PostgreSQL in ${path.join(dir, 'pg')} (DATA_DIR=${dir})`);
      expect(first.stderr).toMatch(/key: warning: .* held no database, so this command created a new, empty one there\..*401 "unknown or revoked"/);

      const second = await keyCommand(['create', 'desktop'], env);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(`embedded PostgreSQL in ${path.join(dir, 'pg')}`);
      expect(second.stderr).not.toMatch(/warning|new, empty/);
      const list = await keyCommand(['list'], env);
      expect(list.stdout).toMatch(/laptop[\s\S]*desktop/);
      expect(list.stderr).not.toMatch(/warning/);
    } finally {
      for (const pid of await postgresPidsFor(path.join(dir, 'pg'))) process.kill(pid, 'SIGINT');
    }
  }, 120_000);

  it('names DATABASE_URL\'s host and database, never its password', async () => {
    const url = new URL(db.url);
    expect(url.password.length).toBeGreaterThan(0);
    const res = await keyCommand(['create', 'server'], { DATABASE_URL: db.url, DATA_DIR: path.join(data.dir, 'unused') });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`key: using the PostgreSQL at ${url.hostname}:${url.port}, database ${url.pathname.slice(1)} (DATABASE_URL)`);
    expect(res.stderr).not.toContain(url.password);
    expect(res.stderr).not.toMatch(/warning/);
    const { rows } = await db.pool.query(`SELECT name FROM api_keys WHERE name = 'server' AND revoked_at IS NULL`);
    expect(rows).toHaveLength(1);
  });
});

describe('npm run export', () => {
  it('runs the nightly export once, now, and prints where it wrote', async () => {
    const report = await storeFakeReport(db.pool, { name: 'Cedar Export Trust', claims: 4 });
    const env = { DATABASE_URL: db.url, DATA_DIR: data.dir };
    const res = await cli('export', ['--date', '2026-11-20'], env);
    expect(res.code, res.stderr).toBe(0);
    const dir = path.join(data.dir, 'site', 'current', 'client', 'exports', '2026-11-20');
    expect(res.stdout.split('\n')[0]).toBe(`export 2026-11-20 written to ${dir} (served at /exports/2026-11-20/; the newest manifest at /exports/latest.json)`);
    expect(res.stderr).toContain(`database ${new URL(db.url).pathname.slice(1)} (DATABASE_URL)`);
    expect((await readdir(dir)).sort()).toEqual(['manifest.json', 'reliability-2026-11-20.jsonl', 'reliability-claims-2026-11-20.csv', 'reliability-reviews-2026-11-20.csv', 'reliability-scores-2026-11-20.csv']);
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ date: '2026-11-20', counts: { subjects: 1, reports: 1, claims: 4 } });
    for (const f of manifest.files) expect(res.stdout).toContain(`${f.name}  ${f.records} records, ${f.bytes} bytes, sha256 ${f.sha256}`);
    expect(await readFile(path.join(dir, 'reliability-2026-11-20.jsonl'), 'utf8')).toContain(report.reportId);

    // Again, another day, as JSON: the same names as the API's.
    const again = await cli('export', ['--date', '2026-11-21', '--json'], env);
    expect(again.code, again.stderr).toBe(0);
    const out = JSON.parse(again.stdout);
    expect(out).toMatchObject({ date: '2026-11-21', path: '/exports/2026-11-21/', build_id: expect.any(String), manifest: { date: '2026-11-21' } });
    expect(out.dir).toBe(path.join(data.dir, 'site', 'current', 'client', 'exports', '2026-11-21'));
    expect(camelNames(out)).toEqual([]);
    expect(JSON.parse(await readFile(path.join(data.dir, 'site', 'current', 'client', 'exports', 'latest.json'), 'utf8'))).toEqual(out.manifest);

    expect(await cli('export', ['--date', '2026-13-01'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/not a date/) });
  }, 180_000);
});

describe('--json output is snake_case, as the API is', () => {
  beforeAll(async () => {
    await ingestPack(db.pool, createReadStream(SAMPLE_PACK));
  });
  const env = () => ({ DATABASE_URL: db.url, DATA_DIR: data.dir, PIPELINE_THREADS: '0' });

  it('npm run research -- --json', async () => {
    const res = await cli('research', ['Imogen Thale', '--today', '2026-11-21', '--json'], env());
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ status: 'complete', report_id: expect.stringMatching(/^rep_/), generated_at: expect.any(String) });
    expect(camelNames(out)).toEqual([]);
  }, 120_000);

  it('npm run import -- --json', async () => {
    const file = path.join(data.dir, 'liar.tsv');
    await writeFile(file, `${['501.json', 'half-true', 'Pellow Ferries carried 41,000 passengers in June 2024.', 'transport', 'orla-vantreece', 'Harbour master', 'Pellow', 'none', '0', '0', '1', '0', '0', 'a radio interview'].join('\t')}\n`);
    const res = await cli('import', ['--format', 'liar', file, '--today', '2026-11-21', '--json'], env());
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ dataset: 'liar', claims: 1, written: { inserted: 1 } });
    expect(camelNames(out)).toEqual([]);
  }, 120_000);

  it('npm run measure -- --json', async () => {
    const res = await cli('measure', ['--no-rejudge', '--json'], env());
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ measured_at: expect.any(String), rejudged: 0 });
    expect(camelNames(out)).toEqual([]);
  }, 120_000);
});
