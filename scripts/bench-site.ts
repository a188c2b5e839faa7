/**
 * `npm run bench` (site part): the static site over generated reports, in a
 * fresh embedded PostgreSQL. For each size (default 1,000 then 10,000
 * reports of 30 claims): full builds, --full-trials times each, cold
 * (`cache: false`: every page rendered) and warm (one report's data changed
 * before each, the rest taken from the live version by the page cache,
 * jobs/site/page-cache.ts): pages per second, median, with each build's
 * phases (snapshot, Astro, render and compress, …; they overlap) and the
 * load average when it started; the size of a typical report page, and the
 * publish time of one
 * new report on that site (an incremental build, published in place; median
 * of --trials, each a new report of --claims claims); then on the largest
 * site: the time from a stored report to its page on demand
 * (GET /v1/reports/{id}/html), and the time from a stored report to its
 * published static page through the site-build queue (pg-boss worker,
 * debounce as configured).
 * Options: --reports 1000,10000,100000 --claims 30 --bulk-claims N (claims of
 * the generated reports that fill the site; default --claims: fewer make a
 * site of 100,000 reports quicker to generate and build, and change nothing a
 * new report's publish reads) --trials 3 --full-trials 3 --no-queue --json --keep (leave the
 * data folder, with its database files and its site, for profiling; its path is printed).
 */
import { mkdtemp, chmod, rm, readFile, stat, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { openDatabase } from '../core/db/connect.ts';
import { withTransaction, type Pool } from '../core/db/pool.ts';
import { createKey } from '../core/keys.ts';
import { OUTCOMES, REVIEW_LABEL } from '../core/method/outcomes.ts';
import { methodVersion } from '../core/method/version.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import { claimIdFor, newReportId } from '../core/reports/ids.ts';
import { clientDir, readCurrent } from '../core/site/layout.ts';
import { buildApp } from '../api/app.ts';
import { startBoss } from '../jobs/boss.ts';
import { PGBOSS_SCHEMA } from '../jobs/queues.ts';
import { requestSiteBuild, startSiteWorkers } from '../jobs/site-build.ts';
import { buildSite } from '../jobs/site/builds.ts';
import { rng } from './bench/generate-pack.ts';
import { jsonOutput } from '../core/snake-keys.ts';

const { values } = parseArgs({
  options: {
    reports: { type: 'string', default: '1000,10000' }, claims: { type: 'string', default: '30' }, 'bulk-claims': { type: 'string' },
    trials: { type: 'string', default: '3' }, 'full-trials': { type: 'string', default: '3' }, 'no-queue': { type: 'boolean', default: false }, keep: { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
  },
});
const sizes = values.reports.split(',').map(Number).sort((a, b) => a - b);
const newClaims = Number(values.claims);
const bulkClaims = Number(values['bulk-claims'] ?? values.claims);
let claimsPer = bulkClaims;

const r = rng(11);
const words = 'water energy housing transport health schools broadband rail leakage customers clinics revenue investment district council network service'.split(' ');
const NAMES = ['Avelin', 'Brackley', 'Corvan', 'Dellis', 'Embry', 'Fenwick', 'Garrow', 'Halden', 'Isley', 'Jarrow', 'Kestrel', 'Lorne', 'Marlow', 'Norcott', 'Orwin', 'Pellam', 'Quarry', 'Rushden', 'Selwyn', 'Tamsin', 'Ulric', 'Varley', 'Wexford', 'Yarrow', 'Zennor'];
const sentence = (n: number) => Array.from({ length: n }, () => words[Math.floor(r() * words.length)]).join(' ');
const score = (s: number, n: number) => ({ score: s, interval_80: [Math.max(0, s - 11.3), Math.min(100, s + 9.8)], n_resolved: n, confidence: { level: n >= 10 ? 'medium' : 'low', reasons: `${n >= 10 ? 'Medium' : 'Low'}: ${n} resolved claims and an 80% range 21.1 points wide; medium needs at least 10 resolved claims.` } });

/** Generated reports (invented subjects, marked as generated), written in batches straight into the tables. */
async function generate(pool: Pool, from: number, to: number): Promise<string[]> {
  const ids: string[] = [];
  for (let b = from; b < to; b += 100) {
    await withTransaction(pool, async (tx) => {
      const subjects: { id: string; name: string; kind: string; description: string; name_keys: string[] }[] = [];
      const reports: Record<string, unknown>[] = [];
      const claims: Record<string, unknown>[] = [];
      for (let i = b; i < Math.min(to, b + 100); i++) {
        // Names spread over the alphabet, as real ones are (the browse pages group by first letter).
        const name = `${NAMES[i % NAMES.length]} ${words[Math.floor(i / NAMES.length) % words.length]} ${i}`;
        const id = `sub_${i.toString(16).padStart(16, '0')}`;
        subjects.push({ id, name, kind: ['organisation', 'person', 'outlet'][i % 3]!, description: 'GENERATED SAMPLE DATA (benchmark): an invented subject.', name_keys: [name.toLowerCase()] });
        const reportId = newReportId();
        ids.push(reportId);
        const cl = Array.from({ length: claimsPer }, (_, j) => {
          const quote = `We ${sentence(4)} ${100 + j * 7} ${sentence(8)} by ${2024 + (j % 4)}.`;
          const url = `https://generated-${i}.example/news/${j}`;
          const outcome = OUTCOMES[Math.floor(r() * OUTCOMES.length)]!;
          return {
            claim_id: claimIdFor(id, url, quote), claim_type: ['factual', 'promise', 'guidance', 'prediction'][j % 4], topic: 'economy', quote, quote_verified: r() < 0.8,
            said_on: `2025-${String((j % 12) + 1).padStart(2, '0')}-10`, source: { url, title: `[Generated] Update ${j}`, outlet: name, published: '2025-06-01' },
            resolution_criteria: `True if an independent source published on or before 2026-06-01 reports the figures of "${quote}" to within 2%; within 10% mostly_true, within 25% mostly_false, further off false. ${sentence(20)}`,
            due: j % 4 === 1 ? '2027-12-31' : null, outcome, on_time: j % 4 === 1 ? r() < 0.5 : null,
            rationale: `The figures judge found ${outcome}: ${sentence(30)}. The wording judge found ${outcome}: ${sentence(25)}.`,
            evidence: Array.from({ length: Math.floor(r() * 4) }, (_, k) => ({ url: `https://stats-${k}.example/${i}/${j}`, publisher: `Statistics Office ${k}`, published: '2025-09-01', quote: `${sentence(18)} ${100 + j * 7}.`, independent_of_subject: k > 0 })),
            judges_disagree: r() < 0.1,
          };
        });
        const resolved = cl.filter((c) => ['true', 'mostly_true', 'mixed', 'mostly_false', 'false'].includes(c.outcome)).length;
        const s = Math.round(r() * 800 + 100) / 10;
        reports.push({
          id: reportId, subject_id: id, method_version: methodVersion(),
          report: {
            subject: { subject_id: id, name, kind: subjects.at(-1)!.kind, aliases: [], description: subjects.at(-1)!.description, public_figure: true, serving_politician: false, demo: false },
            method_version: methodVersion(), score: { ...score(s, resolved), confidence: resolved >= 10 ? 'medium' : 'low' },
            scores: { overall: score(s, resolved), factual: score(s, Math.ceil(resolved / 4)), promise: score(s, Math.ceil(resolved / 4)), guidance: score(s, Math.ceil(resolved / 4)), prediction: score(s, Math.floor(resolved / 4)) },
            featured_claims: [], caveats: [{ code: 'machine_generated', message: `Every outcome was set by machine judges and no person has reviewed them (${REVIEW_LABEL}).` }], review_status: REVIEW_LABEL,
          },
        });
        cl.forEach((c, position) => claims.push({ report_id: reportId, subject_id: id, position, ...c, data: c }));
      }
      await tx.query(`INSERT INTO subjects (id, name, kind, description, name_keys) SELECT id, name, kind, description, name_keys FROM jsonb_to_recordset($1::jsonb) AS s(id text, name text, kind text, description text, name_keys text[])`, [JSON.stringify(subjects)]);
      await tx.query(`INSERT INTO reports (id, subject_id, method_version, depth, report) SELECT id, subject_id, method_version, 'quick', report FROM jsonb_to_recordset($1::jsonb) AS r(id text, subject_id text, method_version text, report jsonb)`, [JSON.stringify(reports)]);
      await tx.query(
        `INSERT INTO claims (report_id, claim_id, position, subject_id, claim_type, topic, outcome, said_on, data)
         SELECT report_id, claim_id, position, subject_id, claim_type, topic, outcome, said_on, data FROM jsonb_to_recordset($1::jsonb)
           AS c(report_id text, claim_id text, position int, subject_id text, claim_type text, topic text, outcome text, said_on date, data jsonb)`,
        [JSON.stringify(claims)],
      );
    });
  }
  return ids;
}

async function du(dir: string): Promise<number> {
  let bytes = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    bytes += e.isDirectory() ? await du(p) : (await stat(p)).size;
  }
  return bytes;
}

/** CPU seconds of this process (every thread: the render threads, libuv's compression threads) and of its children that ended (the Astro build), from /proc; PostgreSQL's own is not in it. */
const cpuSeconds = async () => {
  const f = (await readFile('/proc/self/stat', 'utf8')).split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-bench-site-'));
await chmod(dataDir, 0o755);
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const db = await openDatabase(config, { mode: 'own' });
const o = { siteDir: config.siteDir, siteUrl: null, exportKeepDays: 7 };
const out: Record<string, unknown> = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`, claims_per_report: bulkClaims, claims_per_new_report: newClaims,
  full_builds: [] as unknown[], publish_one_report: [] as unknown[],
};
try {
  let have = 0;
  let ids: string[] = [];
  for (const n of sizes) {
    const tg = performance.now();
    ids = ids.concat(await generate(db.pool, have, n));
    have = n;
    // As autovacuum would after such a load: the planner needs the tables' statistics.
    await db.pool.query('ANALYZE subjects, reports, claims');
    const genMs = performance.now() - tg;
    const full = async (cache: boolean) => {
      const load = os.loadavg()[0]!;
      const cpu0 = await cpuSeconds();
      const b = await buildSite(db.pool, o, { reason: 'bench', full: true, cache });
      const cpu = (await cpuSeconds()) - cpu0;
      return {
        ms: Math.round(b.ms), rendered: b.rendered, pages_per_second: Math.round((b.pages / (b.ms / 1000)) * 10) / 10, cpu_seconds: Math.round(cpu * 10) / 10,
        pages_per_cpu_second: Math.round((b.pages / cpu) * 10) / 10, load_average: Math.round(load * 10) / 10, phases: b.phases, pages: b.pages,
      };
    };
    const cold = [];
    for (let i = 0; i < Number(values['full-trials']); i++) cold.push(await full(false));
    // Warm: a rebuild after one report's data changed (its first claim's rationale), as a full build asked for, or one after a removal, finds the site.
    const warm = [];
    for (let i = 0; i < Number(values['full-trials']); i++) {
      const id = ids[Math.floor(r() * ids.length)]!;
      await db.pool.query(`UPDATE claims SET data = jsonb_set(data, '{rationale}', to_jsonb($2::text)) WHERE report_id = $1 AND position = 0`, [id, `Changed for the warm build ${i}: ${sentence(12)}.`]);
      warm.push(await full(true));
    }
    const summary = (runs: Awaited<ReturnType<typeof full>>[]) => ({ median_pages_per_second: median(runs.map((x) => x.pages_per_second)), runs });
    const cur = (await readCurrent(config.siteDir))!;
    const sizes = await Promise.all(ids.slice(0, 200).map(async (id) => readFile(path.join(clientDir(cur.dir), 'reports', id, 'index.html'))));
    const typical = median(sizes.map((s) => s.length));
    const typicalGz = median(sizes.map((s) => gzipSync(s).length));
    (out.full_builds as unknown[]).push({
      reports: n, generate_ms: Math.round(genMs), pages: cold[0]!.pages, cold: summary(cold), warm: summary(warm),
      typical_report_page_bytes: typical, typical_report_page_gzip_bytes: typicalGz, site_bytes: await du(clientDir(cur.dir)),
    });
    process.stderr.write(`full builds of ${n} reports: ${JSON.stringify((out.full_builds as unknown[]).at(-1))}\n`);

    // One new report on this site, published by an incremental build (in place), --trials times.
    claimsPer = newClaims;
    const trials: { ms: number; rendered: number; phases: unknown }[] = [];
    for (let i = 0; i < Number(values.trials); i++) {
      const [one] = await generate(db.pool, have, have + 1);
      have++;
      const inc = await buildSite(db.pool, o, { reason: 'bench: one report' });
      if (inc.kind !== 'incremental' || !inc.new_reports.includes(one!)) throw new Error(`the new report was not published incrementally: ${JSON.stringify(inc)}`);
      ids.push(one!);
      trials.push({ ms: Math.round(inc.ms), rendered: inc.rendered, phases: inc.phases });
    }
    claimsPer = bulkClaims;
    const publish = { site_reports: n, trials_ms: trials.map((x) => x.ms), median_ms: median(trials.map((x) => x.ms)), rendered: trials[0]!.rendered, phases: trials.map((x) => x.phases) };
    (out.publish_one_report as unknown[]).push(publish);
    process.stderr.write(`one new report on ${n}: ${JSON.stringify(publish)}\n`);
  }

  // Stored report to page: on demand through the API, and published through the site-build queue.
  if (!values['no-queue']) {
  const boss = await startBoss({ databaseUrl: db.url, role: 'all' });
  const app = await buildApp({ config, pool: db.pool, databaseUrl: db.url, bossSchema: PGBOSS_SCHEMA, queues: [], knowledge: localProviders(db.pool).knowledge, enqueue: async () => {} });
  await app.ready();
  const key = (await createKey(db.pool, 'bench-site')).key;
  await startSiteWorkers(boss, db.pool, undefined, config);
  const onDemand: number[] = [];
  const published: number[] = [];
  for (let i = 0; i < Number(values.trials); i++) {
    // Each trial starts a debounce slot of its own, as an isolated report would.
    await new Promise((res) => setTimeout(res, config.siteBuildDebounceSeconds * 1000 - (Date.now() % (config.siteBuildDebounceSeconds * 1000)) + 50));
    const t0 = performance.now();
    const [id] = await generate(db.pool, have, have + 1);
    have++;
    await requestSiteBuild(boss, { reason: 'bench: stored report' });
    const res = await app.inject({ method: 'GET', url: `/v1/reports/${id}/html`, headers: { authorization: `Bearer ${key}` } });
    if (res.statusCode !== 200) throw new Error(`html ${res.statusCode}`);
    onDemand.push(performance.now() - t0);
    for (;;) {
      const cur = await readCurrent(config.siteDir);
      if (cur && (await stat(path.join(clientDir(cur.dir), 'reports', id!, 'index.html')).then(() => true, () => false))) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    published.push(performance.now() - t0);
  }
  out.stored_report_to_page = {
    on_demand_html_ms: onDemand.map(Math.round), static_page_published_ms: published.map(Math.round),
    debounce_seconds: config.siteBuildDebounceSeconds, site_reports: have,
  };
  await app.close();
  await boss.stop({ graceful: false });
  }

  if (values.json) process.stdout.write(jsonOutput(out));
  else {
    const lines = [`machine: ${out.machine}`, `reports of ${claimsPer} claims each`];
    type Runs = { median_pages_per_second: number; runs: { pages_per_second: number; rendered: number; load_average: number }[] };
    const runs = (x: Runs) => `median ${x.median_pages_per_second} pages/s (${x.runs.map((r) => `${r.pages_per_second} with ${r.rendered} rendered, load ${r.load_average}`).join('; ')})`;
    for (const f of out.full_builds as (Record<string, number> & { cold: Runs; warm: Runs })[]) {
      lines.push(`full builds, ${f.reports} reports (${f.pages} pages): cold ${runs(f.cold)}; warm ${runs(f.warm)}; typical report page ${Math.round(f.typical_report_page_bytes! / 1024)} KB (${Math.round(f.typical_report_page_gzip_bytes! / 1024)} KB gzipped); site ${Math.round(f.site_bytes! / 1048576)} MB`);
    }
    for (const p of out.publish_one_report as Record<string, number[] | number>[]) {
      lines.push(`one new report published on a site of ${p.site_reports} reports: median ${p.median_ms} ms (trials ${(p.trials_ms as number[]).join(', ')} ms; ${p.rendered} pages rendered)`);
    }
    const s = out.stored_report_to_page as Record<string, number[]> | undefined;
    if (s) lines.push(`stored report to its page: on demand ${s.on_demand_html_ms!.join(', ')} ms; published static page ${s.static_page_published_ms!.join(', ')} ms`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
} finally {
  await db.close();
  if (values.keep) process.stderr.write(`kept ${dataDir}\n`);
  else await rm(dataDir, { recursive: true, force: true });
}
