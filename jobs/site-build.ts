import { randomUUID } from 'node:crypto';
import { mkdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { PgBoss } from 'pg-boss';
import { z } from 'zod';
import { loadConfig, type Config } from '../core/config.ts';
import type { Pool } from '../core/db/pool.ts';
import { writeFileAtomic } from '../core/site/layout.ts';
import { startNightlyExportWorker } from './nightly-export.ts';
import { QUEUES } from './queues.ts';
import { buildSite, type BuildRequest, type SiteOptions } from './site/builds.ts';

/**
 * The site-build queue. A finished report asks for a build
 * (requestSiteBuild); so does a worker's start (to catch up, e.g. after the
 * site code changed). Requests are coalesced by pg-boss's debounce
 * (sendDebounced, keyed `site`): within one SITE_BUILD_DEBOUNCE_SECONDS slot
 * the first request runs at once and all the others share one job at the
 * start of the next slot, so a burst of reports gives at most two builds, not
 * one each. The build itself is driven by data, not by the request: it
 * publishes whatever changed since the live version (jobs/site/builds.ts),
 * so running it twice, or for a report another build already published, is
 * a no-op.
 */

export const SiteBuildPayload = z.object({
  reason: z.string().max(500).default('requested'),
  full: z.boolean().default(false).describe('Rebuild every page with Astro, not only what changed.'),
});

type Log = { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
type Settings = SiteOptions & { debounceSeconds: number };

// The site settings of each pg-boss instance whose site workers run here: a
// build is requested only where one can be run, into the site it belongs to.
const active = new WeakMap<PgBoss, Settings>();

export function siteOptions(config: Config, log?: Log): Settings {
  return { siteDir: config.siteDir, siteUrl: config.siteUrl ?? null, exportKeepDays: config.siteExportKeepDays, debounceSeconds: config.siteBuildDebounceSeconds, ...(log ? { log } : {}) };
}

/** Asks for a site build; coalesced with others in the same debounce slot. Null when none was queued. */
export async function requestSiteBuild(boss: PgBoss, req: BuildRequest): Promise<string | null> {
  const s = active.get(boss);
  if (!s) return null;
  const data = SiteBuildPayload.parse(req);
  if (data.full || s.debounceSeconds <= 0) return boss.send(QUEUES.siteBuild, data);
  return boss.sendDebounced(QUEUES.siteBuild, data, null, s.debounceSeconds, 'site');
}

/**
 * Whether this process builds the site in config.siteDir from this database.
 * A site folder is built from one database only, named in `owner.json` by an
 * id kept in that database (service_state), so that two installations that
 * share a DATA_DIR (or a test pointed at a scratch database) never write one
 * another's pages:
 * - with the embedded PostgreSQL, only when the pool's database is the one
 *   kept in DATA_DIR/pg, which then owns the folder;
 * - with DATABASE_URL, when the folder is new or already this database's.
 */
export async function siteBelongsTo(pool: Pool, config: Config): Promise<boolean> {
  if (!config.databaseUrl) {
    try {
      const { rows } = await pool.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`);
      const own = path.join(config.dataDir, 'pg');
      const [a, b] = await Promise.all([realpath(rows[0]!.dir), realpath(own).catch(() => own)]);
      if (a !== b) return false;
    } catch {
      return false;
    }
  }
  await pool.query(`INSERT INTO service_state (key, value) VALUES ('site_database_id', to_jsonb($1::text)) ON CONFLICT (key) DO NOTHING`, [randomUUID()]);
  const id = (await pool.query<{ id: string }>(`SELECT value #>> '{}' AS id FROM service_state WHERE key = 'site_database_id'`)).rows[0]!.id;
  const file = path.join(config.siteDir, 'owner.json');
  const owner = await readFile(file, 'utf8').then((t) => (JSON.parse(t) as { database_id?: string }).database_id, () => undefined);
  if (owner === id) return true;
  if (owner !== undefined && config.databaseUrl) return false;
  // New, or the embedded database taking back its own folder (its next build is a full one: the pages are another database's).
  await mkdir(config.siteDir, { recursive: true });
  await writeFileAtomic(file, `${JSON.stringify({ database_id: id, claimed_at: new Date().toISOString() })}\n`);
  return true;
}

export async function startSiteWorkers(boss: PgBoss, pool: Pool, log?: Log, config: Config = loadConfig()): Promise<void> {
  if (!(await siteBelongsTo(pool, config))) {
    log?.warn({ site: config.siteDir }, 'static site builds are off in this process: the site folder belongs to another database (see README, "Static site")');
    return;
  }
  const s = siteOptions(config, log);
  active.set(boss, s);
  // One build at a time per process (the site lock orders builds across processes).
  // Polled every half second (pg-boss's default is 2 s): a stored report's page should not wait on the poll.
  await boss.work(QUEUES.siteBuild, { batchSize: 1, localConcurrency: 1, pollingIntervalSeconds: 0.5 }, async (jobs) => {
    for (const j of jobs) await buildSite(pool, s, SiteBuildPayload.parse(j.data ?? {}));
  });
  await startNightlyExportWorker(boss, pool, s, config.siteExportCron);
  await requestSiteBuild(boss, { reason: 'worker start' });
}
