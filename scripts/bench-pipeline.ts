/**
 * `npm run bench` (pipeline part): the offline engine over a generated pack of
 * 1,000 documents and 50 subjects (one of them with 50 statement documents),
 * in a fresh embedded PostgreSQL. Reports ingest time, claims per second over
 * all 50 reports, time per report, and the time of the 50-document subject's
 * report (the bound: under 5 s).
 * Options: --documents N (1000), --subjects N (50), --json.
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { ingestPack } from '../core/corpus/ingest.ts';
import { makeReport } from '../jobs/research.ts';
import { closePipelinePool, warmPipelinePool } from '../jobs/pipeline/cpu-pool.ts';
import { generatePack } from './bench/generate-pack.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({ options: { documents: { type: 'string', default: '1000' }, subjects: { type: 'string', default: '50' }, reports: { type: 'string' }, json: { type: 'boolean', default: false } } });
const documents = Number(values.documents);
const subjects = Number(values.subjects);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-pipe-'));
await chmod(dataDir, 0o755);
const db = await openDatabase(loadConfig({ DATA_DIR: dataDir }), { mode: 'own' });
try {
  const lines = [...generatePack({ subjects, documents, bigSubjectDocuments: 50 })];
  const t0 = performance.now();
  const ingest = await ingestPack(db.pool, Readable.from(lines.map((l) => `${l}\n`)));
  const ingestMs = performance.now() - t0;
  const { rows } = await db.pool.query<{ id: string; name: string; docs: number }>(
    `SELECT s.id, s.name, (SELECT count(*)::int FROM documents d WHERE d.speaker_keys && s.name_keys) AS docs FROM subjects s ORDER BY docs DESC, s.id`,
  );
  const times: number[] = [];
  let claims = 0;
  let complete = 0;
  let big: { name: string; docs: number; ms: number; claims: number; status: string; stages: Record<string, number> } | undefined;
  const today = '2026-11-21';
  // The service warms its worker threads at start; so does the benchmark, before timing.
  const tWarm = performance.now();
  await warmPipelinePool();
  const warmMs = performance.now() - tWarm;
  const tAll = performance.now();
  // --reports N researches only the N subjects with the most documents (for profiling).
  for (const s of values.reports ? rows.slice(0, Number(values.reports)) : rows) {
    const t = performance.now();
    const r = await makeReport(db.pool, s.id, { today });
    const ms = performance.now() - t;
    times.push(ms);
    claims += r.claims.length;
    if (r.status === 'complete') complete++;
    if (!big) big = { name: s.name, docs: s.docs, ms, claims: r.claims.length, status: r.status, stages: Object.fromEntries(Object.entries(r.stats?.ms ?? {}).map(([k, v]) => [k, Math.round(v)])) };
  }
  const allMs = performance.now() - tAll;
  const sorted = [...times].sort((a, b) => a - b);
  const result = {
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
    pack: { subjects: ingest.subjects.read, documents: ingest.documents.read, ingest_ms: Math.round(ingestMs) },
    thread_warm_up_ms: Math.round(warmMs),
    reports: times.length,
    complete_reports: complete,
    claims,
    claims_per_second: Math.round((claims / (allMs / 1000)) * 10) / 10,
    ms_per_report: { mean: Math.round(allMs / times.length), p50: Math.round(sorted[Math.floor(sorted.length / 2)]!), p95: Math.round(sorted[Math.floor(sorted.length * 0.95)]!), max: Math.round(sorted.at(-1)!) },
    largest_subject: big && { ...big, ms: Math.round(big.ms), under_5_s: big.ms < 5000 },
  };
  if (values.json) process.stdout.write(jsonOutput(result));
  else {
    process.stdout.write(
      [
        `machine: ${result.machine}`,
        `pack: ${result.pack.subjects} subjects, ${result.pack.documents} documents, ingested in ${result.pack.ingest_ms} ms; worker threads warmed in ${result.thread_warm_up_ms} ms`,
        `reports: ${result.reports} (${result.complete_reports} complete), ${result.claims} claims, ${result.claims_per_second} claims/s`,
        `time per report: mean ${result.ms_per_report.mean} ms, p50 ${result.ms_per_report.p50} ms, p95 ${result.ms_per_report.p95} ms, max ${result.ms_per_report.max} ms`,
        `largest subject: ${big?.name} with ${big?.docs} documents: ${result.largest_subject?.ms} ms, ${big?.claims} claims, ${big?.status} (under 5 s: ${result.largest_subject?.under_5_s})`,
        `  stages (ms): ${Object.entries(big?.stages ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        '',
      ].join('\n'),
    );
  }
} finally {
  await closePipelinePool();
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
}
