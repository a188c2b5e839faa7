import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from './config.ts';

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
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_API_KEY: 'k', MODEL_PRICE_OUTPUT_PER_MTOK: '1' }, 'MODEL_PRICE_INPUT_PER_MTOK'],
    [{ MODEL_PROVIDER: 'openai', MODEL_NAME: 'm', MODEL_API_KEY: 'k', MODEL_PRICE_INPUT_PER_MTOK: '1' }, 'MODEL_PRICE_OUTPUT_PER_MTOK'],
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
    expect(c.providers.model).toMatchObject({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: undefined, name: 'm', priceInputPerMTok: 0 });
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

  it('shares rate-limit counters in PostgreSQL when API processes are split out', () => {
    expect(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://h/db' }).rateLimitStore).toBe('postgres');
    expect(loadConfig({ ROLE: 'api', DATABASE_URL: 'postgres://h/db', RATE_LIMIT_STORE: 'memory' }).rateLimitStore).toBe('memory');
  });

  it('documents every variable, with its default, in the README table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const name of CONFIG_VARIABLES) expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|[^|]*\\|`, 'm'));
  });
});
