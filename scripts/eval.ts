/**
 * `npm run --silent eval -- [PACK.jsonl ...] [--part dev|heldout|all] [--json] [--verbose] [--quiet]`
 *
 * Measures the research engine against gold files (docs/source-packs.md):
 * each pack is ingested into an empty database of its own in a throwaway
 * embedded PostgreSQL, every subject is researched as of the gold file's
 * `today`, and the engine's claims are held against the gold ones. With no
 * pack named, the benchmark's development part (bench/dev) is measured;
 * `--part heldout` measures the held-out part, which no stage is tuned on.
 * `--model` measures the configured model (MODEL_*, read as the service
 * reads them) on the same packs and gold, and prints its calls and their cost.
 * `--stages` adds, per part, where the gold claims were lost, by stage (extraction, evidence, judges),
 * with no claim's text: a held-out part can be diagnosed without being read.
 * `--check` researches nothing: it checks each gold file against its pack
 * (quotes verbatim, subjects and speakers, sample marks) and prints the problems.
 * On a terminal, the subjects researched so far (of every pack's subjects)
 * are shown on stderr (scripts/progress.ts), unless --json or --quiet.
 * Exit codes: 0 done, 1 `--check` found problems, 2 usage or a bad gold file.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { modelProviders, runEval, type EvalResult } from '../jobs/eval.ts';
import { ConfigError, loadConfig } from '../core/config.ts';
import { figures, stageCounts, STAGES } from '../core/eval/measure.ts';
import { confusionOf } from '../core/eval/confusion.ts';
import { wrongSideOf } from '../core/method/judge-error.ts';
import { checkGold, goldPathFor, readGold, type PackIndex } from '../core/eval/gold.ts';
import { REPO_ROOT } from '../core/method/version.ts';
import { jsonOutput } from '../core/snake-keys.ts';
import { Progress } from './progress.ts';

const USAGE = 'usage: npm run --silent eval -- [PACK.jsonl ...] [--part dev|heldout|all] [--check] [--stages] [--confusion] [--json] [--verbose] [--explain WORDS] [--publish] [--model] [--quiet]';

let args;
try {
  args = parseArgs({ allowPositionals: true, options: { check: { type: 'boolean', default: false }, stages: { type: 'boolean', default: false }, confusion: { type: 'boolean', default: false }, part: { type: 'string', default: 'dev' }, json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false }, explain: { type: 'string' }, publish: { type: 'boolean', default: false }, model: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false } } });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
const { values, positionals } = args;
if (!['dev', 'heldout', 'all'].includes(values.part!)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

let providers: ReturnType<typeof modelProviders> = null;
if (values.model) {
  try {
    const config = loadConfig();
    // A model priced at the default (no price known for it) says so: its cost below would be an overstatement.
    for (const warning of config.warnings) process.stderr.write(`${warning}\n`);
    providers = modelProviders(config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
  if (!providers) {
    process.stderr.write('--model: no model is configured (set MODEL_PROVIDER=openai|anthropic, MODEL_NAME and MODEL_API_KEY, and MODEL_BASE_URL for another server; see README, "Hosted providers")\n');
    process.exit(2);
  }
  if (values.publish) {
    // bench/published.json holds the offline engine's figures, the floor test/benchmark.test.ts checks.
    process.stderr.write('--model and --publish do not go together: the published figures are the offline engine\'s\n');
    process.exit(2);
  }
}

function packsIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !f.endsWith('.gold.jsonl')).sort().map((f) => path.join(dir, f));
}

const packs = positionals.length
  ? positionals.map((p) => path.resolve(p))
  : values.part === 'all'
    ? [...packsIn(path.join(REPO_ROOT, 'bench', 'dev')), ...packsIn(path.join(REPO_ROOT, 'bench', 'heldout'))]
    : packsIn(path.join(REPO_ROOT, 'bench', values.part!));
if (packs.length === 0) {
  process.stderr.write(`no packs to measure\n${USAGE}\n`);
  process.exit(2);
}

if (values.check) {
  let problems = 0;
  for (const file of packs) {
    const goldFile = goldPathFor(file);
    try {
      const pack: PackIndex = { subjects: [], documents: [] };
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const r = JSON.parse(line) as Record<string, unknown>;
        const sample = r.sample === true;
        if (r.record === 'subject') pack.subjects.push({ name: String(r.name), aliases: Array.isArray(r.aliases) ? r.aliases.map(String) : [], sample });
        else if (r.record === 'document') pack.documents.push({ url: String(r.url), speakers: Array.isArray(r.speakers) ? r.speakers.map(String) : [], text: String(r.text ?? ''), sample });
      }
      const found = checkGold(readGold(goldFile), pack);
      problems += found.length;
      process.stdout.write(`${path.relative(process.cwd(), goldFile)}: ${found.length ? `${found.length} problem(s)` : 'ok'}\n${found.map((x) => `  ${x}\n`).join('')}`);
    } catch (err) {
      problems++;
      process.stdout.write(`${path.relative(process.cwd(), goldFile)}: ${(err as Error).message}\n`);
    }
  }
  process.exit(problems ? 1 : 0);
}

const pct = (x: number | null) => (x === null ? '   –' : `${(x * 100).toFixed(0).padStart(3)}%`);

function print(r: EvalResult) {
  const out: string[] = [];
  out.push(`method ${r.method_version}; ${r.packs.length} pack(s); measured ${r.measured_at}`);
  out.push('');
  out.push('pack                          gold found  type  side  cover wrong/res false-ext non-claims indep verbatim  ms/report');
  const row = (name: string, f: ReturnType<typeof figures>) =>
    `${name.padEnd(28).slice(0, 28)} ${String(f.gold_claims).padStart(5)} ${pct(f.found)} ${pct(f.type_right)} ${pct(f.side_right)}  ${pct(f.coverage)}     ${pct(f.wrong_of_resolved)}     ${pct(f.false_extractions)}      ${String(f.non_claims_extracted).padStart(2)}/${String(f.gold_non_claims).padEnd(3)}   ${String(f.wrongly_independent).padStart(3)}      ${String(f.non_verbatim_verified).padStart(3)}  ${f.ms_per_report === null ? '–' : Math.round(f.ms_per_report)}`;
  for (const p of r.packs) out.push(row(`${p.part}/${p.name}`, figures(p.measure.counts)));
  out.push(row('ALL', figures(r.total)));
  for (const [part, c] of Object.entries(r.byPart)) out.push(row(`ALL ${part}`, figures(c)));
  out.push('');
  out.push('phenomenon                    n   side right');
  for (const [k, v] of [...r.phenomena.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    out.push(`${k.padEnd(28)} ${String(v.n).padStart(3)}  ${pct(v.side_right / v.n)}`);
  }
  if (values.stages) {
    out.push('');
    out.push(`stage (gold claims)       ${Object.keys(r.byPart).map((p) => p.padStart(22)).join('')}`);
    const byPart = Object.fromEntries(Object.keys(r.byPart).map((part) => [part, stageCounts(r.packs.filter((p) => p.part === part).flatMap((p) => p.measure.claims))]));
    for (const stage of STAGES) {
      out.push(`${stage.padEnd(26)}${Object.keys(r.byPart).map((part) => { const x = byPart[part]![stage]; return `${String(x.n).padStart(6)} (${String(x.type_wrong).padStart(2)} mistyped)`.padStart(22); }).join('')}`);
    }
  }
  if (values.confusion) {
    for (const part of Object.keys(r.byPart)) {
      const c = confusionOf(r.packs.filter((p) => p.part === part).flatMap((p) => p.measure.claims));
      const w = wrongSideOf(c.overall);
      out.push('');
      out.push(`judge confusion, ${part} (rows: gold true … false; columns: engine; as core/method/judge-error.ts records it): ${w.wrong} of ${w.resolved} on the wrong side`);
      out.push(JSON.stringify(c));
    }
  }
  if (values.model) {
    out.push('');
    out.push('model calls                   calls  input tok  output tok   cost USD');
    const spendRow = (name: string, s: EvalResult['spend']) =>
      `${name.padEnd(28).slice(0, 28)} ${String(s.calls).padStart(6)} ${String(s.input_tokens).padStart(10)} ${String(s.output_tokens).padStart(11)} ${s.cost_usd.toFixed(4).padStart(10)}`;
    for (const p of r.packs) out.push(spendRow(`${p.part}/${p.name}`, p.spend));
    out.push(spendRow('ALL', r.spend));
  }
  if (values.verbose) {
    for (const p of r.packs) {
      out.push('');
      out.push(`== ${p.part}/${p.name}`);
      for (const s of p.measure.subjects) out.push(`  subject ${s.subject}: ${s.status}, ${s.claims} claims${s.reason ? ` (${s.reason})` : ''}`);
      for (const c of p.measure.claims) {
        const mark = c.side_right ? 'ok ' : 'XX ';
        out.push(`  ${mark}[${c.gold.claim_type}/${c.gold.outcome}] → ${c.engine ? `[${c.engine.claim_type}/${c.engine.outcome}]` : '[not found]'} ${c.gold.subject}: ${c.gold.quote.slice(0, 150)}`);
      }
      for (const f of p.measure.falseExtractions) out.push(`  FE [${f.claim_type}/${f.outcome}]${f.non_claim ? ` (gold non-claim: ${f.non_claim})` : ''} ${f.subject}: ${f.quote.slice(0, 150)}`);
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

/** The subject records of a pack: what runEval researches in it. */
function subjectRecords(file: string): number {
  return readFileSync(file, 'utf8').split('\n').filter((line) => /"record"\s*:\s*"subject"/.test(line)).length;
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'rss-eval-'));
let code = 0;
try {
  const parts = packs.map((p) => ({ file: p, part: p.includes(`${path.sep}heldout${path.sep}`) ? 'heldout' : p.includes(`${path.sep}dev${path.sep}`) ? 'dev' : 'other' }));
  for (const p of parts) if (!existsSync(p.file) || !existsSync(p.file.replace(/\.jsonl$/, '.gold.jsonl'))) throw new Error(`${p.file}: pack or its gold file (.gold.jsonl) is missing`);
  // Subjects researched of every pack's subject records (counted from the files before the run).
  const subjects = parts.reduce((n, p) => n + subjectRecords(p.file), 0);
  const progress = new Progress({ label: 'eval', total: subjects, noun: 'subjects', json: values.json, quiet: values.quiet });
  let researched = 0;
  progress.update(0, { detail: 'starting a throwaway PostgreSQL' });
  const result = await runEval(parts, {
    dataDir: dir, ...(providers ? { providers } : {}),
    onSubject: (s) => progress.update(++researched, { detail: `${s.pack}: ${s.subject}` }),
  }).then(
    (r) => (progress.finish({ detail: `${parts.length} pack(s)` }), r),
    (err: unknown) => (progress.abandon(), Promise.reject(err)),
  );
  if (values.json) {
    process.stdout.write(jsonOutput({
      method_version: result.method_version,
      measured_at: result.measured_at,
      packs: result.packs.map((p) => ({ name: p.name, part: p.part, figures: figures(p.measure.counts), counts: p.measure.counts, subjects: p.measure.subjects })),
      total: { figures: figures(result.total), counts: result.total },
      by_part: Object.fromEntries(Object.entries(result.byPart).map(([k, c]) => [k, { figures: figures(c), counts: c }])),
      phenomena: Object.fromEntries(result.phenomena),
      ...(values.confusion ? { confusion: Object.fromEntries(Object.keys(result.byPart).map((part) => [part, confusionOf(result.packs.filter((p) => p.part === part).flatMap((p) => p.measure.claims))])) } : {}),
      ...(values.stages ? { stages: Object.fromEntries(Object.keys(result.byPart).map((part) => [part, stageCounts(result.packs.filter((p) => p.part === part).flatMap((p) => p.measure.claims))])) } : {}),
      ...(values.model ? { model_spend: { packs: Object.fromEntries(result.packs.map((p) => [`${p.part}/${p.name}`, p.spend])), total: result.spend } } : {}),
    }));
  } else print(result);
  if (values.publish) {
    // The figures a later change must not fall below (test/benchmark.test.ts reads them).
    const file = path.join(REPO_ROOT, 'bench', 'published.json');
    const published = {
      method_version: result.method_version,
      measured_at: result.measured_at,
      parts: Object.fromEntries(Object.entries(result.byPart).map(([k, c]) => [k, figures(c)])),
    };
    writeFileSync(file, `${JSON.stringify(published, null, 2)}\n`);
    process.stderr.write(`published to ${path.relative(REPO_ROOT, file)}\n`);
  }
  if (values.explain) {
    // Everything behind the engine's claims whose quote holds the given words: for finding out why.
    for (const p of result.packs) {
      for (const run of p.runs) {
        for (const c of run.claims as Array<Record<string, unknown>>) {
          if (!String(c.quote).toLowerCase().includes(values.explain.toLowerCase())) continue;
          process.stdout.write(`\n## ${p.name} / ${run.subject}: ${String(c.quote)}\n${JSON.stringify({ type: c.claim_type, due: c.due, outcome: c.outcome, rationale: c.rationale, evidence: c.evidence }, null, 1)}\n`);
        }
      }
    }
  }
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  code = 2;
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
