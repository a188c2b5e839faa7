import { spawnSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../core/config.ts';
import { modelProviders, runEval, type EvalResult } from '../jobs/eval.ts';
import { startSimulatedWeb, type SimulatedWeb } from './helpers/simulated-web.ts';

// `npm run eval -- --model`: the configured model on the packs' own corpus,
// measured against the same gold as the offline engine, its calls and cost read
// from each pack's spend ledger. The model is the simulated web's loopback
// OpenAI-compatible stand-in (test/helpers/simulated-web.ts), which answers each
// stage by its json_schema name; a purpose it does not know gets
// {"error": "unexpected purpose …"}, which fails the stage's schema and so the
// eval: the test checks only that the eval completes and that calls are counted
// and costed, not what the stand-in's verdicts score.

const ROOT = path.resolve(import.meta.dirname, '..');
const KNOWN_PURPOSES = ['extract', 'criteria', 'judge-a', 'judge-b', 'identify'];
// Every simulated answer reports 400 input and 60 output tokens; priced below at 3 and 15 USD per million.
const COST_PER_CALL = (400 * 3 + 60 * 15) / 1e6;

let web: SimulatedWeb;
let dir: string;
let pack: string;

beforeAll(async () => {
  web = await startSimulatedWeb();
  dir = await mkdtemp(path.join(os.tmpdir(), 'eval-model-test-'));
  pack = path.join(dir, 'minimal-pack.jsonl');
  copyFileSync(path.join(ROOT, 'test', 'fixtures', 'minimal-pack.jsonl'), pack);
  writeFileSync(path.join(dir, 'minimal-pack.gold.jsonl'), [
    { record: 'eval', today: '2026-06-30', field: 'utility', author: 'test' },
    { record: 'claim', subject: 'Harrowgate Water', url: 'https://harrowgate-water.example/news/leaks', quote: 'Harrowgate Water cut leakage by 9% in 2024', claim_type: 'factual', outcome: 'mostly_true', phenomena: ['figure_alignment'] },
    { record: 'claim', subject: 'Harrowgate Water', url: 'https://harrowgate-water.example/news/leaks', quote: 'We will replace 400 km of mains by the end of 2026', claim_type: 'promise', outcome: 'pending', due: '2026-12-31', phenomena: ['pending'] },
  ].map((r) => JSON.stringify(r)).join('\n') + '\n');
});

afterAll(async () => {
  await web?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const modelEnv = () => ({
  MODEL_PROVIDER: 'openai', MODEL_BASE_URL: web.model.url, MODEL_API_KEY: 'sk-simulated-test-key', MODEL_NAME: 'simulated-model',
  MODEL_PRICE_INPUT_PER_MTOK: '3', MODEL_PRICE_OUTPUT_PER_MTOK: '15',
  MODEL_JUDGE_NAME: 'simulated-judge', MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '3', MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK: '15',
});

describe('npm run eval -- --model', () => {
  it('is refused, exit 2, when no model is configured', () => {
    expect(modelProviders(loadConfig({}))).toBeNull();
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('MODEL_')));
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'eval.ts'), pack, '--model'], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--model: no model is configured/);
  });

  let offline: EvalResult;
  let withModel: EvalResult;

  it('the offline engine makes no model calls', async () => {
    offline = await runEval([{ file: pack, part: 'other' }], { dataDir: dir, serverUrl: inject('pgUrl') });
    expect(offline.packs.map((p) => p.name)).toEqual(['minimal-pack']);
    expect(offline.spend).toEqual({ calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 });
  });

  it('measures the configured model on the same pack and gold, and counts its calls and cost', async () => {
    {
      const providers = modelProviders(loadConfig(modelEnv()));
      expect(providers).not.toBeNull();
      withModel = await runEval([{ file: pack, part: 'other' }], { dataDir: dir, serverUrl: inject('pgUrl'), providers: providers! });
      const requests = web.model.requests;
      const purposes = requests.map((r) => String(r.body?.response_format?.json_schema?.name));
      expect(purposes.filter((p) => !KNOWN_PURPOSES.includes(p))).toEqual([]);
      // The pack reported, measured against its gold.
      expect(withModel.packs.map((p) => p.name)).toEqual(['minimal-pack']);
      expect(withModel.total.gold_claims).toBe(2);
      expect(withModel.packs[0]!.runs.map((r) => r.status)).toEqual(offline.packs[0]!.runs.map((r) => r.status));
      // The model was called, and every call the server answered is counted and costed from the spend ledger.
      expect(purposes).toContain('extract');
      expect(withModel.spend.calls).toBeGreaterThan(0);
      expect(withModel.spend.calls).toBe(requests.length);
      expect(withModel.packs[0]!.spend).toEqual(withModel.spend);
      expect(withModel.spend.input_tokens).toBe(400 * requests.length);
      expect(withModel.spend.output_tokens).toBe(60 * requests.length);
      expect(withModel.spend.cost_usd).toBeCloseTo(COST_PER_CALL * requests.length, 6);
      // Both judges were asked, the second one its own model (MODEL_JUDGE_NAME).
      const modelFor = (purpose: string) => requests.filter((r) => r.body?.response_format?.json_schema?.name === purpose).map((r) => r.body.model);
      expect(modelFor('judge-a').length).toBeGreaterThan(0);
      expect(new Set(modelFor('judge-a'))).toEqual(new Set(['simulated-model']));
      expect(new Set(modelFor('judge-b'))).toEqual(new Set(['simulated-judge']));
      // No web search, fetch or fact-check was asked for: the corpus is the pack's.
      expect(web.search.requests.length + web.factChecks.requests.length).toBe(0);
    }
  });
});
