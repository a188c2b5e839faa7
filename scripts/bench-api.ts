/**
 * `npm run bench` (API part). Measures, in one run on this machine:
 *  1. time from starting the service (as `npm start` does) to the first 200
 *     from /health, cold (new DATA_DIR: initdb, migrations, pg-boss schema)
 *     and warm (same DATA_DIR again; median of 3);
 *  2. requests per second and latency of an authenticated GET /v1/status
 *     under autocannon, 10 s at 50 connections, beside a bare Fastify route
 *     measured the same way in the same run;
 *  3. the same for a stored report: GET /v1/reports/{report_id} and POST
 *     /v1/reports answered from store, once the first start's own report
 *     jobs are done (queue depth 0), beside the bare route and a bare route
 *     answering a body of the report's size.
 *  4. the stored GET again with each rate-limit store, in the same run: the
 *     service restarted on the same DATA_DIR with RATE_LIMIT_STORE memory,
 *     postgres and redis (a redis-server started here, Debian's), each with
 *     its default block (RATE_LIMIT_BLOCK_PERCENT=1) and, for the shared
 *     stores, with a block of one request (0: one store call a request, as
 *     before blocks), and the ratio of each to the in-process store.
 * The per-key rate limit is raised for the load run (it would answer 429
 * after 60 requests otherwise); everything else is the default service.
 * Options: --duration S (default 10), --connections N (default 50),
 * --no-stores (skip 4), --rounds N (4 repeated N times, the stores taken in
 * turn each round, each store's median reported: the machine's noise hits
 * them alike), --json.
 */
import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { keyFor, spawnListening, stop } from './bench/process.ts';
import { startBenchRedis } from './bench/redis.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' }, 'no-stores': { type: 'boolean', default: false }, rounds: { type: 'string', default: '1' }, json: { type: 'boolean', default: false } } });
const duration = Number(values.duration);
const connections = Number(values.connections);

async function timeToHealthy(env: Record<string, string>): Promise<{ ms: number; stopAfter: () => Promise<void>; url: string }> {
  const t0 = performance.now();
  const { child, url } = await spawnListening('scripts/start.ts', env);
  for (;;) {
    const res = await fetch(`${url}/health`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  return { ms: performance.now() - t0, url, stopAfter: () => stop(child) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function load(url: string, headers: Record<string, string>, post?: unknown) {
  const r = await autocannon({ url, connections, duration, headers: { ...headers, ...(post ? { 'content-type': 'application/json' } : {}) }, ...(post ? { method: 'POST' as const, body: JSON.stringify(post) } : {}) });
  return {
    requests_per_second: Math.round(r.requests.average),
    latency_ms: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max },
    non_2xx: r.non2xx,
    errors: r.errors,
    total: r.requests.total,
  };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-'));
await chmod(dataDir, 0o755);
const env = { DATA_DIR: dataDir, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000' };
try {
  const cold = await timeToHealthy(env);
  await cold.stopAfter();
  const warm: number[] = [];
  for (let i = 0; i < 3; i++) {
    const w = await timeToHealthy(env);
    warm.push(w.ms);
    await w.stopAfter();
  }

  const service = await timeToHealthy(env);
  const key = keyFor('bench', env);
  const bare = await spawnListening('scripts/bench/bare-server.ts', {});
  // Warm both up briefly so that neither pays for JIT in its measured window.
  await autocannon({ url: `${bare.url}/bare`, connections: 10, duration: 2 });
  await autocannon({ url: `${service.url}/v1/status`, connections: 10, duration: 2, headers: { authorization: `Bearer ${key}` } });
  // A stored report: the first start researches the sample subjects by itself.
  const auth = { authorization: `Bearer ${key}` };
  let stored: { subject_id: string; latest_report: { report_id: string } } | undefined;
  for (let i = 0; i < 600 && !stored; i++) {
    const list = (await (await fetch(`${service.url}/v1/subjects`, { headers: auth })).json()) as { subjects: { subject_id: string; latest_report: { report_id: string } }[] };
    stored = list.subjects[0];
    if (!stored) await new Promise((r) => setTimeout(r, 200));
  }
  if (!stored) throw new Error('no stored report appeared');
  // Measure on a quiet service: the first start's own report jobs must be done.
  for (let i = 0; i < 1200; i++) {
    const status = (await (await fetch(`${service.url}/v1/status`, { headers: auth })).json()) as { queue: { depth: number } };
    if (status.queue.depth === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const reportBytes = (await (await fetch(`${service.url}/v1/reports/${stored.latest_report.report_id}`, { headers: auth })).arrayBuffer()).byteLength;
  const bareResult = await load(`${bare.url}/bare`, {});
  const bareSized = await load(`${bare.url}/bare-sized?bytes=${reportBytes}`, {});
  const statusResult = await load(`${service.url}/v1/status`, auth);
  const getReport = await load(`${service.url}/v1/reports/${stored.latest_report.report_id}`, auth);
  const postStored = await load(`${service.url}/v1/reports`, auth, { subject_id: stored.subject_id });
  await stop(bare.child);
  await service.stopAfter();

  // The stored GET with each rate-limit store, one after another on the same data.
  type Run = Awaited<ReturnType<typeof load>>;
  const stores: Record<string, Run & { ratio_to_memory?: number; rounds_rps?: number[] }> = {};
  const rounds: Record<string, Run[]> = {};
  let redisNote: string | null = null;
  if (!values['no-stores']) {
    const redis = await startBenchRedis();
    if (!redis) redisNote = 'redis-server not found (install Debian\'s redis-server): the Redis store was not measured';
    const runs: [string, Record<string, string>][] = [
      ['memory', { RATE_LIMIT_STORE: 'memory' }],
      ['postgres', { RATE_LIMIT_STORE: 'postgres' }],
      ['postgres_block_1', { RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_BLOCK_PERCENT: '0' }],
      ...(redis ? ([['redis', { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url }], ['redis_block_1', { RATE_LIMIT_STORE: 'redis', REDIS_URL: redis.url, RATE_LIMIT_BLOCK_PERCENT: '0' }]] as [string, Record<string, string>][]) : []),
    ];
    try {
      for (let round = 0; round < Number(values.rounds); round++) {
        for (const [name, extra] of runs) {
          const s2 = await timeToHealthy({ ...env, ...extra });
          try {
            await autocannon({ url: `${s2.url}/v1/reports/${stored.latest_report.report_id}`, connections: 10, duration: 2, headers: auth });
            (rounds[name] ??= []).push(await load(`${s2.url}/v1/reports/${stored.latest_report.report_id}`, auth));
          } finally {
            await s2.stopAfter();
          }
        }
      }
    } finally {
      await redis?.stop();
    }
    for (const [name, rs] of Object.entries(rounds)) {
      const mid = [...rs].sort((a, b) => a.requests_per_second - b.requests_per_second)[Math.floor(rs.length / 2)]!;
      stores[name] = { ...mid, rounds_rps: rs.map((r) => r.requests_per_second) };
    }
    for (const r of Object.values(stores)) r.ratio_to_memory = Math.round((r.requests_per_second / stores.memory!.requests_per_second) * 1000) / 1000;
  }

  const result = {
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    startup_ms: { cold: Math.round(cold.ms), warm_median: Math.round(median(warm)), warm_runs: warm.map(Math.round) },
    report_bytes: reportBytes,
    load: { duration_s: duration, connections, bare_fastify: bareResult, bare_fastify_report_sized: bareSized, get_v1_status: statusResult, get_stored_report: getReport, post_report_from_store: postStored },
    ratio_status_to_bare_rps: Math.round((statusResult.requests_per_second / bareResult.requests_per_second) * 1000) / 1000,
    ratio_get_report_to_bare_rps: Math.round((getReport.requests_per_second / bareResult.requests_per_second) * 1000) / 1000,
    ratio_post_stored_to_bare_rps: Math.round((postStored.requests_per_second / bareResult.requests_per_second) * 1000) / 1000,
    ratio_get_report_to_bare_sized_rps: Math.round((getReport.requests_per_second / bareSized.requests_per_second) * 1000) / 1000,
    stored_get_by_rate_limit_store: stores,
    ...(redisNote ? { redis_note: redisNote } : {}),
  };
  if (values.json) {
    process.stdout.write(jsonOutput(result));
  } else {
    const l = result.load;
    process.stdout.write(
      [
        `machine: ${result.machine}`,
        `start to first 200 /health: cold ${result.startup_ms.cold} ms, warm ${result.startup_ms.warm_median} ms (median of ${warm.map(Math.round).join(', ')})`,
        `autocannon ${duration} s × ${connections} connections:`,
        `  bare Fastify route      ${l.bare_fastify.requests_per_second} req/s, p50 ${l.bare_fastify.latency_ms.p50} ms, p99 ${l.bare_fastify.latency_ms.p99} ms, non-2xx ${l.bare_fastify.non_2xx}`,
        `  GET /v1/status (keyed)  ${l.get_v1_status.requests_per_second} req/s, p50 ${l.get_v1_status.latency_ms.p50} ms, p99 ${l.get_v1_status.latency_ms.p99} ms, non-2xx ${l.get_v1_status.non_2xx}`,
        `  ratio status/bare       ${result.ratio_status_to_bare_rps}`,
        `  bare route, ${reportBytes} B body  ${l.bare_fastify_report_sized.requests_per_second} req/s, p50 ${l.bare_fastify_report_sized.latency_ms.p50} ms, p99 ${l.bare_fastify_report_sized.latency_ms.p99} ms (a report-sized body, for comparison)`,
        `  GET /v1/reports/{rep}   ${l.get_stored_report.requests_per_second} req/s, p50 ${l.get_stored_report.latency_ms.p50} ms, p99 ${l.get_stored_report.latency_ms.p99} ms, non-2xx ${l.get_stored_report.non_2xx}; ratio to bare ${result.ratio_get_report_to_bare_rps} (to the report-sized bare route ${result.ratio_get_report_to_bare_sized_rps})`,
        `  POST /v1/reports stored ${l.post_report_from_store.requests_per_second} req/s, p50 ${l.post_report_from_store.latency_ms.p50} ms, p99 ${l.post_report_from_store.latency_ms.p99} ms, non-2xx ${l.post_report_from_store.non_2xx}; ratio to bare ${result.ratio_post_stored_to_bare_rps}`,
        ...(Object.keys(stores).length ? ['stored GET by rate-limit store (service restarted for each, same data):'] : []),
        ...Object.entries(stores).map(([n, r]) => `  ${n.padEnd(18)} ${r.requests_per_second} req/s, p50 ${r.latency_ms.p50} ms, p99 ${r.latency_ms.p99} ms, non-2xx ${r.non_2xx}; ratio to memory ${r.ratio_to_memory}${r.rounds_rps!.length > 1 ? ` (median of ${r.rounds_rps!.join(', ')} req/s)` : ''}`),
        ...(redisNote ? [`  ${redisNote}`] : []),
        '',
      ].join('\n'),
    );
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
