/**
 * `npm run --silent import -- --format liar|claimreview|promises|fte FILE
 *   [--limit N] [--dataset NAME] [--subject NAME] [--kind KIND]
 *   [--said-on YYYY-MM-DD] [--today YYYY-MM-DD] [--json] [--quiet]`
 *
 * Imports a demo set: claims whose outcomes others have published. Each claim
 * is judged by the machine from its wording, speaker and date alone, and
 * stored beside the published outcome (GET /v1/demo). Idempotent: importing
 * the same file again changes nothing that has not changed. Skipped records
 * are reported on stderr with their line (or position); a summary goes to
 * stdout (--json: the whole summary as JSON). On a terminal, the claims
 * judged so far are shown on stderr (scripts/progress.ts), unless --json or
 * --quiet.
 * Exit codes: 0 imported (even with skipped records), 1 the file could not be
 * read or held nothing to import, 2 usage.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { jsonOutput } from '../core/snake-keys.ts';
import { openDatabase } from '../core/db/connect.ts';
import { FORMATS, isFormat } from '../core/demo/formats.ts';
import { importDemo } from '../core/demo/import.ts';
import { isIsoDate, type ParseOptions } from '../core/demo/rows.ts';
import { demoJudge } from '../jobs/demo-judge.ts';
import { closePipelinePool, configurePipelineThreads } from '../jobs/pipeline/cpu-pool.ts';
import { Progress } from './progress.ts';

const USAGE = `usage: npm run --silent import -- --format ${Object.keys(FORMATS).join('|')} FILE [--limit N] [--dataset NAME] [--subject NAME] [--kind person|organisation|outlet] [--said-on YYYY-MM-DD] [--today YYYY-MM-DD] [--json] [--quiet]`;

function usage(message?: string): never {
  process.stderr.write(`${message ? `${message}\n` : ''}${USAGE}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      format: { type: 'string' }, limit: { type: 'string' }, dataset: { type: 'string' }, subject: { type: 'string' }, kind: { type: 'string' },
      'said-on': { type: 'string' }, today: { type: 'string' }, json: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false },
    },
  });
} catch (err) {
  usage((err as Error).message);
}
const { values, positionals } = args;
const format = values.format ?? '';
if (!isFormat(format)) usage(values.format ? `unknown format "${format}"` : 'give --format');
if (positionals.length !== 1) usage('give exactly one FILE');
const limit = values.limit === undefined ? undefined : Number(values.limit);
if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) usage('--limit must be a whole number of 1 or more');
for (const d of [values['said-on'], values.today]) if (d !== undefined && !isIsoDate(d)) usage(`not a date (YYYY-MM-DD): ${d}`);
if (values.kind && !['person', 'organisation', 'outlet'].includes(values.kind)) usage(`unknown kind "${values.kind}"`);
if (values.dataset !== undefined && !/^[a-z0-9][a-z0-9._-]{0,99}$/.test(values.dataset)) usage('--dataset: lower-case letters, digits, ".", "_" and "-", at most 100');

const file = positionals[0]!;
let text: string;
try {
  text = await readFile(file, 'utf8');
} catch (err) {
  process.stderr.write(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}\n`);
  process.exit(1);
}

const opts: ParseOptions = {
  ...(values.dataset ? { dataset: values.dataset } : {}),
  ...(limit ? { limit } : {}),
  ...(values.subject ? { subject: values.subject } : {}),
  ...(values.kind ? { kind: values.kind as 'person' } : {}),
  ...(values['said-on'] ? { saidOn: values['said-on'] } : {}),
};
const parsed = FORMATS[format](text, opts);
for (const p of parsed.problems) process.stderr.write(`${file}${p.line === null ? '' : `:${p.line}`}: skipped: ${p.message}\n`);
if (parsed.rows.length === 0) {
  process.stderr.write(`${file}: nothing to import (${parsed.read} records read)\n`);
  process.exit(1);
}

const config = loadConfig();
configurePipelineThreads(config.pipelineThreads);
const db = await openDatabase(config, { mode: 'share', poolMax: 8 });
const progress = new Progress({ label: `import ${format}`, total: parsed.rows.length, noun: 'claims judged', json: values.json, quiet: values.quiet });
try {
  const summary = await importDemo(db.pool, parsed, {
    judge: demoJudge(db.pool, values.today ? { today: values.today } : {}),
    onBatch: (done, total) => progress.update(done, { total }),
  });
  progress.finish();
  if (values.json) {
    process.stdout.write(jsonOutput(summary));
  } else {
    const list = (o: Record<string, number>) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
    const resolved = Object.entries(summary.machine).filter(([k]) => !['unresolvable', 'pending'].includes(k)).reduce((a, [, v]) => a + v, 0);
    process.stdout.write(
      `${file}: ${summary.dataset}: ${summary.read} records read, ${summary.claims} claims imported (${summary.written.inserted} new, ${summary.written.updated} changed, ${summary.written.unchanged} unchanged), ${summary.skipped.length} skipped\n` +
      `  subjects: ${summary.subjects.created} new demo subjects${summary.subjects.updated ? `, ${summary.subjects.updated} gained this data set` : ''}${summary.subjects.not_demo.length ? `; ${summary.subjects.not_demo.length} share a name with a researched subject and stay as they are: ${summary.subjects.not_demo.slice(0, 5).join(', ')}` : ''}\n` +
      `  published outcomes: ${list(summary.published)}\n` +
      `  machine outcomes: ${list(summary.machine)} (machine-generated, unreviewed)\n` +
      `  the machine resolved ${resolved} of ${summary.claims}; agreement and coverage per set: GET /v1/demo\n`,
    );
  }
} finally {
  progress.abandon();
  await closePipelinePool();
  await db.close();
}
process.exit(0);
