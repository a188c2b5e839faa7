/**
 * `npm run bench` (hosted part): how the pipeline's concurrency brings a
 * report's wall time down when every model call takes 2 seconds. The
 * simulated web of the end-to-end test (test/helpers/simulated-web.ts: SearXNG
 * search, pages through the safe fetcher, Google Fact Check, an
 * OpenAI-compatible model, all on loopback) with each model answer delayed;
 * one report of the invented sample subject per MODEL_CONCURRENCY setting,
 * the model cache emptied before each so that every call is made.
 * Options: --delay-ms N (default 2000), --json.
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

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '2000' }, json: { type: 'boolean', default: false } } });
const delayMs = Number(values['delay-ms']);

const dir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-hosted-'));
await chmod(dir, 0o755);
const db = await openDatabase(loadConfig({ DATA_DIR: dir }));
const rows: { concurrency: number; seconds: number; calls: number; peak_in_flight: number; claims: number; status: string }[] = [];
try {
  for (const concurrency of [1, 2, 4, 8, 16]) {
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
const serial = rows[0]!.seconds;
const result = { machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`, model_delay_ms: delayMs, runs: rows.map((r) => ({ ...r, speedup: Math.round((serial / r.seconds) * 10) / 10 })) };
if (values.json) process.stdout.write(jsonOutput(result));
else {
  process.stdout.write(
    [
      `machine: ${result.machine}`,
      `one report on the simulated web, every model call answered after ${delayMs} ms:`,
      ...result.runs.map((r) => `  MODEL_CONCURRENCY ${String(r.concurrency).padStart(2)}: ${r.seconds} s (${r.calls} calls, at most ${r.peak_in_flight} at once, ${r.claims} claims, ${r.status}); ×${r.speedup}`),
      '',
    ].join('\n'),
  );
}
