import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE, PRICE_TABLE, PRICE_TABLE_DATE, localBaseUrl, tablePrice, unconfiguredPrice } from './prices.ts';

describe('model price table', () => {
  it('is dated, and the date is a real day not after today', () => {
    expect(PRICE_TABLE_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const day = new Date(`${PRICE_TABLE_DATE}T00:00:00Z`);
    expect(day.toISOString().slice(0, 10)).toBe(PRICE_TABLE_DATE);
    expect(day.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('holds well-known OpenAI and Anthropic models, every price positive', () => {
    const names = PRICE_TABLE.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-5', 'claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5']));
    for (const e of PRICE_TABLE) {
      expect(e.inputPerMTok, e.name).toBeGreaterThan(0);
      expect(e.outputPerMTok, e.name).toBeGreaterThanOrEqual(e.inputPerMTok);
    }
  });

  it('prices an unknown model above every table entry, on both sides', () => {
    for (const e of PRICE_TABLE) {
      expect(DEFAULT_PRICE.inputPerMTok, e.name).toBeGreaterThan(e.inputPerMTok);
      expect(DEFAULT_PRICE.outputPerMTok, e.name).toBeGreaterThan(e.outputPerMTok);
    }
  });

  it.each([
    ['gpt-4o', { input: 2.5, output: 10 }],
    ['gpt-4o-2024-08-06', { input: 2.5, output: 10 }],
    // A snapshot priced apart from its alias: the exact entry wins over the suffix rule.
    ['gpt-4o-2024-05-13', { input: 5, output: 15 }],
    ['gpt-4o-mini', { input: 0.15, output: 0.6 }],
    ['gpt-4o-mini-2024-07-18', { input: 0.15, output: 0.6 }],
    ['claude-sonnet-4-5-20250929', { input: 3, output: 15 }],
    ['claude-opus-4-1-20250805', { input: 15, output: 75 }],
    ['claude-opus-4-20250514', { input: 15, output: 75 }],
    ['claude-3-5-haiku-latest', { input: 0.8, output: 4 }],
  ])('prices %s from the table (exact name or a dated snapshot of one)', (name, price) => {
    expect(tablePrice(name)).toEqual(price);
  });

  it.each(['gpt-4o-audio-preview', 'gpt-4', 'GPT-4O', 'gpt-4o-', 'openai/gpt-4o', 'claude-opus-4-1-extended', 'llama3.1:8b', 'gpt-oss-20b', ''])(
    'does not guess a price for %o from a prefix',
    (name) => {
      expect(tablePrice(name)).toBeNull();
    },
  );
});

describe('local model servers', () => {
  it.each([
    ['http://127.0.0.1:11434/v1', 'loopback'],
    ['http://127.9.8.7:8000/v1', 'loopback'],
    ['http://localhost:8000/v1', 'loopback'],
    ['http://LOCALHOST.:8000/v1', 'loopback'],
    ['http://vllm.localhost/v1', 'loopback'],
    ['http://[::1]:8080/v1', 'loopback'],
    ['http://0.0.0.0:8000/v1', 'loopback'],
    ['http://[::ffff:127.0.0.1]:8000/v1', 'loopback'],
    ['http://10.0.0.5:8000/v1', 'private'],
    ['http://172.20.1.2/v1', 'private'],
    ['https://192.168.1.20/v1', 'private'],
    ['http://[fd12:3456::1]:8000/v1', 'private'],
    ['http://[::ffff:10.1.2.3]/v1', 'private'],
  ])('%s is %s', (url, kind) => {
    expect(localBaseUrl(url)).toBe(kind);
  });

  it.each([
    undefined,
    'https://api.openai.com/v1',
    'https://api.anthropic.com',
    'http://8.8.8.8/v1',
    'http://100.64.1.1/v1', // shared (CGNAT) space is not the operator's own network
    'http://ollama:11434/v1', // a name may lead anywhere; the text alone cannot show it is local
    'http://models.internal/v1',
    'http://localhost.example.com/v1',
  ])('%s is not local', (url) => {
    expect(localBaseUrl(url)).toBeNull();
  });

  it('prices a listed model from the table even on a local server, an unlisted one at 0 there, and at the default elsewhere', () => {
    expect(unconfiguredPrice('gpt-4o-mini', 'http://127.0.0.1:4000/v1')).toEqual({ inputPerMTok: 0.15, outputPerMTok: 0.6, currency: 'USD', source: 'table', tableDate: PRICE_TABLE_DATE });
    expect(unconfiguredPrice('llama3.1:8b', 'http://127.0.0.1:11434/v1')).toEqual({ inputPerMTok: 0, outputPerMTok: 0, currency: 'USD', source: 'local', tableDate: null });
    expect(unconfiguredPrice('llama3.1:8b', 'https://api.together.example/v1')).toEqual({ ...DEFAULT_PRICE, currency: 'USD', source: 'default', tableDate: null });
    expect(unconfiguredPrice('llama3.1:8b', undefined).source).toBe('default');
  });
});
