/**
 * `npm run --silent research -- NAME [--kind KIND] [--depth quick|standard]
 *   [--topic TOPIC] [--consent-ref REF] [--today YYYY-MM-DD] [--json] [--quiet]`
 *
 * Runs the research pipeline for one subject from the command line, on the
 * offline engine over the local corpus, and stores the report when it is
 * complete. `--subject-id ID` instead of NAME names the subject exactly.
 * Prints a summary (or, with --json, the whole result) on stdout. On a
 * terminal, the stage and the claims judged so far are shown on stderr
 * (scripts/progress.ts), unless --json or --quiet.
 * Exit codes: 0 complete, 3 insufficient or refused, 4 unknown or ambiguous
 * name (the candidates are listed), 2 usage.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.ts';
import { jsonOutput } from '../core/snake-keys.ts';
import { openDatabase } from '../core/db/connect.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import { TOPICS } from '../core/method/outcomes.ts';
import { normaliseTopic } from '../core/schemas/topic.ts';
import { makeReport } from '../jobs/research.ts';
import { closePipelinePool } from '../jobs/pipeline/cpu-pool.ts';
import { Progress } from './progress.ts';

const USAGE = 'usage: npm run --silent research -- NAME | --subject-id ID [--kind person|organisation|outlet] [--depth quick|standard] [--topic T] [--consent-ref R] [--today YYYY-MM-DD] [--json] [--quiet]';

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      'subject-id': { type: 'string' }, kind: { type: 'string' }, depth: { type: 'string', default: 'quick' }, topic: { type: 'string' },
      'consent-ref': { type: 'string' }, today: { type: 'string' }, json: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false },
    },
  });
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
const { values, positionals } = args;
const name = positionals.join(' ').trim();
if ((!name && !values['subject-id']) || !['quick', 'standard'].includes(values.depth!) || (values.kind && !['person', 'organisation', 'outlet'].includes(values.kind))) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
// As POST /v1/reports: a topic must name one of the method's topics, never be dropped silently.
if (values.topic !== undefined && normaliseTopic(values.topic) === null) {
  process.stderr.write(`unknown topic "${values.topic}"; one of: ${TOPICS.join(', ')}\n${USAGE}\n`);
  process.exit(2);
}

const db = await openDatabase(loadConfig(), { mode: 'share', poolMax: 4 });
let code = 0;
try {
  let subjectId = values['subject-id'];
  if (!subjectId) {
    const found = await localProviders(db.pool).knowledge.lookup(name, (values.kind as 'person' | undefined) ?? null);
    if (found.length !== 1) {
      process.stderr.write(found.length === 0 ? `no subject named "${name}" in the corpus\n` : `"${name}" matches ${found.length} subjects; pass --kind or --subject-id:\n`);
      for (const s of found) process.stderr.write(`  ${s.subject_id}  ${s.kind}  ${s.name}  ${s.description ?? ''}\n`);
      code = 4;
    } else subjectId = found[0]!.subject_id;
  }
  if (subjectId) {
    // Claims judged of claims found (a total known once `extract` is done), with the stage and the documents read.
    const progress = new Progress({ label: `research ${name || subjectId}`, noun: 'claims judged', json: values.json, quiet: values.quiet });
    const r = await makeReport(db.pool, subjectId, {
      depth: values.depth as 'quick' | 'standard', topic: normaliseTopic(values.topic), consentRef: values['consent-ref'] ?? null, ...(values.today ? { today: values.today } : {}),
      onProgress: (p) => progress.update(p.claims_judged, { total: p.claims_found > 0 ? p.claims_found : null, detail: `${p.stage}, ${p.documents.toLocaleString('en')} documents` }),
    }).then(
      (done) => (progress.finish({ detail: done.status }), done),
      (err: unknown) => (progress.abandon(), Promise.reject(err)),
    );
    if (r.status !== 'complete') code = 3;
    if (values.json) {
      process.stdout.write(jsonOutput(r));
    } else {
      const byOutcome: Record<string, number> = {};
      for (const c of r.claims) byOutcome[c.outcome] = (byOutcome[c.outcome] ?? 0) + 1;
      process.stdout.write(`${r.subject.name} (${r.subject.kind}, ${r.subject.subject_id}): ${r.status}\n`);
      if (r.status === 'complete') {
        const s = (r.report as { score: { score: number; interval_80: number[]; confidence: string; n_resolved: number } }).score;
        process.stdout.write(`  score ${s.score}, 80% range ${s.interval_80.join('–')}, confidence ${s.confidence}, ${s.n_resolved} resolved claims; machine-generated, unreviewed\n`);
        process.stdout.write(`  report ${r.reportId} stored ${r.generatedAt}\n`);
      } else {
        process.stdout.write(`  ${r.reason}\n`);
      }
      process.stdout.write(`  claims ${r.claims.length}: ${Object.entries(byOutcome).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}\n`);
      if (r.stats) process.stdout.write(`  ${r.stats.documents} documents, ${Math.round(r.stats.ms.total)} ms\n`);
    }
  }
} finally {
  await closePipelinePool();
  await db.close();
}
process.exit(code);
