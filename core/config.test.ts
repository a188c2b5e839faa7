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
  ])('refuses %o, naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(name));
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
