/**
 * `npm run bench` (ingest part): streams a generated pack of about 100 MB
 * (--mb N) from a file into a fresh embedded PostgreSQL and samples the
 * process's memory while it does: constant memory means the peak does not
 * grow with the pack. Reports MB/s and the peak RSS above the baseline.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, chmod, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { ingestPack } from '../core/corpus/ingest.ts';
import { generatePack } from './bench/generate-pack.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '100' }, json: { type: 'boolean', default: false } } });
const targetBytes = Number(values.mb) * 1024 * 1024;

const dir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-ingest-'));
await chmod(dir, 0o755);
const file = path.join(dir, 'pack.jsonl');
try {
  // Write the pack: generated records, each document padded with more sentences to reach the size.
  const out = createWriteStream(file);
  let written = 0;
  let batch = 0;
  const filler = ' Independent auditors reviewed the figures published in the annual accounts and found them consistent.'.repeat(20);
  while (written < targetBytes) {
    for (const line of generatePack({ subjects: 50, documents: 2000, seed: ++batch })) {
      const rec = JSON.parse(line) as Record<string, unknown>;
      if (rec.record === 'document') {
        rec.url = `${rec.url}-${batch}`;
        rec.text = `${rec.text}${filler}`;
      }
      const s = `${JSON.stringify(rec)}\n`;
      written += Buffer.byteLength(s);
      if (!out.write(s)) await once(out, 'drain');
      if (written >= targetBytes) break;
    }
  }
  out.end();
  await once(out, 'finish');
  const bytes = (await stat(file)).size;

  const db = await openDatabase(loadConfig({ DATA_DIR: path.join(dir, 'data') }), { mode: 'own' });
  try {
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    const t0 = performance.now();
    const r = await ingestPack(db.pool, createReadStream(file));
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const result = {
      pack_mb: Math.round((bytes / 2 ** 20) * 10) / 10,
      lines: r.lines,
      documents: r.documents.read,
      seconds: Math.round(ms / 100) / 10,
      mb_per_second: Math.round((bytes / 2 ** 20 / (ms / 1000)) * 10) / 10,
      rss_baseline_mb: Math.round(baseline / 2 ** 20),
      rss_peak_above_baseline_mb: Math.round((peak - baseline) / 2 ** 20),
    };
    if (values.json) process.stdout.write(jsonOutput(result));
    else process.stdout.write(`ingest: ${result.pack_mb} MB (${result.documents} documents) in ${result.seconds} s = ${result.mb_per_second} MB/s; RSS peak ${result.rss_peak_above_baseline_mb} MB above a ${result.rss_baseline_mb} MB baseline\n`);
  } finally {
    await db.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
