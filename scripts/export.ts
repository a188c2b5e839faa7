/**
 * `npm run --silent export [-- --date YYYY-MM-DD] [--json]`
 *
 * Runs the nightly export now, once, in this process: the very function the
 * `nightly-export` job runs at SITE_EXPORT_CRON (jobs/nightly-export.ts),
 * against the configured database (DATABASE_URL, or the embedded PostgreSQL
 * in DATA_DIR). It brings the static site up to date, writes the night's
 * JSON Lines, the two CSV tables and the manifest into the live site's
 * `exports/<date>/` (today, UTC, unless --date), rewrites `latest.json`, and
 * publishes that version of the site. Works whether or not the service is
 * running (the site lock orders it with the service's own builds). Running it
 * twice on one date replaces that night's files.
 *
 * Prints the folder it wrote and each file (--json: the folder, the public
 * path and the manifest) on stdout; which database and site it used go to
 * stderr. Exit codes: 0 written, 1 failed (e.g. the site folder belongs to
 * another database), 2 usage.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { isIsoDate } from '../core/demo/rows.ts';
import { publicRoot } from '../core/site/layout.ts';
import { jsonOutput } from '../core/snake-keys.ts';
import { runNightlyExport } from '../jobs/nightly-export.ts';
import { siteBelongsTo, siteOptions } from '../jobs/site-build.ts';
import { createLogger } from './logger.ts';

const USAGE = 'usage: npm run --silent export [-- --date YYYY-MM-DD] [--json]';

let values;
try {
  ({ values } = parseArgs({ options: { date: { type: 'string' }, json: { type: 'boolean', default: false } } }));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
if (values.date !== undefined && !isIsoDate(values.date)) {
  process.stderr.write(`not a date (YYYY-MM-DD): ${values.date}\n${USAGE}\n`);
  process.exit(2);
}
const date = values.date ?? new Date().toISOString().slice(0, 10);

const config = loadConfig();
const db = await openDatabase(config, { mode: 'share', poolMax: 4 });
process.stderr.write(`export: using ${db.label}; site in ${config.siteDir}\n`);
let code = 0;
try {
  if (!(await siteBelongsTo(db.pool, config))) {
    throw new Error(`the site in ${config.siteDir} belongs to another database; run with the DATA_DIR and DATABASE_URL of the service that builds it (see README, "Static site")`);
  }
  // The build steps log as a worker's do (JSON lines on stderr), warnings and worse only.
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const r = await runNightlyExport(db.pool, siteOptions(config, log), date);
  const dir = path.join(publicRoot(config.siteDir), 'exports', date);
  if (values.json) {
    process.stdout.write(jsonOutput({ date, dir, path: `/exports/${date}/`, build_id: r.build_id, manifest: r.manifest }));
  } else {
    const c = r.manifest.counts;
    process.stdout.write(`export ${date} written to ${dir} (served at /exports/${date}/; the newest manifest at /exports/latest.json)\n`);
    for (const f of r.manifest.files) process.stdout.write(`  ${f.name}  ${f.records} records, ${f.bytes} bytes, sha256 ${f.sha256}\n`);
    process.stdout.write(`  manifest.json: ${c.subjects} subjects, ${c.reports} reports, ${c.scores} scores, ${c.claims} claims; method ${r.manifest.method_version}\n`);
  }
} catch (err) {
  process.stderr.write(`export: ${(err as Error).message}\n`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
