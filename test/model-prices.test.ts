import { mkdtemp, rm, chmod } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE, PRICE_TABLE_DATE } from '../core/providers/model/prices.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { openaiReply, startOpenAIServer, type FakeModelServer } from './helpers/model-servers.ts';
import { keyCommand, postgresPidsFor, startService, stopService, type Service } from './helpers/process.ts';

/**
 * Issue #14, item 2: the four variables a user expects to be enough
 * (MODEL_PROVIDER, MODEL_BASE_URL, MODEL_API_KEY, MODEL_NAME) start the
 * service; every call is still counted at a price, and GET /v1/status says
 * which price and where it came from.
 */

let server: FakeModelServer;
const apps: TestApp[] = [];
const four = (name: string, extra: Record<string, string> = {}) => ({
  MODEL_PROVIDER: 'openai', MODEL_BASE_URL: server.url, MODEL_API_KEY: 'sk-loopback-test-0123456789', MODEL_NAME: name, ...extra,
});

beforeAll(async () => {
  server = await startOpenAIServer();
  // resolve's identification call, for a name nothing else knows; 100 input and 20 output tokens.
  server.otherwise(openaiReply.answer({ identified: true, kind: 'organisation', public_figure: true, serving_politician: false, description: null }));
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await server?.close();
});

async function app(env: Record<string, string>, label: string) {
  const t = await startTestApp(env, label);
  apps.push(t);
  return { t, headers: bearer(await t.key()) };
}

const status = async (t: TestApp, headers: Record<string, string>) => {
  const res = await t.app.inject({ method: 'GET', url: '/v1/status', headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe('model prices in force', () => {
  it('starts with only the four variables on a local server, counts its calls at 0, and says the price is local', async () => {
    const { t, headers } = await app(four('llama3.1:8b'), 'price_local');
    expect((await status(t, headers)).model_price).toEqual({
      model: { model: 'llama3.1:8b', input_per_mtok: 0, output_per_mtok: 0, currency: 'USD', source: 'local', table_date: null },
      judge: null,
    });
    // The model is really called, and its tokens recorded at that price.
    const before = server.requests.length;
    const res = await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers, payload: { name: 'Harlow Quay Ferries' } });
    expect(res.statusCode).toBe(200);
    expect(server.requests.length).toBe(before + 1);
    const { rows } = await t.db.pool.query(`SELECT input_tokens, amount_usd FROM spend_ledger WHERE purpose = 'identify'`);
    expect(rows).toEqual([{ input_tokens: 100, amount_usd: 0 }]);
  });

  it('prices a listed model from the dated table, and a second judge model by its own variables; spend follows the price shown', async () => {
    const { t, headers } = await app(four('gpt-4o-mini', { MODEL_JUDGE_NAME: 'judge-8b', MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '0.5', MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK: '1.5' }), 'price_table');
    const shown = (await status(t, headers)).model_price;
    expect(shown).toEqual({
      model: { model: 'gpt-4o-mini', input_per_mtok: 0.15, output_per_mtok: 0.6, currency: 'USD', source: 'table', table_date: PRICE_TABLE_DATE },
      judge: { model: 'judge-8b', input_per_mtok: 0.5, output_per_mtok: 1.5, currency: 'USD', source: 'configured', table_date: null },
    });
    await t.app.inject({ method: 'POST', url: '/v1/subjects/resolve', headers, payload: { name: 'Orrin Vale Waterworks' } });
    const spent = (await status(t, headers)).spend.spent_usd;
    expect(spent).toBeCloseTo((100 * shown.model.input_per_mtok + 20 * shown.model.output_per_mtok) / 1e6, 9);
    expect(spent).toBeGreaterThan(0);
  });

  it('shows configured prices as configured, and no price without a model', async () => {
    const configured = await app(four('gpt-4o', { MODEL_PRICE_INPUT_PER_MTOK: '1', MODEL_PRICE_OUTPUT_PER_MTOK: '2' }), 'price_configured');
    expect((await status(configured.t, configured.headers)).model_price.model).toEqual(
      { model: 'gpt-4o', input_per_mtok: 1, output_per_mtok: 2, currency: 'USD', source: 'configured', table_date: null },
    );
    const offline = await app({}, 'price_none');
    expect((await status(offline.t, offline.headers)).model_price).toBeNull();
  });

  it('describes the field in the OpenAPI document', async () => {
    const { t } = await app({}, 'price_openapi');
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const statusSchema = doc.components.schemas.Status;
    expect(statusSchema.required).toContain('model_price');
    expect(JSON.stringify(statusSchema.properties.model_price)).toContain('#/components/schemas/ModelPrice');
    const price = doc.components.schemas.ModelPrice;
    expect(price.properties.source.enum).toEqual(['configured', 'table', 'local', 'default']);
    expect(price.properties.currency).toMatchObject({ const: 'USD' });
    for (const [name, field] of Object.entries(price.properties as Record<string, { description?: string }>)) expect(field.description, name).toBeTruthy();
  });
});

describe('the service as npm start runs it, with only the four variables and a model no table knows', () => {
  let dataDir: string;
  let service: Service | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'rss-price-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    if (service) await stopService(service, 'SIGKILL');
    for (const pid of await postgresPidsFor(path.join(dataDir, 'pg'))) process.kill(pid, 'SIGINT');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts, warns once naming the variables that set the price, and shows the default in force', async () => {
    const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOAD_SAMPLE_PACK: 'false' };
    const key = (await keyCommand(['create', 'price-reader'], env)).stdout.trim();
    // A hosted endpoint that is never called here (no job runs): only the start is under test.
    const model = { MODEL_PROVIDER: 'openai', MODEL_BASE_URL: 'https://models.example.com/v1', MODEL_API_KEY: 'sk-start-test-0123456789abcdef', MODEL_NAME: 'mystery-70b' };
    service = await startService({ ...env, ...model, LOG_LEVEL: 'warn' });
    const res = await fetch(`${service.url}/v1/status`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { model_price: unknown }).model_price).toEqual({
      model: { model: 'mystery-70b', input_per_mtok: DEFAULT_PRICE.inputPerMTok, output_per_mtok: DEFAULT_PRICE.outputPerMTok, currency: 'USD', source: 'default', table_date: null },
      judge: null,
    });
    expect(await stopService(service)).toBe(0);
    const lines = service.stderr().split('\n').filter((l) => l.includes('MODEL_PRICE_INPUT_PER_MTOK'));
    service = undefined;
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: number; msg: string };
    expect(line.level).toBe(40); // pino's warn
    expect(line.msg).toMatch(/"mystery-70b".*MODEL_PRICE_INPUT_PER_MTOK and MODEL_PRICE_OUTPUT_PER_MTOK/);
    expect(line.msg).not.toContain(model.MODEL_API_KEY);
  }, 120_000);
});
