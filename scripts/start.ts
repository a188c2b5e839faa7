/**
 * `npm start`: the service. The composition root, and so the one file that
 * wires api/ and jobs/ together: database (embedded unless DATABASE_URL),
 * migrations, pg-boss, the HTTP API (ROLE all or api) and the workers (ROLE
 * all or worker). Prints one line with its URL on stdout; logs go to stderr.
 * SIGINT or SIGTERM: stop taking requests, let in-flight ones finish, stop the
 * workers, close the pool, stop the PostgreSQL this process started.
 */
import { loadConfig, ConfigError } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { loadSamplePackOnce } from '../core/corpus/sample.ts';
import { startServiceReportJob } from '../core/reports/service.ts';
import { buildApp } from '../api/app.ts';
import { startBoss } from '../jobs/boss.ts';
import { COUNTED_QUEUES, PGBOSS_SCHEMA } from '../jobs/queues.ts';
import { bossEnqueue } from '../jobs/enqueue.ts';
import { startAllWorkers } from '../jobs/workers.ts';
import { requestSiteBuild } from '../jobs/site-build.ts';
import { closePipelinePool, configurePipelineThreads, warmPipelinePool } from '../jobs/pipeline/cpu-pool.ts';
import { apiProviders, buildProviders } from '../core/providers/index.ts';
import { createLogger } from './logger.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  // Once per process, here and nowhere else: loadConfig is called by scripts and tests too.
  for (const warning of config.warnings) log.warn(warning);
  const db = await openDatabase(config, { log: (line) => log.debug({ postgres: line.trim() }) });
  let boss: Awaited<ReturnType<typeof startBoss>> | undefined;
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    // One set of providers for the workers and the API of this process.
    const providers = await buildProviders(config, db.pool);
    const loaded = config.loadSamplePack ? await loadSamplePackOnce(db.pool) : null;
    if (loaded) log.info({ subjects: loaded.subjects.read, documents: loaded.documents.read }, 'sample pack loaded (first start)');
    boss = await startBoss({ databaseUrl: db.url, role: config.role, onError: (err) => log.warn({ error: err.message }, 'pg-boss') });
    if (config.role !== 'api') {
      configurePipelineThreads(config.pipelineThreads);
      await startAllWorkers(boss, db.pool, log, config, providers);
    }
    if (loaded) {
      // The first start shows the main job: a report job for every sample subject
      // (the service's own: no key, no quota), so finished reports, and refused or
      // insufficient jobs with their reasons, are there within a minute.
      const deps = { pool: db.pool, enqueue: bossEnqueue(boss), limits: { dailyJobLimit: config.dailyJobLimit, dailySpendLimitUsd: config.dailySpendLimitUsd } };
      for (const id of loaded.subjectIds) await startServiceReportJob(deps, id);
      log.info({ jobs: loaded.subjectIds.length }, 'report jobs started for the sample subjects');
    }
    if (config.role !== 'worker') {
      app = await buildApp(
        { config, pool: db.pool, databaseUrl: db.url, bossSchema: PGBOSS_SCHEMA, queues: COUNTED_QUEUES, ...(await apiProviders(config, db.pool, providers)), enqueue: bossEnqueue(boss),
          requestSiteBuild: (reason) => requestSiteBuild(boss!, { reason }) },
        { logger: log },
      );
      const address = await app.listen({ host: config.host, port: config.port });
      process.stdout.write(`reliability-scoring-service listening on ${address}\n`);
    } else {
      process.stdout.write(`reliability-scoring-service worker started (pid ${process.pid})\n`);
    }
  } catch (err) {
    // Leave nothing behind: the PostgreSQL this process started stops with it.
    await app?.close().catch(() => {});
    await boss?.stop({ graceful: false }).catch(() => {});
    await closePipelinePool();
    await db.close();
    throw err;
  }
  const running = { app, boss };
  if (config.role !== 'api') {
    // Once listening, the pipeline's threads load their language models in the
    // background (about a second); a job that comes first waits for them.
    // (A stop during the warm-up ends it: nothing to report then.)
    void warmPipelinePool().catch((err: Error) => log.debug({ error: err.message }, 'pipeline threads did not warm up'));
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn('second signal: exiting at once');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'stopping');
    const force = setTimeout(() => {
      log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    try {
      await running.app?.close();
      await running.boss.stop({ graceful: true, timeout: Math.max(1000, config.shutdownTimeoutMs - 2000) });
      await closePipelinePool();
      await db.close();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ error: (err as Error).message }, 'error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: Error) => {
  process.stderr.write(`failed to start: ${err.message}\n`);
  process.exit(1);
});
