/**
 * `npm run bench` (hosted part): how the pipeline's concurrency brings a
 * report's wall time down when every model call takes 2 seconds. The
 * simulated web of the end-to-end test (test/helpers/simulated-web.ts: SearXNG
 * search, pages through the safe fetcher, Google Fact Check, an
 * OpenAI-compatible model, all on loopback) with each model answer delayed;
 * one report of the invented sample subject per MODEL_CONCURRENCY setting,
 * the model cache emptied before each so that every call is made.
 *
 * Then the new-subject flow through the service (issue #14): the API, pg-boss
 * and a report worker wired as `npm start` wires them, on a database that has
 * never seen the subject; `POST /v1/reports` by its name, the job polled until
 * it ends (identify with one model call, then the research), timed from the
 * POST to `complete`, with the stages as the polls saw them and the model
 * calls and cost read from `GET /v1/status` before and after.
 * Options: --delay-ms N (default 2000), --new-subject-only, --json.
 */
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { openDatabase } from '../core/db/connect.ts';
import { buildProviders } from '../core/providers/index.ts';
import { closePipelinePool } from '../jobs/pipeline/cpu-pool.ts';
import { makeReport } from '../jobs/research.ts';
import { SUBJECT, startSimulatedWeb } from '../test/helpers/simulated-web.ts';
import { jsonOutput } from '../core/snake-keys.ts';
import { buildApp } from '../api/app.ts';
import { createKey } from '../core/keys.ts';
import { apiProviders } from '../core/providers/index.ts';
import { startBoss } from '../jobs/boss.ts';
import { bossEnqueue } from '../jobs/enqueue.ts';
import { COUNTED_QUEUES, PGBOSS_SCHEMA } from '../jobs/queues.ts';
import { startReportWorkers } from '../jobs/report-worker.ts';

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '2000' }, 'new-subject-only': { type: 'boolean', default: false }, json: { type: 'boolean', default: false } } });
const delayMs = Number(values['delay-ms']);

const dir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-hosted-'));
await chmod(dir, 0o755);
const db = await openDatabase(loadConfig({ DATA_DIR: dir }));
const rows: { concurrency: number; seconds: number; calls: number; peak_in_flight: number; claims: number; status: string }[] = [];
let newSubject: NewSubjectRun | null = null;
try {
  // First, while the database has never seen the sample subject.
  newSubject = await newSubjectRun(db);
  for (const concurrency of values['new-subject-only'] ? [] : [1, 2, 4, 8, 16]) {
    await db.pool.query('TRUNCATE model_cache');
    const fresh = await startSimulatedWeb({ delayMs });
    await ingestPack(db.pool, Readable.from([`${JSON.stringify({ record: 'subject', ...SUBJECT, urls: [fresh.ownSite] })}\n`]));
    const config = loadConfig({ DATA_DIR: dir, ...fresh.env, MODEL_CONCURRENCY: String(concurrency), DAILY_SPEND_LIMIT_USD: '1000' });
    const t0 = performance.now();
    const r = await makeReport(db.pool, subjectIdFor(SUBJECT.kind, SUBJECT.name), { providers: await buildProviders(config, db.pool), today: '2026-11-21' });
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ concurrency, seconds: Math.round(seconds * 10) / 10, calls: fresh.model.requests.length, peak_in_flight: fresh.model.maxInFlight, claims: r.claims.length, status: r.status });
    await fresh.close();
  }
} finally {
  await closePipelinePool();
  await db.close();
  await rm(dir, { recursive: true, force: true });
}
const serial = rows[0]?.seconds ?? 0;
const result = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  model_delay_ms: delayMs,
  runs: rows.map((r) => ({ ...r, speedup: Math.round((serial / r.seconds) * 10) / 10 })),
  new_subject: newSubject,
};
if (values.json) process.stdout.write(jsonOutput(result));
else {
  const n = result.new_subject;
  process.stdout.write(
    [
      `machine: ${result.machine}`,
      ...(result.runs.length > 0 ? [`one report on the simulated web, every model call answered after ${delayMs} ms:`] : []),
      ...result.runs.map((r) => `  MODEL_CONCURRENCY ${String(r.concurrency).padStart(2)}: ${r.seconds} s (${r.calls} calls, at most ${r.peak_in_flight} at once, ${r.claims} claims, ${r.status}); ×${r.speedup}`),
      ...(n
        ? [
          `a new subject through the API (POST /v1/reports by a name the database has never seen; MODEL_CONCURRENCY ${n.model_concurrency}, every model call ${delayMs} ms):`,
          `  POST to ${n.status}: ${n.seconds} s (stages as polled: ${n.stages.map((st) => `${st.stage} at ${st.at_s} s`).join(', ')}; ${n.claims} claims)`,
          `  GET /v1/status before → after: spend.calls ${n.status_before.calls} → ${n.status_after.calls} (${n.model_calls} model calls: ${Object.entries(n.calls_by_purpose).map(([k, v]) => `${v} ${k}`).join(', ')}), spent_usd ${n.status_before.spent_usd} → ${n.status_after.spent_usd} ($${n.cost_usd.toFixed(4)})`,
        ]
        : []),
      '',
    ].join('\n'),
  );
}

type NewSubjectRun = {
  status: string; seconds: number; model_concurrency: number; claims: number;
  stages: { stage: string; at_s: number }[];
  status_before: { calls: number; spent_usd: number }; status_after: { calls: number; spent_usd: number };
  model_calls: number; cost_usd: number; calls_by_purpose: Record<string, number>;
};

/** POST /v1/reports for a name the database has never seen, through the API and a report worker, on the simulated web. */
async function newSubjectRun(database: typeof db): Promise<NewSubjectRun> {
  const web = await startSimulatedWeb({ delayMs });
  const config = loadConfig({ DATA_DIR: dir, ...web.env, DAILY_SPEND_LIMIT_USD: '1000', RATE_LIMIT_PER_MINUTE: '100000' });
  const providers = await buildProviders(config, database.pool);
  const boss = await startBoss({ databaseUrl: database.url, role: 'all' });
  // The report worker only: a finished report's site build is left queued (it would time the Astro build, not the research).
  await startReportWorkers(boss, database.pool, undefined, providers);
  const app = await buildApp({
    config, pool: database.pool, databaseUrl: database.url, bossSchema: PGBOSS_SCHEMA, queues: COUNTED_QUEUES,
    ...(await apiProviders(config, database.pool, providers)), enqueue: bossEnqueue(boss),
  });
  try {
    await app.ready();
    const headers = { authorization: `Bearer ${(await createKey(database.pool, 'bench-hosted')).key}` };
    const spend = async () => {
      const s = (await app.inject({ method: 'GET', url: '/v1/status', headers })).json() as { spend: { calls: number; spent_usd: number } };
      return { calls: s.spend.calls, spent_usd: s.spend.spent_usd };
    };
    const before = await spend();
    const t0 = performance.now();
    const posted = await app.inject({ method: 'POST', url: '/v1/reports', headers, payload: { name: SUBJECT.name, kind: SUBJECT.kind } });
    if (posted.statusCode !== 202) throw new Error(`POST /v1/reports answered ${posted.statusCode}: ${posted.body}`);
    const jobId = posted.json().job_id as string;
    const stages: { stage: string; at_s: number }[] = [];
    const at = () => Math.round((performance.now() - t0) / 100) / 10;
    let job: { status: string; progress?: { stage: string }; report?: unknown; reason?: string | null };
    for (;;) {
      job = (await app.inject({ method: 'GET', url: `/v1/reports/${jobId}`, headers })).json();
      const stage = job.progress?.stage;
      if (stage && stages.at(-1)?.stage !== stage) stages.push({ stage, at_s: at() });
      if (['complete', 'insufficient', 'refused', 'failed'].includes(job.status)) break;
      if (performance.now() - t0 > 10 * 60_000) throw new Error('the new-subject job did not end within 10 minutes');
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = Math.round((performance.now() - t0) / 100) / 10;
    if (job.status !== 'complete') throw new Error(`the new-subject job ended ${job.status}: ${job.reason ?? ''}`);
    const after = await spend();
    const { rows } = await database.pool.query<{ purpose: string; n: number }>(`SELECT purpose, count(*)::int AS n FROM spend_ledger GROUP BY purpose ORDER BY purpose`);
    const claims = (await database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM claims c JOIN jobs j ON j.report_id = c.report_id WHERE j.id = $1`, [jobId])).rows[0]?.n ?? 0;
    return {
      status: job.status, seconds, model_concurrency: config.providers.model.concurrency, claims, stages,
      status_before: before, status_after: after,
      model_calls: after.calls - before.calls, cost_usd: after.spent_usd - before.spent_usd,
      calls_by_purpose: Object.fromEntries(rows.map((r) => [r.purpose, r.n])),
    };
  } finally {
    await app.close();
    await boss.stop({ graceful: false });
    await web.close();
  }
}
