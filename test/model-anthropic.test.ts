import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProviderConfig } from '../core/config.ts';
import { UnavailableError } from '../core/errors.ts';
import { recordSpend, spentToday } from '../core/limits/spend.ts';
import { ModelError, modelProvider } from '../core/providers/model/index.ts';
import { configuredPrice } from '../core/providers/model/prices.ts';
import { Verdict, modelHarness } from './helpers/model-harness.ts';
import { anthropicReply, startAnthropicServer, type FakeModelServer } from './helpers/model-servers.ts';

// Real SDK, real HTTP, real PostgreSQL: only the far end is ours.
const KEY = 'sk-ant-test-NEVER-SHOW-0123456789abcdef';
const GOOD = { verdict: 'true', confidence: 0.6 };

const h = modelHarness({ label: 'model_anthropic', provider: 'anthropic', start: startAnthropicServer, key: KEY, model: 'test-claude', prices: { input: 3, output: 15 } });
const { thrown, cfg, make, ask, spendFor, failure } = h;

describe('Anthropic model adapter', () => {
  it('forces the answer tool, reads its input, records spend', async () => {
    h.server.reply(anthropicReply.answer(GOOD));
    const m = make();
    expect([m.name, m.model]).toEqual(['anthropic', 'test-claude']);
    const request = ask('judge-a');
    await expect(m.complete(request)).resolves.toEqual(GOOD);

    expect(h.server.requests).toHaveLength(1);
    const { headers, body } = h.server.requests[0]!;
    // This SDK version (1.10) sends the key as a bearer token, not X-Api-Key.
    expect(headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(headers['anthropic-version']).toBeTruthy();
    expect(body).toMatchObject({
      model: 'test-claude',
      max_tokens: 2048,
      system: 'You judge claims.',
      messages: [{ role: 'user', content: request.prompt }],
      tool_choice: { type: 'tool', name: 'answer' },
    });
    expect(body.tools).toHaveLength(1);
    expect(body.tools[0]).toMatchObject({
      name: 'answer',
      input_schema: { type: 'object', required: ['verdict', 'confidence'], properties: { verdict: { enum: ['true', 'false', 'unclear'] } } },
    });
    // (100 × 3 + 20 × 15) / 1e6
    expect(await spendFor('judge-a')).toEqual([{ provider: 'anthropic', input_tokens: 100, output_tokens: 20, amount_usd: 0.0006 }]);
    expect(m.usage()).toEqual({ calls: 1, cacheHits: 0, inputTokens: 100, outputTokens: 20, costUsd: 0.0006 });
  });

  it('uses the request’s model and output limit', async () => {
    h.server.reply(anthropicReply.answer(GOOD));
    await make().complete(ask('judge-b', { model: 'judge-claude', maxOutputTokens: 512 }));
    expect(h.server.requests[0]!.body).toMatchObject({ model: 'judge-claude', max_tokens: 512 });
  });

  it('wraps an answer that is not an object in { value } and unwraps it', async () => {
    h.server.reply(anthropicReply.answer({ value: ['a', 'b'] }));
    const answer = await make().complete({ purpose: 'list', system: 's', prompt: `list ${h.unique()}`, schema: z.array(z.string()) });
    expect(answer).toEqual(['a', 'b']);
    expect(h.server.requests[0]!.body.tools[0].input_schema).toMatchObject({
      type: 'object', required: ['value'], properties: { value: { type: 'array', items: { type: 'string' } } },
    });
  });

  it('answers an identical request from the cache: no request, no spend, across instances', async () => {
    h.server.reply(anthropicReply.answer(GOOD));
    const request = ask('cache');
    await make().complete(request);
    const again = make();
    await expect(again.complete(request)).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(1);
    expect(await spendFor('cache')).toHaveLength(1);
    expect(again.usage()).toMatchObject({ calls: 0, cacheHits: 1, costUsd: 0 });
    const { rows } = await h.db.pool.query('SELECT provider, model, purpose, answer, input_tokens, output_tokens FROM model_cache WHERE purpose = $1', ['cache']);
    expect(rows).toEqual([{ provider: 'anthropic', model: 'test-claude', purpose: 'cache', answer: GOOD, input_tokens: 100, output_tokens: 20 }]);
  });

  it('asks again with a tool_result carrying the validation error, and pays for both calls', async () => {
    const bad = { verdict: 'maybe', confidence: 2 };
    h.server.reply(anthropicReply.answer(bad), anthropicReply.answer(GOOD));
    await expect(make().complete(ask('extract'))).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(2);
    const messages = h.server.requests[1]!.body.messages;
    expect(messages).toHaveLength(3);
    const toolUse = messages[1].content[0];
    expect(messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'tool_use', name: 'answer', input: bad }] });
    expect(messages[2].role).toBe('user');
    expect(messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: toolUse.id, is_error: true, content: expect.stringMatching(/does not match the schema.*verdict.*confidence/) },
    ]);
    expect(await spendFor('extract')).toHaveLength(2);
  });

  it('throws ModelError when the second answer is invalid too, and caches nothing', async () => {
    h.server.reply(anthropicReply.answer({ verdict: 'maybe' }), anthropicReply.answer({ verdict: 'perhaps' }));
    const request = ask('criteria');
    const err = await failure(make().complete(request), ModelError);
    expect(err.kind).toBe('invalid-answer');
    expect(err.message).toMatch(/"criteria".*does not match the schema/);
    expect(err.message).not.toMatch(/SECRET-PROMPT-TEXT|perhaps/);
    expect(await spendFor('criteria')).toHaveLength(2);
    h.server.reply(anthropicReply.answer(GOOD));
    await expect(make().complete(request)).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(3);
  });

  it('treats a text answer without the tool, and a refusal, as invalid', async () => {
    h.server.reply(anthropicReply.text('{"verdict": "true"'), anthropicReply.text('', { stopReason: 'refusal' }));
    const err = await failure(make().complete(ask('no-tool')), ModelError);
    expect(err.message).toMatch(/refused/);
    const messages = h.server.requests[1]!.body.messages;
    // No tool_use to answer: the text is replayed and the correction is a plain user turn.
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '{"verdict": "true"' }] });
    expect(messages[2]).toEqual({ role: 'user', content: expect.stringMatching(/did not use the answer tool/) });
  });

  it('treats a tool input that is malformed JSON as invalid', async () => {
    h.server.reply(anthropicReply.answer('{"verdict": tru'), anthropicReply.answer(GOOD));
    await expect(make().complete(ask('malformed'))).resolves.toEqual(GOOD);
    expect(h.server.requests[1]!.body.messages[2].content[0].content).toMatch(/not valid JSON/);
  });

  it('waits as a 429 Retry-After says, then succeeds', async () => {
    h.server.reply(anthropicReply.error(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit', { headers: { 'retry-after': '1' } }), anthropicReply.answer(GOOD));
    const started = Date.now();
    await expect(make().complete(ask('rate'))).resolves.toEqual(GOOD);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(h.server.requests).toHaveLength(2);
  });

  it('retries a 500, then succeeds', async () => {
    h.server.reply(anthropicReply.error(500, 'api_error', 'Internal server error'), anthropicReply.answer(GOOD));
    await expect(make().complete(ask('flaky'))).resolves.toEqual(GOOD);
    expect(h.server.requests).toHaveLength(2);
  });

  it('gives up on a persistent overload after maxRetries + 1 requests, with the status', async () => {
    h.server.otherwise(anthropicReply.error(529, 'overloaded_error', 'Overloaded'));
    // 3, not the SDK's default of 2: the setting must reach the SDK.
    const err = await failure(make({ maxRetries: 3 }).complete(ask('down')), ModelError);
    expect(h.server.requests).toHaveLength(4);
    expect(err).toMatchObject({ kind: 'http', status: 529 });
    expect(err.message).toMatch(/HTTP 529 \(overloaded_error\): Overloaded \(after 3 retries\)$/);
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

  it('sends nothing once the day’s spend has reached the ceiling, correction included', async () => {
    await recordSpend(h.db.pool, { provider: 'other', purpose: 'elsewhere', amountUsd: 5 });
    const err = await failure(make({}, 1).complete(ask('ceiling')), UnavailableError);
    expect(err).toMatchObject({ status: 503, code: 'spend-limit' });
    expect(h.server.requests).toHaveLength(0);

    const limit = (await spentToday(h.db.pool)) + 0.5;
    h.server.reply(anthropicReply.answer({ verdict: 'maybe' }, { usage: { input_tokens: 100, output_tokens: 0 } }));
    await failure(make({ price: configuredPrice(10_000, 15) }, limit).complete(ask('ceiling-2')), UnavailableError);
    expect(h.server.requests).toHaveLength(1);
  });

  it('keeps at most `concurrency` calls in flight', async () => {
    h.server.otherwise(anthropicReply.answer(GOOD, { delayMs: 150 }));
    const m = make({ concurrency: 2 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => m.complete(ask('parallel'))));
    expect(answers).toEqual(Array(6).fill(GOOD));
    expect(h.server.requests).toHaveLength(6);
    expect(h.server.maxInFlight).toBe(2);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    // The key cut short: not the exact string, so only the key-shaped pattern can catch it.
    h.server.reply(anthropicReply.error(401, 'authentication_error', `invalid x-api-key: ${KEY.slice(0, -4)}…`));
    const err = await failure(make().complete(ask('auth')), ModelError);
    expect(err).toMatchObject({ kind: 'http', status: 401 });
    expect(err.message).toMatch(/HTTP 401 \(authentication_error\)/);
    expect(h.server.requests).toHaveLength(1);
    for (const e of thrown) {
      const text = `${(e as Error).message}\n${(e as Error).stack}\n${JSON.stringify(e)}`;
      expect(text).not.toContain(KEY.slice(0, -4));
      expect(text).not.toContain('NEVER-SHOW');
    }
    expect(thrown.length).toBeGreaterThanOrEqual(6);
  });
});
