import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { ROOT } from './helpers/process.ts';

/**
 * `redocly lint` (the pinned @redocly/cli, recommended ruleset as redocly.yaml
 * sets it) on the document the service serves: no error and no warning. Run
 * offline: telemetry and the update check are off, and the document has no
 * remote references.
 */

const run = promisify(execFile);
const CLI = path.join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

type Problem = { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] };
type LintResult = { totals: { errors: number; warnings: number; ignored: number }; problems: Problem[] };

let t: TestApp;
let dir: string;
let served: Record<string, unknown>;

beforeAll(async () => {
  t = await startTestApp({}, 'openapi-lint');
  served = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  dir = await mkdtemp(path.join(os.tmpdir(), 'rss-openapi-lint-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function lint(doc: unknown, name: string): Promise<LintResult> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(doc, null, 2));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  // Exit code 1 means problems were found: the JSON on stdout says which.
  const out = await run(process.execPath, [CLI, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json'], { env, cwd: dir, maxBuffer: 64 * 1024 * 1024, timeout: 60_000 })
    .catch((err: { stdout?: string; stderr?: string; code?: number }) => {
      if (err.code === 1 && err.stdout) return { stdout: err.stdout };
      throw new Error(`redocly lint did not run: ${err.stderr ?? err}`);
    });
  return JSON.parse(out.stdout) as LintResult;
}

const listed = (r: LintResult) => r.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`).join('\n');

describe('redocly lint', () => {
  it('finds nothing in the served document: no error, no warning', async () => {
    const result = await lint(served, 'openapi.json');
    expect(result.problems, listed(result)).toEqual([]);
    expect(result.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 90_000);

  it('would find a tag without a description and an example that breaks its schema', async () => {
    const spoiled = structuredClone(served) as { tags: { description?: string }[]; paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>> };
    delete spoiled.tags[0]!.description;
    spoiled.paths['/v1/labels']!.post!.requestBody!.content['application/json']!.example = { claim_id: 42 };
    const result = await lint(spoiled, 'spoiled.json');
    const rules = result.problems.map((p) => p.ruleId);
    expect(rules).toContain('tag-description');
    expect(rules).toContain('no-invalid-media-type-examples');
  }, 90_000);
});
