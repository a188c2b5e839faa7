/**
 * `npm run bench` (export part): GET /v1/export of 100,000 stored claims, as
 * JSON Lines and as CSV, from the service started as `npm start` starts it
 * (ROLE=api on a fresh embedded PostgreSQL seeded with synthetic sample
 * reports: scripts/bench/seed-claims.ts). Reports MB/s (MiB of body per second
 * of wall time, first byte requested to last byte read) and the service's
 * resident memory before and at its peak (VmHWM).
 * Options: --claims N (default 100000; half go to one subject), --json.
 */
import { mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { createKey } from '../core/keys.ts';
import { seedClaims } from './bench/seed-claims.ts';
import { residentMib, spawnListening, stop } from './bench/process.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({ options: { claims: { type: 'string', default: '100000' }, json: { type: 'boolean', default: false } } });
const total = Number(values.claims);
const subjects = 50;

const pgDir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-export-pg-'));
const serviceDir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-export-'));
await chmod(pgDir, 0o755);
await chmod(serviceDir, 0o755);
const db = await openDatabase(loadConfig({ DATA_DIR: pgDir }));
try {
  const t0 = performance.now();
  const half = Math.floor(total / 2);
  await seedClaims(db.pool, { subjects, claimsPer: Math.floor((total - half) / subjects), big: half });
  const seedMs = performance.now() - t0;
  const key = (await createKey(db.pool, 'bench')).key;
  const service = await spawnListening('scripts/start.ts', { DATABASE_URL: db.url, DATA_DIR: serviceDir, PORT: '0', ROLE: 'api', RATE_LIMIT_STORE: 'memory', LOAD_SAMPLE_PACK: 'false' });
  const pid = service.child.pid!;
  const runs: Record<string, { mib: number; seconds: number; mib_per_s: number; ttfb_ms: number }> = {};
  const before = await residentMib(pid);
  for (const [name, query] of [['jsonl', 'format=jsonl'], ['csv_claims', 'format=csv&table=claims']] as const) {
    const start = performance.now();
    const res = await fetch(`${service.url}/v1/export?${query}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) throw new Error(`export answered ${res.status}`);
    let bytes = 0;
    let ttfb = 0;
    for await (const chunk of res.body!) {
      if (!ttfb) ttfb = performance.now() - start;
      bytes += chunk.byteLength;
    }
    const seconds = (performance.now() - start) / 1000;
    runs[name] = { mib: Math.round((bytes / 2 ** 20) * 10) / 10, seconds: Math.round(seconds * 100) / 100, mib_per_s: Math.round((bytes / 2 ** 20 / seconds) * 10) / 10, ttfb_ms: Math.round(ttfb) };
  }
  const after = await residentMib(pid);
  await stop(service.child);
  const result = {
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    claims: total,
    seed_ms: Math.round(seedMs),
    exports: runs,
    service_rss_mib: { before: Math.round(before.now), peak: Math.round(after.peak) },
  };
  if (values.json) process.stdout.write(jsonOutput(result));
  else {
    process.stdout.write(
      [
        `machine: ${result.machine}`,
        `export of ${total} claims (${subjects} subjects + one of ${half}; seeded in ${result.seed_ms} ms):`,
        ...Object.entries(runs).map(([n, r]) => `  ${n.padEnd(11)} ${r.mib} MiB in ${r.seconds} s = ${r.mib_per_s} MiB/s (first byte ${r.ttfb_ms} ms)`),
        `  service RSS ${result.service_rss_mib.before} MiB before, peak ${result.service_rss_mib.peak} MiB`,
        '',
      ].join('\n'),
    );
  }
} finally {
  await db.close();
  await rm(pgDir, { recursive: true, force: true });
  await rm(serviceDir, { recursive: true, force: true });
}
