import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProviderConfig } from '../core/config.ts';
import { UnavailableError } from '../core/errors.ts';
import { recordSpend, spentToday } from '../core/limits/spend.ts';
import { ModelError, modelProvider } from '../core/providers/model/index.ts';
import { configuredPrice } from '../core/providers/model/prices.ts';
import { Verdict, modelHarness } from './helpers/model-harness.ts';
import { openaiReply, startOpenAIServer, type FakeModelServer } from './helpers/model-servers.ts';

// Real SDK, real HTTP, real PostgreSQL: only the far end is ours.
// Shaped like a local server's key (vLLM takes any string), so only the exact-key redaction can catch it.
const KEY = 'local-NEVER-SHOW-0123456789abcdef';
const GOOD = { verdict: 'false', confidence: 0.8 };

const h = modelHarness({ label: 'model_openai', provider: 'openai', start: startOpenAIServer, key: KEY, model: 'test-model', prices: { input: 2, output: 10 } });
const { thrown, cfg, make, ask, spendFor, failure } = h;

describe('OpenAI-compatible model adapter', () => {
  it('is null for MODEL_PROVIDER=none', () => {
    expect(modelProvider({ ...cfg(), provider: 'none' }, { db: h.db.pool, dailySpendLimitUsd: 1 })).toBeNull();
  });

  it('sends the schema as response_format, validates the JSON answer, records spend', async () => {
    h.server.reply(openaiReply.answer(GOOD));
    const m = make();
    expect([m.name, m.model]).toEqual(['openai', 'test-model']);
    const request = ask('judge-a', { maxOutputTokens: 300 });
    await expect(m.complete(request)).resolves.toEqual(GOOD);

    expect(h.server.requests).toHaveLength(1);
    const { headers, body } = h.server.requests[0]!;
    expect(headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(body.model).toBe('test-model');
    expect(body.messages).toEqual([{ role: 'system', content: 'You judge claims.' }, { role: 'user', content: request.prompt }]);
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'judge-a', strict: false } });
    expect(body.response_format.json_schema.schema).toMatchObject({
      type: 'object', required: ['verdict', 'confidence'], properties: { verdict: { enum: ['true', 'false', 'unclear'] } },
    });
    expect(body.response_format.json_schema.schema.$schema).toBeUndefined();
    // A base URL means a compatible server: the limit under the name they all know.
    expect(body.max_tokens).toBe(300);

    expect(await spendFor('judge-a')).toEqual([{ provider: 'openai', input_tokens: 100, output_tokens: 20, amount_usd: 0.0004 }]);
    expect(m.usage()).toEqual({ calls: 1, cacheHits: 0, inputTokens: 100, outputTokens: 20, costUsd: 0.0004 });
  });

  it('calls the model the request names instead of the default (the second judge), and prices the call at that model\'s price', async () => {
    h.server.otherwise(openaiReply.answer(GOOD));
    const m = make({ judgeName: 'judge-model', judgePrice: configuredPrice(1, 5) });
    await m.complete(ask('judge-b', { model: 'judge-model' }));
    expect(h.server.requests[0]!.body.model).toBe('judge-model');
    // 100 input and 20 output tokens: at the judge's 1 and 5 USD, not the first model's 2 and 10.
    expect(await spendFor('judge-b')).toEqual([expect.objectContaining({ input_tokens: 100, output_tokens: 20, amount_usd: 0.0002 })]);
    // Any other model a request names is priced by the same rule: a listed one from the table,
    // even on this loopback server (a local proxy may be paying for it); an unlisted one as local.
    await m.complete(ask('listed', { model: 'gpt-4o-2024-08-06' }));
    expect(await spendFor('listed')).toEqual([expect.objectContaining({ amount_usd: (100 * 2.5 + 20 * 10) / 1e6 })]);
    await m.complete(ask('unlisted', { model: 'llama3.1:8b' }));
    expect(await spendFor('unlisted')).toEqual([expect.objectContaining({ input_tokens: 100, amount_usd: 0 })]);
  });

  it('answers an identical request from the cache: no request, no spend, across instances', async () => {
    h.server.reply(openaiReply.answer(GOOD));
    const request = ask('cache');
    await make().complete(request);
    const again = make();
    await expect(again.complete(request)).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(1);
    expect(await spendFor('cache')).toHaveLength(1);
    expect(again.usage()).toMatchObject({ calls: 0, cacheHits: 1, costUsd: 0 });
    // A different output limit is a different request.
    h.server.reply(openaiReply.answer(GOOD));
    await again.complete({ ...request, maxOutputTokens: 50 });
    expect(h.server.requests).toHaveLength(2);
  });

  it('asks again once with the validation error, and pays for both calls', async () => {
    const bad = { verdict: 'maybe', confidence: 2 };
    h.server.reply(openaiReply.answer(bad), openaiReply.answer(GOOD));
    const m = make();
    const request = ask('extract');
    await expect(m.complete(request)).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(2);
    const messages = h.server.requests[1]!.body.messages;
    expect(messages).toHaveLength(4);
    expect(messages[2]).toEqual({ role: 'assistant', content: JSON.stringify(bad) });
    expect(messages[3].role).toBe('user');
    expect(messages[3].content).toMatch(/does not match the schema/);
    expect(messages[3].content).toMatch(/verdict/);
    expect(messages[3].content).toMatch(/confidence/);
    expect(await spendFor('extract')).toHaveLength(2);
    expect(m.usage()).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 40 });
  });

  it('throws ModelError when the second answer is invalid too, and caches nothing', async () => {
    h.server.reply(openaiReply.answer({ verdict: 'maybe' }), openaiReply.answer({ verdict: 'perhaps' }));
    const request = ask('criteria');
    const err = await failure(make().complete(request), ModelError);
    expect(err.kind).toBe('invalid-answer');
    expect(err.message).toMatch(/"criteria"/);
    expect(err.message).toMatch(/does not match the schema/);
    expect(err.message).not.toMatch(/SECRET-PROMPT-TEXT|perhaps/);
    expect(await spendFor('criteria')).toHaveLength(2);
    h.server.reply(openaiReply.answer(GOOD));
    await expect(make().complete(request)).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(3);
  });

  it('still returns a valid answer that jsonb cannot store (a NUL character), uncached', async () => {
    const Text = z.object({ text: z.string() });
    h.server.otherwise(openaiReply.answer({ text: 'a\u0000b' }));
    const request = { purpose: 'nul', system: 's', prompt: `nul ${h.unique()}`, schema: Text };
    await expect(make().complete(request)).resolves.toEqual({ text: 'a\u0000b' });
    await expect(make().complete(request)).resolves.toEqual({ text: 'a\u0000b' });
    expect(h.server.requests).toHaveLength(2);
  });

  it('treats malformed JSON as invalid, and forgives a ```json fence', async () => {
    h.server.reply(openaiReply.answer('{"verdict": "false", conf'), openaiReply.answer(`\`\`\`json\n${JSON.stringify(GOOD)}\n\`\`\``));
    await expect(make().complete(ask('malformed'))).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(2);
    expect(h.server.requests[1]!.body.messages[3].content).toMatch(/not valid JSON/);
  });

  it('treats refusals and empty answers as invalid', async () => {
    h.server.reply(openaiReply.refusal(), openaiReply.answer(''));
    const err = await failure(make().complete(ask('refused')), ModelError);
    expect(err.message).toMatch(/empty/);
    expect(h.server.requests[1]!.body.messages[3].content).toMatch(/refused/);
  });

  it('waits as a 429 Retry-After says, then succeeds', async () => {
    h.server.reply(openaiReply.error(429, 'Rate limit reached', { type: 'rate_limit_error', headers: { 'retry-after': '1' } }), openaiReply.answer(GOOD));
    const started = Date.now();
    await expect(make().complete(ask('rate'))).resolves.toEqual(GOOD);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(h.server.requests).toHaveLength(2);
    expect(await spendFor('rate')).toHaveLength(1);
  });

  it('retries a 500, then succeeds', async () => {
    h.server.reply(openaiReply.error(500, 'The server had an error'), openaiReply.answer(GOOD));
    await expect(make().complete(ask('flaky'))).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(2);
  });

  it('gives up on a persistent 500 after maxRetries + 1 requests, with the status', async () => {
    h.server.otherwise(openaiReply.error(500, 'The server had an error'));
    // 1, not the SDK's default of 2: the setting must reach the SDK.
    const err = await failure(make({ maxRetries: 1 }).complete(ask('down')), ModelError);
    expect(h.server.requests).toHaveLength(2);
    expect(err).toMatchObject({ kind: 'http', status: 500, purpose: 'down' });
    expect(err.message).toMatch(/HTTP 500.*\(after 1 retry\)$/);
    expect(await spendFor('down')).toHaveLength(0);
  });

  it('gives up on a server that never answers within about timeoutMs', async () => {
    h.server.otherwise({ hang: true });
    const started = Date.now();
    const err = await failure(make({ timeoutMs: 300, maxRetries: 0 }).complete(ask('hang')), ModelError);
    const elapsed = Date.now() - started;
    expect(err.kind).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3_000);
    expect(h.server.requests).toHaveLength(1);
  });

  it('sends nothing once the day’s spend has reached the ceiling', async () => {
    await recordSpend(h.db.pool, { provider: 'other', purpose: 'elsewhere', amountUsd: 5 });
    const err = await failure(make({}, 1).complete(ask('ceiling')), UnavailableError);
    expect(err).toMatchObject({ status: 503, code: 'spend-limit' });
    expect(h.server.requests).toHaveLength(0);
  });

  it('checks the ceiling before the correction too', async () => {
    // The first (invalid) answer costs 1 USD and crosses a ceiling set just above today's spend.
    const limit = (await spentToday(h.db.pool)) + 0.5;
    h.server.reply(openaiReply.answer({ verdict: 'maybe' }, { usage: { prompt_tokens: 100, completion_tokens: 0 } }));
    await failure(make({ price: configuredPrice(10_000, 10) }, limit).complete(ask('ceiling-2')), UnavailableError);
    expect(h.server.requests).toHaveLength(1);
    expect(await spendFor('ceiling-2')).toEqual([expect.objectContaining({ amount_usd: 1 })]);
  });

  it('keeps at most `concurrency` calls in flight', async () => {
    h.server.otherwise(openaiReply.answer(GOOD, { delayMs: 150 }));
    const m = make({ concurrency: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => m.complete(ask('parallel'))));
    expect(answers).toEqual(Array(6).fill(GOOD));
    expect(h.server.requests).toHaveLength(6);
    expect(h.server.maxInFlight).toBe(2);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    h.server.reply(openaiReply.error(401, `Incorrect API key provided: ${KEY}. You can find your API key at ...`, { type: 'invalid_request_error', code: 'invalid_api_key' }));
    const err = await failure(make().complete(ask('auth')), ModelError);
    expect(err).toMatchObject({ kind: 'http', status: 401 });
    expect(err.message).toMatch(/HTTP 401 \(invalid_request_error\)/);
    expect(h.server.requests).toHaveLength(1); // 401 is not retried
    for (const e of thrown) {
      expect(e).toBeInstanceOf(Error);
      const text = `${(e as Error).message}\n${(e as Error).stack}\n${JSON.stringify(e)}`;
      expect(text).not.toContain(KEY);
      expect(text).not.toContain('NEVER-SHOW');
    }
    expect(thrown.length).toBeGreaterThanOrEqual(7);
  });

  it('works with a local server that needs no key, sending a placeholder that is plainly not one', async () => {
    h.server.reply(openaiReply.answer(GOOD, { usage: null }));
    const m = make({ apiKey: undefined, price: configuredPrice(0, 0) });
    await expect(m.complete(ask('local'))).resolves.toEqual(GOOD);
    expect(h.server.requests[0]!.headers['authorization']).toBe('Bearer no-key-configured');
    // No usage reported: a call is counted, nothing is recorded as spend.
    expect(m.usage()).toMatchObject({ calls: 1, inputTokens: 0 });
    expect(await spendFor('local')).toHaveLength(0);
  });

  it('an ephemeral request (text sent to be checked) neither reads from nor writes to the cache', async () => {
    h.server.otherwise(openaiReply.answer(GOOD));
    const request = { ...ask('ephemeral'), ephemeral: true };
    await make().complete(request);
    await make().complete(request);
    expect(h.server.requests).toHaveLength(2);
    const stored = await h.db.pool.query(`SELECT count(*)::int AS n FROM model_cache WHERE purpose = 'ephemeral'`);
    expect(stored.rows[0].n).toBe(0);
    // The same request not marked so is cached: one more call, then a hit.
    await make().complete({ ...request, ephemeral: false });
    await make().complete({ ...request, ephemeral: false });
    expect(h.server.requests).toHaveLength(3);
  });

});
