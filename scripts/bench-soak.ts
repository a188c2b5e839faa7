/**
 * Soak (issue #9, item 5): the service started as `npm start` starts it (new
 * DATA_DIR, embedded PostgreSQL, sample pack, workers in the same process),
 * then a steady mixed load at a fixed rate (an open loop: requests go out on
 * schedule whether or not earlier ones have been answered) for --minutes,
 * while the service's resident memory (VmRSS from /proc) is sampled every
 * 10 s. The mix: a stored report, POST /v1/reports answered from store, a page
 * of claims, /v1/status; a check of a small text every --check-every seconds
 * (a job run by the in-process workers) and one subject's export every
 * --export-every seconds, in place of the request due at that moment.
 *
 * Verdict: the least-squares slope of RSS against time over the last two
 * thirds of the run (the first third is warm-up: JIT, caches, the language
 * models of the pipeline's threads, V8 growing its heap to its working size).
 * "flat" when the slope is under --flat (default 1 MiB/min): a leak of that
 * size would add 1.4 GiB a day, which a soak of ten minutes at 200 req/s
 * (120,000 requests) shows clearly above the sawtooth of garbage collection.
 *
 * Options: --minutes N (default 10), --rate R (requests/s, default 200),
 * --check-every S (default 5), --export-every S (default 30), --flat MiB/min
 * (default 1), --json.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keyFor, spawnListening, stop, residentMib } from './bench/process.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    'check-every': { type: 'string', default: '5' },
    'export-every': { type: 'string', default: '30' },
    flat: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const checkEveryMs = Number(values['check-every']) * 1000;
const exportEveryMs = Number(values['export-every']) * 1000;
const flatMibPerMin = Number(values.flat);
const SAMPLE_MS = 10_000;
// Requests left unanswered beyond this are not sent (and are counted): an
// open loop against a stalled service would otherwise grow without bound.
const MAX_IN_FLIGHT = 2_000;
for (const [name, v] of Object.entries({ minutes, rate, checkEveryMs, exportEveryMs, flatMibPerMin })) {
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} must be a positive number`);
}

/** Least-squares slope of y against x. */
function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? NaN : sxy / sxx;
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
}

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Target = { method: 'GET' | 'POST'; path: string; body?: unknown; expect: number };

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-soak-'));
await chmod(dataDir, 0o755);
const env = { DATA_DIR: dataDir, PORT: '0', RATE_LIMIT_PER_MINUTE: '1000000', DAILY_JOB_LIMIT: '1000000' };
const service = await spawnListening('scripts/start.ts', env);
const pid = service.child.pid!;
try {
  const key = keyFor('soak', env);
  const headers = { authorization: `Bearer ${key}` };
  const getJson = async <T>(p: string) => (await (await fetch(`${service.url}${p}`, { headers })).json()) as T;

  // The first start researches the sample subjects by itself: wait for a stored
  // report, then for the queue to be empty, so the load meets a quiet service.
  type Listed = { subject_id: string; latest_report: { report_id: string } };
  let stored: Listed | undefined;
  for (let i = 0; i < 600 && !stored; i++) {
    stored = (await getJson<{ subjects: Listed[] }>('/v1/subjects')).subjects[0];
    if (!stored) await sleep(200);
  }
  if (!stored) throw new Error('no stored report appeared');
  const subject = stored.subject_id;
  const reportId = stored.latest_report.report_id;
  for (let i = 0; (await getJson<{ queue: { depth: number } }>('/v1/status')).queue.depth > 0; i++) {
    if (i > 1200) throw new Error('the first start\'s report jobs did not finish');
    await sleep(250);
  }
  const pages = (await getJson<{ paging: { total_pages: number } }>(`/v1/subjects/${stored.subject_id}/claims?page_size=20`)).paging.total_pages;

  // Twenty slots of the steady mix, in turn.
  const mix: Target[] = [
    ...Array.from({ length: 6 }, (): Target => ({ method: 'GET', path: `/v1/reports/${reportId}`, expect: 200 })),
    ...Array.from({ length: 4 }, (): Target => ({ method: 'POST', path: '/v1/reports', body: { subject_id: subject }, expect: 200 })),
    ...Array.from({ length: 4 }, (_, i): Target => ({ method: 'GET', path: `/v1/subjects/${subject}/claims?page_size=20&page=${(i % Math.max(1, pages)) + 1}`, expect: 200 })),
    ...Array.from({ length: 6 }, (): Target => ({ method: 'GET', path: '/v1/status', expect: 200 })),
  ];
  const check: Target = { method: 'POST', path: '/v1/check', body: { text: 'Brightwater recorded 112 pollution incidents in 2024, down from 150 in 2023.', author: 'Brightwater Utilities', said_on: '2025-02-25' }, expect: 202 };
  const exportOne: Target = { method: 'GET', path: `/v1/export?subject_id=${subject}`, expect: 200 };

  const totalMinutes = Math.ceil(minutes);
  const perMinute = Array.from({ length: totalMinutes }, () => ({ latencies: [] as number[], errors: 0, skipped: 0 }));
  const counts: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  const rss: { t_s: number; rss_mib: number }[] = [];
  const durationMs = minutes * 60_000;
  let inFlight = 0;
  let sent = 0;

  const send = async (t: Target, minute: number) => {
    const bucket = perMinute[minute]!;
    if (inFlight >= MAX_IN_FLIGHT) {
      bucket.skipped++;
      return;
    }
    inFlight++;
    const label = `${t.method} ${t.path.split('?')[0]!.replace(/(rep|sub)_[0-9a-f]+/, '{$1}')}`;
    counts[label] = (counts[label] ?? 0) + 1;
    const t0 = performance.now();
    try {
      const res = await fetch(`${service.url}${t.path}`, {
        method: t.method, headers: { ...headers, ...(t.body ? { 'content-type': 'application/json' } : {}) },
        ...(t.body ? { body: JSON.stringify(t.body) } : {}), signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status !== t.expect) bucket.errors++;
    } catch {
      statuses.network = (statuses.network ?? 0) + 1;
      bucket.errors++;
    } finally {
      bucket.latencies.push(performance.now() - t0);
      inFlight--;
    }
  };

  const pending = new Set<Promise<void>>();
  const start = performance.now();
  rss.push({ t_s: 0, rss_mib: round((await residentMib(pid)).now) });
  let nextSample = SAMPLE_MS;
  let nextCheck = checkEveryMs;
  let nextExport = exportEveryMs;
  // A fixed-rate schedule: at every tick, send whatever is due by now.
  while (true) {
    const elapsed = performance.now() - start;
    if (elapsed >= durationMs) break;
    const due = Math.floor((elapsed / 1000) * rate);
    const minute = Math.floor(elapsed / 60_000);
    for (; sent < due; sent++) {
      let target = mix[sent % mix.length]!;
      if (elapsed >= nextCheck) (target = check), (nextCheck += checkEveryMs);
      else if (elapsed >= nextExport) (target = exportOne), (nextExport += exportEveryMs);
      const p = send(target, minute);
      pending.add(p);
      void p.finally(() => pending.delete(p));
    }
    if (elapsed >= nextSample) {
      rss.push({ t_s: round(elapsed / 1000), rss_mib: round((await residentMib(pid)).now) });
      nextSample += SAMPLE_MS;
      if (rss.length % 6 === 1) process.stderr.write(`soak: ${round(elapsed / 60_000)} min, ${sent} requests sent, RSS ${rss.at(-1)!.rss_mib} MiB\n`);
    }
    await sleep(5);
  }
  await Promise.all(pending);
  const end = await residentMib(pid);
  rss.push({ t_s: round((performance.now() - start) / 1000), rss_mib: round(end.now) });

  const table = perMinute.map((m, i) => {
    const sorted = [...m.latencies].sort((a, b) => a - b);
    const inMinute = rss.filter((s) => s.t_s > i * 60 && s.t_s <= (i + 1) * 60);
    return {
      minute: i + 1,
      rss_mib: inMinute.at(-1)?.rss_mib ?? NaN,
      requests: m.latencies.length,
      errors: m.errors,
      skipped: m.skipped,
      p50_ms: round(percentile(sorted, 0.5)),
      p99_ms: round(percentile(sorted, 0.99)),
    };
  });
  const warmupS = (minutes * 60) / 3;
  const measured = rss.filter((s) => s.t_s >= warmupS);
  const slopeMibPerMin = round(slope(measured.map((s) => ({ x: s.t_s / 60, y: s.rss_mib }))), 2);
  const all = perMinute.flatMap((m) => m.latencies).sort((a, b) => a - b);
  const result = {
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    minutes,
    rate_per_s: rate,
    achieved_per_s: round(all.length / (durationMs / 1000)),
    requests: all.length,
    errors: perMinute.reduce((s, m) => s + m.errors, 0),
    skipped: perMinute.reduce((s, m) => s + m.skipped, 0),
    latency_ms: { p50: round(percentile(all, 0.5)), p99: round(percentile(all, 0.99)), max: round(all.at(-1) ?? NaN) },
    statuses,
    requests_by_route: counts,
    rss_mib: { start: rss[0]!.rss_mib, end: round(end.now), peak: round(end.peak) },
    per_minute: table,
    rss_samples: rss,
    warmup_minutes: round(warmupS / 60, 2),
    slope_mib_per_min: slopeMibPerMin,
    flat_threshold_mib_per_min: flatMibPerMin,
    verdict: slopeMibPerMin < flatMibPerMin ? 'flat' : 'growing',
  };

  if (values.json) {
    process.stdout.write(jsonOutput(result));
  } else {
    const pad = (v: unknown, n: number) => String(v).padStart(n);
    process.stdout.write(
      [
        `machine: ${result.machine}`,
        `soak: ${minutes} min at ${rate} req/s (achieved ${result.achieved_per_s}); ${result.requests} requests, ${result.errors} errors, ${result.skipped} not sent (over ${MAX_IN_FLIGHT} in flight); p50 ${result.latency_ms.p50} ms, p99 ${result.latency_ms.p99} ms, max ${result.latency_ms.max} ms`,
        `statuses: ${Object.entries(statuses).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `routes: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`,
        '',
        'minute   RSS MiB   requests   errors   p50 ms   p99 ms',
        ...table.map((r) => `${pad(r.minute, 6)}  ${pad(r.rss_mib, 8)}  ${pad(r.requests, 9)}  ${pad(r.errors, 7)}  ${pad(r.p50_ms, 7)}  ${pad(r.p99_ms, 7)}`),
        '',
        `RSS: start ${result.rss_mib.start} MiB, end ${result.rss_mib.end} MiB, peak ${result.rss_mib.peak} MiB (${rss.length} samples, every ${SAMPLE_MS / 1000} s)`,
        `samples (s: MiB): ${rss.map((s) => `${Math.round(s.t_s)}: ${s.rss_mib}`).join(', ')}`,
        `verdict: ${result.verdict} — RSS slope over the last two thirds (after ${result.warmup_minutes} min of warm-up, ${measured.length} samples) ${slopeMibPerMin} MiB/min; flat means under ${flatMibPerMin} MiB/min`,
        '',
      ].join('\n'),
    );
  }
} finally {
  await stop(service.child);
  await rm(dataDir, { recursive: true, force: true });
}
