import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedClaims } from '../scripts/bench/seed-claims.ts';
import { createKey } from '../core/keys.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { residentMib, startService, stopService, type Service } from './helpers/process.ts';

// GET /v1/export over HTTP with 100,000 stored claims (one subject alone holds
// 50,000), from the service started as `npm start` starts it, with its V8 heap
// capped at 96 MB: the JSON Lines export (over 130 MB) cannot be held whole, so the test
// fails if it is not streamed. The body is counted as it arrives, never kept;
// the service's peak resident memory is read from /proc.

const HEAP_CAP_MB = 96;
let db: TestDatabase;
let service: Service;
let dataDir: string;
let headers: Record<string, string>;

beforeAll(async () => {
  db = await createTestDatabase('export-scale');
  const { claims } = await seedClaims(db.pool, { subjects: 50, claimsPer: 1_000, big: 50_000 });
  expect(claims).toBe(100_000);
  headers = { authorization: `Bearer ${(await createKey(db.pool, 'export')).key}` };
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-export-'));
  service = await startService(
    { DATABASE_URL: db.url, DATA_DIR: dataDir, PORT: '0', ROLE: 'api', RATE_LIMIT_STORE: 'memory', LOAD_SAMPLE_PACK: 'false' },
    60_000,
    [`--max-old-space-size=${HEAP_CAP_MB}`],
  );
}, 300_000);

afterAll(async () => {
  if (service) await stopService(service);
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function exportCounting(query: string) {
  const before = await residentMib(service.child.pid!);
  let bytes = 0;
  let lines = 0;
  let tail = '';
  const claimIds = new Set<string>();
  const res = await fetch(`${service.url}/v1/export?${query}`, { headers });
  expect(res.status).toBe(200);
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) {
    bytes += chunk.byteLength;
    const parts = (tail + decoder.decode(chunk, { stream: true })).split('\n');
    tail = parts.pop()!;
    lines += parts.length;
    // Keep only ids, not lines: enough to show every claim came, once.
    for (const p of parts) {
      const m = /"claim_id":"(clm_exp\d+)"|^(?:[^,]*,){5}(clm_exp\d+),/.exec(p); // claim_id is the sixth column, after report_topic
      if (m) claimIds.add(m[1] ?? m[2]!);
    }
  }
  const after = await residentMib(service.child.pid!);
  return { bytes, lines, claimIds: claimIds.size, rssBeforeMb: before.now, rssPeakMb: after.peak };
}

describe('export at scale', () => {
  it('streams 100,000 claims as JSON Lines, then as CSV, from a service whose heap is smaller than the export', async () => {
    const jsonl = await exportCounting('format=jsonl').catch((err: Error) => {
      throw new Error(`${err.message}; service stderr: ${service.stderr().slice(-2000)}`);
    });
    expect(jsonl.claimIds).toBe(100_000);
    // 51 subject records, 51 score records, 100,000 claims.
    expect(jsonl.lines).toBe(100_102);
    expect(jsonl.bytes).toBeGreaterThan(100 * 2 ** 20);

    const csv = await exportCounting('format=csv&table=claims');
    expect(csv.claimIds).toBe(100_000);
    expect(csv.bytes).toBeGreaterThan(80 * 2 ** 20);

    // The service is alive and well after both (a heap overflow would have killed it).
    expect(service.child.exitCode).toBeNull();
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    console.log(`export-scale: jsonl ${(jsonl.bytes / 2 ** 20).toFixed(1)} MiB, csv ${(csv.bytes / 2 ** 20).toFixed(1)} MiB; service RSS ${jsonl.rssBeforeMb.toFixed(0)} MiB before, peak ${jsonl.rssPeakMb.toFixed(0)} MiB after JSON Lines, ${csv.rssPeakMb.toFixed(0)} MiB after CSV`);
    // Steady: resident memory rises once, while V8's heap fills to its limits
    // (old space capped, young space on top), and a second export of 86 MB
    // adds nothing to it. An export held outside the heap would add its size.
    expect(csv.rssPeakMb - jsonl.rssPeakMb).toBeLessThan(24);
    // And the rise stays within the heap's limits (old space capped, young space on top) plus native slack.
    expect(jsonl.rssPeakMb - jsonl.rssBeforeMb).toBeLessThan(HEAP_CAP_MB + 80);
  }, 300_000);
});
