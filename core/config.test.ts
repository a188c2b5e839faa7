import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.ts';
import { DEFAULT_PRICE, PRICE_TABLE_DATE } from './providers/model/prices.ts';

describe('config', () => {
  it('has the spec\'s limits and the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      role: 'all',
      rateLimitPerMinute: 60,
      dailyJobLimit: 20,
      bodyLimitBytes: 256 * 1024,
      dailySpendLimitUsd: 10,
      rateLimitStore: 'memory',
      databaseUrl: undefined,
    });
    expect(c.dataDir).toMatch(/\.data$/);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads every limit from the environment', () => {
    const c = loadConfig({ RATE_LIMIT_PER_MINUTE: '5', DAILY_JOB_LIMIT: '2', DAILY_SPEND_LIMIT_USD: '0.5', BODY_LIMIT_BYTES: '4096' });
    expect(c).toMatchObject({ rateLimitPerMinute: 5, dailyJobLimit: 2, dailySpendLimitUsd: 0.5, bodyLimitBytes: 4096 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ ROLE: 'boss' }, 'ROLE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ DAILY_SPEND_LIMIT_USD: '-1' }, 'DAILY_SPEND_LIMIT_USD'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ ROLE: 'api' }, 'DATABASE_URL'],
    [{ MODEL_PROVIDER: 'gpt' }, 'MODEL_PROVIDER'],
    [{ MODEL_PROVIDER: 'openai', MODEL_API_KEY: 'k', MODEL_PRICE_INPUT_PER_MTOK: '1', MODEL_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_NAME'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_PRICE_INPUT_PER_MTOK: '1', MODEL_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_API_KEY'],
    [{ MODEL_PROVIDER: 'anthropic', MODEL_NAME: 'm', MODEL_BASE_URL: 'http://127.0.0.1:1', MODEL_PRICE_INPUT_PER_MTOK: '1', MODEL_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_API_KEY'],
    // Half a price is a mistake: both variables or neither.
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_API_KEY: 'k', MODEL_PRICE_OUTPUT_PER_MTOK: '1' }, 'but MODEL_PRICE_INPUT_PER_MTOK is not'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_API_KEY: 'k', MODEL_PRICE_INPUT_PER_MTOK: '1' }, 'but MODEL_PRICE_OUTPUT_PER_MTOK is not'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_API_KEY: 'k', MODEL_PRICE_INPUT_PER_MTOK: '-1', MODEL_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_PRICE_INPUT_PER_MTOK'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_JUDGE_NAME: 'j', MODEL_API_KEY: 'k', MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '1' }, 'but MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK is not'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_API_KEY: 'k', MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '1', MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_JUDGE_NAME, which is not set'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_JUDGE_NAME: 'm', MODEL_API_KEY: 'k', MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '1', MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_JUDGE_NAME is MODEL_NAME'],
    [{ MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '1' }, 'MODEL_JUDGE_PRICE_INPUT_PER_MTOK is set but MODEL_PROVIDER is none'],
    [{ MODEL_NAME: 'm' }, 'MODEL_NAME'],
    [{ MODEL_BASE_URL: 'ftp://x' }, 'MODEL_BASE_URL'],
    [{ SEARCH_PROVIDER: 'brave' }, 'SEARCH_API_KEY'],
    [{ SEARCH_PROVIDER: 'searxng' }, 'SEARCH_BASE_URL'],
    [{ SEARCH_API_KEY: 'k' }, 'SEARCH_PROVIDER'],
    [{ KNOWLEDGE_PROVIDER: 'dbpedia' }, 'KNOWLEDGE_PROVIDER'],
    [{ FETCH_ALLOW_CIDRS: 'localhost' }, 'FETCH_ALLOW_CIDRS'],
  ])('refuses %o, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
  });

  it('reads the hosted providers, and never puts a key into an error message', () => {
    const c = loadConfig({
      MODEL_PROVIDER: 'openai', MODEL_BASE_URL: 'http://127.0.0.1:11434/v1/', MODEL_NAME: 'm', MODEL_PRICE_INPUT_PER_MTOK: '0', MODEL_PRICE_OUTPUT_PER_MTOK: '0',
      SEARCH_PROVIDER: 'searxng', SEARCH_BASE_URL: 'http://127.0.0.1:8888', KNOWLEDGE_PROVIDER: 'wikidata', FETCH_ALLOW_CIDRS: '127.0.0.0/8, ::1/128',
    });
    expect(c.providers.model).toMatchObject({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, name: 'm', price: { inputPerMTok: 0, source: 'configured' } });
    expect(c.providers.search).toMatchObject({ provider: 'searxng', baseUrl: 'http://127.0.0.1:8888' });
    expect(c.providers.knowledge.provider).toBe('wikidata');
    expect(c.providers.fetch.allowCidrs).toEqual(['127.0.0.0/8', '::1/128']);
    expect(loadConfig({}).providers.model.provider).toBe('none');
    let message = '';
    try {
      loadConfig({ MODEL_PROVIDER: 'anthropic', MODEL_API_KEY: 'sk-secret-123', MODEL_PRICE_INPUT_PER_MTOK: '3', MODEL_PRICE_OUTPUT_PER_MTOK: '15' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/MODEL_NAME/);
    expect(message).not.toContain('sk-secret-123');
  });

  describe('model prices', () => {
    // The four variables a user expects to be enough (issue #14).
    const hosted = { MODEL_PROVIDER: 'openai', MODEL_API_KEY: 'sk-test-key-0123456789', MODEL_BASE_URL: 'https://api.models.example/v1' };
    const usd = (inputPerMTok: number, outputPerMTok: number, source: string, tableDate: string | null = null) =>
      ({ inputPerMTok, outputPerMTok, currency: 'USD', source, tableDate });

    it('takes the configured variables over everything else, the table included', () => {
      const c = loadConfig({ ...hosted, MODEL_NAME: 'gpt-4o', MODEL_PRICE_INPUT_PER_MTOK: '1.5', MODEL_PRICE_OUTPUT_PER_MTOK: '6' });
      expect(c.providers.model.price).toEqual(usd(1.5, 6, 'configured'));
      // 0 is a price like any other (a free local model), not "unset".
      const free = loadConfig({ ...hosted, MODEL_NAME: 'mystery', MODEL_PRICE_INPUT_PER_MTOK: '0', MODEL_PRICE_OUTPUT_PER_MTOK: '0' });
      expect(free.providers.model.price).toEqual(usd(0, 0, 'configured'));
      expect(free.warnings).toEqual([]);
    });

    it('starts with only the four variables: a well-known hosted model is priced from the dated table, with no warning', () => {
      const openai = loadConfig({ MODEL_PROVIDER: 'openai', MODEL_API_KEY: 'sk-test', MODEL_NAME: 'gpt-4o-mini' });
      expect(openai.providers.model.price).toEqual(usd(0.15, 0.6, 'table', PRICE_TABLE_DATE));
      expect(openai.warnings).toEqual([]);
      const anthropic = loadConfig({ MODEL_PROVIDER: 'anthropic', MODEL_API_KEY: 'sk-ant-test', MODEL_NAME: 'claude-sonnet-4-5-20250929' });
      expect(anthropic.providers.model.price).toEqual(usd(3, 15, 'table', PRICE_TABLE_DATE));
      expect(anthropic.warnings).toEqual([]);
    });

    it.each([
      'http://127.0.0.1:11434/v1', 'http://localhost:8000/v1', 'http://[::1]:8080/v1', // loopback
      'http://10.1.2.3:8000/v1', 'http://192.168.0.7/v1', 'http://[fd00::7]/v1', // private
    ])('prices an unlisted model on %s (a local vLLM, Ollama or llama.cpp) at 0, with no warning', (url) => {
      const c = loadConfig({ MODEL_PROVIDER: 'openai', MODEL_BASE_URL: url, MODEL_NAME: 'llama3.1:8b' });
      expect(c.providers.model.price).toEqual(usd(0, 0, 'local'));
      expect(c.warnings).toEqual([]);
    });

    it('prices any other unknown model at the conservative default, with one warning naming the variables that override it', () => {
      const c = loadConfig({ ...hosted, MODEL_NAME: 'mystery-70b' });
      expect(c.providers.model.price).toEqual(usd(DEFAULT_PRICE.inputPerMTok, DEFAULT_PRICE.outputPerMTok, 'default'));
      expect(c.warnings).toHaveLength(1);
      expect(c.warnings[0]).toMatch(/MODEL_PRICE_INPUT_PER_MTOK and MODEL_PRICE_OUTPUT_PER_MTOK/);
      expect(c.warnings[0]).toContain('"mystery-70b"');
      expect(c.warnings[0]).toContain(`${DEFAULT_PRICE.inputPerMTok} USD input / ${DEFAULT_PRICE.outputPerMTok} USD output`);
      expect(c.warnings[0]).not.toContain('sk-test-key-0123456789');
      expect(Object.isFrozen(c.warnings)).toBe(true);
    });

    it('prices a second judge model of its own by the same rule, and still says so in one line', () => {
      const table = loadConfig({ ...hosted, MODEL_NAME: 'mystery-70b', MODEL_JUDGE_NAME: 'claude-haiku-4-5' });
      expect(table.providers.model.judgePrice).toEqual(usd(1, 5, 'table', PRICE_TABLE_DATE));
      const both = loadConfig({ ...hosted, MODEL_NAME: 'mystery-70b', MODEL_JUDGE_NAME: 'other-8b' });
      expect(both.providers.model.judgePrice?.source).toBe('default');
      expect(both.warnings).toHaveLength(1);
      expect(both.warnings[0]).toMatch(/MODEL_PRICE_INPUT_PER_MTOK and MODEL_PRICE_OUTPUT_PER_MTOK.*MODEL_JUDGE_PRICE_INPUT_PER_MTOK and MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK/);
      // The judge's own variables win for the judge, and only for it.
      const judged = loadConfig({ ...hosted, MODEL_NAME: 'gpt-4o', MODEL_JUDGE_NAME: 'other-8b', MODEL_JUDGE_PRICE_INPUT_PER_MTOK: '0.2', MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK: '0.4' });
      expect(judged.providers.model.price).toEqual(usd(2.5, 10, 'table', PRICE_TABLE_DATE));
      expect(judged.providers.model.judgePrice).toEqual(usd(0.2, 0.4, 'configured'));
      expect(judged.warnings).toEqual([]);
      // Only the judge unknown: the line names the judge's variables, not MODEL_PRICE_*.
      const judgeOnly = loadConfig({ ...hosted, MODEL_NAME: 'gpt-4o', MODEL_JUDGE_NAME: 'other-8b' });
      expect(judgeOnly.warnings).toHaveLength(1);
      expect(judgeOnly.warnings[0]).toContain('MODEL_JUDGE_PRICE_INPUT_PER_MTOK');
      expect(judgeOnly.warnings[0]).not.toMatch(/MODEL_PRICE_INPUT_PER_MTOK/);
      // The judge named the same as the model is that model, at its price; no second line for it.
      const same = loadConfig({ ...hosted, MODEL_NAME: 'mystery-70b', MODEL_JUDGE_NAME: 'mystery-70b' });
      expect(same.providers.model.judgePrice).toBe(same.providers.model.price);
      expect(same.warnings).toHaveLength(1);
      expect(same.warnings[0]).not.toContain('MODEL_JUDGE_PRICE');
      // No judge model of its own, no judge price.
      expect(loadConfig({ ...hosted, MODEL_NAME: 'gpt-4o' }).providers.model.judgePrice).toBeNull();
    });

    it('has no price and no warning without a model', () => {
      const c = loadConfig({});
      expect(c.providers.model).toMatchObject({ price: null, judgePrice: null });
      expect(c.warnings).toEqual([]);
    });
  });

  it('shares rate-limit counters in PostgreSQL when API processes are split out', () => {
    expect(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://h/db' }).rateLimitStore).toBe('postgres');
    expect(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://h/db', RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe('memory');
  });

  it('shares them in Redis when asked, which needs REDIS_URL', () => {
    expect(loadConfig({ RATE_LIMIT_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379/0' })).toMatchObject({ rateLimitStore: 'redis', redisUrl: 'redis://127.0.0.1:6379/0', rateLimitBlockPercent: 1 });
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis' })).toThrow(/RATE_LIMIT_STORE=redis needs REDIS_URL/);
    expect(() => loadConfig({ RATE_LIMIT_STORE: 'redis', REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ RATE_LIMIT_BLOCK_PERCENT: '20' })).toThrow(/RATE_LIMIT_BLOCK_PERCENT/);
  });

  it('documents every variable, with its default, in the README table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const name of CONFIG_VARIABLES) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|[^|]*\\|`, 'm'));
  });
});
