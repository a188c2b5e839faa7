import { createReadStream, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../core/db/embedded.ts';
import { migrate } from '../core/db/migrate.ts';
import { createPool } from '../core/db/pool.ts';
import { ingestPack } from '../core/corpus/ingest.ts';
import { goldPathFor, readGold } from '../core/eval/gold.ts';
import { addCounts, emptyCounts, measurePack, type Counts, type EngineRun, type PackMeasure, type PackDocument, type PackSubject } from '../core/eval/measure.ts';
import { methodVersion } from '../core/method/version.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { Providers } from '../core/providers/types.ts';
import { researchSubject } from './pipeline/run.ts';

/**
 * `npm run eval` behind the command line (scripts/eval.ts), and the benchmark
 * test: each pack in an empty database of its own (so that one pack's
 * documents are never evidence for another's subjects), every subject
 * researched as of the gold file's `today`, then measured (core/eval/measure.ts).
 * `providers` lets a caller measure other providers (a configured model) on
 * the same corpus: it is given the pack's database pool and returns them.
 */

export type EvalPack = { file: string; part: string };
export type EvalResult = {
  method_version: string;
  measured_at: string;
  packs: Array<{ name: string; part: string; measure: PackMeasure; runs: EngineRun[] }>;
  total: Counts;
  byPart: Record<string, Counts>;
  phenomena: Map<string, { n: number; side_right: number }>;
};

function packRecords(file: string): { subjects: PackSubject[]; documents: PackDocument[] } {
  const subjects: PackSubject[] = [];
  const documents: PackDocument[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (r.record === 'subject') subjects.push({ name: String(r.name), aliases: (r.aliases as string[] | undefined) ?? [], urls: (r.urls as string[] | undefined) ?? [] });
    if (r.record === 'document') documents.push({ url: String(r.url), publisher: String(r.publisher ?? ''), text: String(r.text ?? '') });
  }
  return { subjects, documents };
}

export async function runEval(
  packs: readonly EvalPack[],
  opts: { dataDir: string; serverUrl?: string; providers?: (pool: pg.Pool) => Providers; log?: (line: string) => void },
): Promise<EvalResult> {
  // A PostgreSQL server to make the packs' databases in: the caller's (a test's), else a throwaway embedded one.
  const server = opts.serverUrl ? { url: opts.serverUrl, stop: async () => {} } : await startEmbeddedPostgres({ dataDir: opts.dataDir, mode: 'own', port: 0 });
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  const result: EvalResult = { method_version: methodVersion(), measured_at: new Date().toISOString(), packs: [], total: emptyCounts(), byPart: {}, phenomena: new Map() };
  try {
    let i = 0;
    for (const pack of packs) {
      const gold = readGold(goldPathFor(pack.file));
      const name = path.basename(pack.file, '.jsonl');
      const database = `eval_${tag}_${i++}`;
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      const u = new URL(server.url);
      u.pathname = `/${database}`;
      const pool = createPool(u.toString(), 4);
      try {
        await migrate(pool);
        await ingestPack(pool, createReadStream(pack.file));
        const providers = opts.providers ? opts.providers(pool) : localProviders(pool);
        const { rows } = await pool.query<{ id: string }>('SELECT id FROM subjects ORDER BY name, kind');
        const runs: EngineRun[] = [];
        for (const { id } of rows) {
          const subject = await providers.knowledge.byId(id);
          if (!subject) continue;
          const t0 = performance.now();
          const r = await researchSubject(subject, providers, { today: gold.today, depth: 'quick' });
          runs.push({ subject: subject.name, status: r.status, ...(r.status !== 'complete' ? { reason: r.reason } : {}), claims: r.claims, ms: performance.now() - t0 });
        }
        const { subjects, documents } = packRecords(pack.file);
        const measure = measurePack(gold, runs, subjects, documents);
        result.packs.push({ name, part: pack.part, measure, runs });
        result.total = addCounts(result.total, measure.counts);
        result.byPart[pack.part] = addCounts(result.byPart[pack.part] ?? emptyCounts(), measure.counts);
        for (const [k, v] of measure.phenomena) {
          const t = result.phenomena.get(k) ?? { n: 0, side_right: 0 };
          result.phenomena.set(k, { n: t.n + v.n, side_right: t.side_right + v.side_right });
        }
        opts.log?.(`${name}: measured`);
      } finally {
        await pool.end().catch(() => {});
        if (opts.serverUrl) {
          const admin = new pg.Client({ connectionString: server.url });
          await admin.connect();
          await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
          await admin.end();
        }
      }
    }
  } finally {
    if (!opts.serverUrl) {
      const { closePipelinePool } = await import('./pipeline/cpu-pool.ts');
      await closePipelinePool();
    }
    await server.stop();
  }
  return result;
}
