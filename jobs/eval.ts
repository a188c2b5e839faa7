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
import type { Config } from '../core/config.ts';
import { buildProviders } from '../core/providers/index.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { Providers } from '../core/providers/types.ts';
import { researchSubject } from './pipeline/run.ts';

/**
 * `npm run eval` behind the command line (scripts/eval.ts), and the benchmark
 * test: each pack in an empty database of its own (so that one pack's
 * documents are never evidence for another's subjects), every subject
 * researched as of the gold file's `today`, then measured (core/eval/measure.ts).
 * `providers` lets a caller measure other providers (a configured model) on
 * the same corpus: it is given the pack's database pool and returns them
 * (modelProviders below: the configured model on the local corpus). What the
 * model calls cost is read from each pack's own spend ledger before its
 * database goes (`spend`; zeros for the offline engine).
 */

/** Model calls recorded in the spend ledger (core/limits/spend.ts): calls, tokens and their cost. */
export type EvalSpend = { calls: number; input_tokens: number; output_tokens: number; cost_usd: number };
const noSpend = (): EvalSpend => ({ calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 });
const addSpend = (a: EvalSpend, b: EvalSpend): EvalSpend => ({ calls: a.calls + b.calls, input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens, cost_usd: a.cost_usd + b.cost_usd });

export type EvalPack = { file: string; part: string };
export type EvalResult = {
  method_version: string;
  measured_at: string;
  packs: Array<{ name: string; part: string; measure: PackMeasure; runs: EngineRun[]; spend: EvalSpend }>;
  total: Counts;
  spend: EvalSpend;
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
  opts: {
    dataDir: string; serverUrl?: string; providers?: (pool: pg.Pool) => Providers | Promise<Providers>; log?: (line: string) => void;
    /** After each subject researched (`npm run eval` shows it on a terminal): the pack and the subject. */
    onSubject?: (p: { pack: string; subject: string }) => void;
  },
): Promise<EvalResult> {
  // A PostgreSQL server to make the packs' databases in: the caller's (a test's), else a throwaway embedded one.
  const server = opts.serverUrl ? { url: opts.serverUrl, stop: async () => {} } : await startEmbeddedPostgres({ dataDir: opts.dataDir, mode: 'own', port: 0 });
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  const result: EvalResult = { method_version: methodVersion(), measured_at: new Date().toISOString(), packs: [], total: emptyCounts(), spend: noSpend(), byPart: {}, phenomena: new Map() };
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
        const providers = opts.providers ? await opts.providers(pool) : localProviders(pool);
        const { rows } = await pool.query<{ id: string }>('SELECT id FROM subjects ORDER BY name, kind');
        const runs: EngineRun[] = [];
        for (const { id } of rows) {
          const subject = await providers.knowledge.byId(id);
          if (!subject) continue;
          const t0 = performance.now();
          const r = await researchSubject(subject, providers, { today: gold.today, depth: 'quick' });
          runs.push({ subject: subject.name, status: r.status, ...(r.status !== 'complete' ? { reason: r.reason } : {}), claims: r.claims, ms: performance.now() - t0 });
          opts.onSubject?.({ pack: name, subject: subject.name });
        }
        const { subjects, documents } = packRecords(pack.file);
        const measure = measurePack(gold, runs, subjects, documents);
        // The pack's database is new and only this run wrote to it: its whole ledger is this run's spend.
        const { rows: [s] } = await pool.query<{ calls: string; input_tokens: string; output_tokens: string; cost_usd: string }>(
          'SELECT count(*) AS calls, coalesce(sum(input_tokens), 0) AS input_tokens, coalesce(sum(output_tokens), 0) AS output_tokens, coalesce(sum(amount_usd), 0) AS cost_usd FROM spend_ledger',
        );
        const spend: EvalSpend = { calls: Number(s!.calls), input_tokens: Number(s!.input_tokens), output_tokens: Number(s!.output_tokens), cost_usd: Number(s!.cost_usd) };
        result.packs.push({ name, part: pack.part, measure, runs, spend });
        result.total = addCounts(result.total, measure.counts);
        result.spend = addSpend(result.spend, spend);
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

/**
 * `npm run eval -- --model`: the model configuration asks for (MODEL_*, as the
 * service builds it, core/providers/index.ts) on the local corpus of each
 * pack. Knowledge, search, statements and fetch stay the pack's own, and no
 * published fact-checks are read, so that the figures are of the same corpus
 * and gold as the offline engine's. Null when no model is configured.
 */
export function modelProviders(config: Config): ((pool: pg.Pool) => Promise<Providers>) | null {
  if (config.providers.model.provider === 'none') return null;
  const p = config.providers;
  const onCorpus: Config = {
    ...config,
    providers: { ...p, knowledge: { ...p.knowledge, provider: 'local' }, search: { ...p.search, provider: 'local' }, factCheck: { ...p.factCheck, apiKey: undefined } },
  };
  return (pool) => buildProviders(onCorpus, pool);
}
