/**
 * `npm run bench` (check part): how long a check job of 50 claims takes, from
 * `POST /v1/check` to the poll that says `complete`, on the service started
 * as `npm start` starts it (offline engine, sample pack, workers in the same
 * process), once the first start's own report jobs are done. The 50 claims
 * are sentences of the sample pack's own documents (invented subjects), sent
 * as `claims` with Brightwater Utilities as author, so each one is typed,
 * given its fixed test, searched for evidence and judged. Three jobs, one
 * after another; the first pays for nothing the others do not (threads are
 * warm once the first-start jobs are done).
 * Options: --runs N (default 3), --json.
 */
import { readFile, mkdtemp, chmod, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { keyFor, spawnListening, stop } from './bench/process.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } } });
const runs = Number(values.runs);

const pack = (await readFile(new URL('../content/sample-pack.jsonl', import.meta.url), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { record: string; text?: string });
const sentences = pack
  .filter((r) => r.record === 'document')
  .flatMap((d) => (d.text ?? '').split(/(?<=[.!?])\s+/))
  .map((s) => s.trim())
  .filter((s) => /\d/.test(s) && s.length > 30 && s.length < 400);
if (sentences.length < 50) throw new Error(`only ${sentences.length} sentences with figures in the sample pack`);
const claims = sentences.slice(0, 50).map((text) => ({ text }));

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-check-'));
await chmod(dataDir, 0o755);
const env = { DATA_DIR: dataDir, PORT: '0', RATE_LIMIT_PER_MINUTE: '100000', DAILY_JOB_LIMIT: '1000' };
const { child, url } = await spawnListening('scripts/start.ts', env);
const key = keyFor('bench', env);
const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const times: number[] = [];
let outcomes: Record<string, number> = {};
try {
  for (let i = 0; i < 2400; i++) {
    const s = (await (await fetch(`${url}/v1/status`, { headers: auth })).json()) as { queue: { depth: number } };
    if (s.queue.depth === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  for (let run = 0; run < runs; run++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/check`, { method: 'POST', headers: auth, body: JSON.stringify({ claims, author: 'Brightwater Utilities', said_on: '2024-01-15' }) });
    if (res.status !== 202) throw new Error(`check answered ${res.status}`);
    const { job_id } = (await res.json()) as { job_id: string };
    for (;;) {
      const job = (await (await fetch(`${url}/v1/reports/${job_id}`, { headers: auth })).json()) as { status: string; results: { outcome: string }[] | null; reason: string | null };
      if (['complete', 'failed', 'insufficient'].includes(job.status)) {
        if (job.status !== 'complete') throw new Error(`check job ${job.status}: ${job.reason}`);
        times.push(performance.now() - t0);
        outcomes = {};
        for (const r of job.results ?? []) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
} finally {
  await stop(child);
  await rm(dataDir, { recursive: true, force: true });
}
const result = { machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`, claims: claims.length, runs_ms: times.map(Math.round), outcomes };
if (values.json) process.stdout.write(jsonOutput(result));
else process.stdout.write(`machine: ${result.machine}\ncheck job of ${claims.length} claims, POST to complete: ${result.runs_ms.join(', ')} ms; outcomes ${JSON.stringify(outcomes)}\n`);
