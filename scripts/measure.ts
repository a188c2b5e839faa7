/**
 * `npm run --silent measure [-- --no-rejudge] [--today YYYY-MM-DD] [--json] [--quiet]`
 *
 * Recomputes and publishes the measurement now, in this process, as the
 * nightly `measurement` job does (jobs/measurement.ts): first judging again
 * the demo claims a different method version judged (unless --no-rejudge),
 * then agreement with reviewers' labels and with each demo set. Works whether
 * or not the service is running; GET /v1/methodology shows the result.
 * Prints a summary (or, with --json, the stored measurement). On a terminal,
 * the demo claims judged again so far are shown on stderr
 * (scripts/progress.ts), unless --json or --quiet.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { jsonOutput } from '../core/snake-keys.ts';
import { openDatabase } from '../core/db/connect.ts';
import { isIsoDate } from '../core/demo/rows.ts';
import { runMeasurement } from '../jobs/measurement.ts';
import { closePipelinePool, configurePipelineThreads } from '../jobs/pipeline/cpu-pool.ts';
import { Progress } from './progress.ts';

const USAGE = 'usage: npm run --silent measure [-- --no-rejudge] [--today YYYY-MM-DD] [--json] [--quiet]';
let values;
try {
  ({ values } = parseArgs({ options: { 'no-rejudge': { type: 'boolean', default: false }, today: { type: 'string' }, json: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false } } }));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (values.today !== undefined && !isIsoDate(values.today)) {
  process.stderr.write(`not a date (YYYY-MM-DD): ${values.today}\n${USAGE}\n`);
  process.exit(2);
}

const config = loadConfig();
configurePipelineThreads(config.pipelineThreads);
const db = await openDatabase(config, { mode: 'share', poolMax: 8 });
try {
  // Only judging again takes long (the figures are a few queries): its progress is shown, once there is any.
  let progress: Progress | null = null;
  const m = await runMeasurement(db.pool, { rejudge: !values['no-rejudge'], ...(values.today ? { today: values.today } : {}) }, undefined, {
    onRejudged: (done, total) => {
      progress ??= new Progress({ label: 'measure: judging again', total, noun: 'demo claims', json: values.json, quiet: values.quiet });
      progress.update(done, { total });
    },
  }).finally(() => progress?.finish());
  if (values.json) process.stdout.write(jsonOutput(m));
  else {
    process.stdout.write(`measurement ${m.id} stored ${m.measured_at}${m.rejudged ? ` (${m.rejudged} demo claims judged again first)` : ''}\n`);
    for (const d of m.datasets) {
      const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
      process.stdout.write(`  ${d.dataset}: n ${d.n}, compared ${d.n_compared ?? 0}, coverage ${pct(d.coverage)}, agreement ${pct(d.agreement)}${d.brier !== undefined ? `, Brier (published) ${d.brier ?? 'n/a'}` : ''}\n`);
    }
    process.stdout.write('  agreement is not accuracy\n');
  }
} finally {
  await closePipelinePool();
  await db.close();
}
process.exit(0);
