import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { figures } from '../core/eval/measure.ts';
import { runEval, type EvalResult } from '../jobs/eval.ts';

// The benchmark (bench/dev and bench/heldout, invented packs with gold files) measured as `npm run eval`
// measures it, held to the figures last published (bench/published.json, written by `npm run eval --
// --part all --publish`): a change that lowers any of them fails here, so that no later change lowers
// the method's measured quality unnoticed. Only aggregate figures are printed, so that the held-out
// part stays a test the method is not tuned on.

const ROOT = path.resolve(import.meta.dirname, '..');
const published = JSON.parse(readFileSync(path.join(ROOT, 'bench', 'published.json'), 'utf8')) as {
  method_version: string;
  parts: Record<string, ReturnType<typeof figures>>;
};
const packsIn = (part: string) =>
  readdirSync(path.join(ROOT, 'bench', part)).filter((f) => f.endsWith('.jsonl') && !f.endsWith('.gold.jsonl')).sort().map((f) => ({ file: path.join(ROOT, 'bench', part, f), part }));

describe('the benchmark does not fall below its published figures', () => {
  let result: EvalResult;
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('measures every pack of both parts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-test-'));
    dirs.push(dir);
    result = await runEval([...packsIn('dev'), ...packsIn('heldout')], { dataDir: dir, serverUrl: inject('pgUrl') });
    expect(result.packs.length).toBeGreaterThanOrEqual(12);
    expect(result.total.gold_claims).toBeGreaterThanOrEqual(250);
    expect(result.total.gold_non_claims).toBeGreaterThanOrEqual(80);
  }, 300_000);

  it.each(['dev', 'heldout'])('%s part: found, type, outcome side and coverage no lower; false extractions and wrong verdicts no higher', (part) => {
    const now = figures(result.byPart[part]!);
    const was = published.parts[part]!;
    console.info(`${part}: side ${now.side_right?.toFixed(3)} (published ${was.side_right?.toFixed(3)}), found ${now.found?.toFixed(3)}, type ${now.type_right?.toFixed(3)}, coverage ${now.coverage?.toFixed(3)}, wrong of resolved ${now.wrong_of_resolved?.toFixed(3)}, false extractions ${now.false_extractions?.toFixed(3)}`);
    const eps = 1e-9;
    expect(now.side_right!).toBeGreaterThanOrEqual(was.side_right! - eps);
    expect(now.found!).toBeGreaterThanOrEqual(was.found! - eps);
    expect(now.type_right!).toBeGreaterThanOrEqual(was.type_right! - eps);
    expect(now.coverage!).toBeGreaterThanOrEqual(was.coverage! - eps);
    expect(now.wrong_of_resolved!).toBeLessThanOrEqual(was.wrong_of_resolved! + eps);
    expect(now.false_extractions!).toBeLessThanOrEqual(was.false_extractions! + eps);
  });

  it('no evidence marked independent that the pack shows is the subject\'s own, and every verified quote verbatim', () => {
    expect(result.total.wrongly_independent).toBe(0);
    expect(result.total.non_verbatim_verified).toBe(0);
  });
});
