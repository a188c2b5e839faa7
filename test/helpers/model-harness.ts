import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { z } from 'zod';
import type { ProviderConfig } from '../../core/config.ts';
import { modelProvider } from '../../core/providers/model/index.ts';
import { configuredPrice } from '../../core/providers/model/prices.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';
import type { FakeModelServer } from './model-servers.ts';

/**
 * What the two model adapters' test files share: a database of the file's own,
 * a loopback server speaking the provider's wire format (reset before each
 * test), a configuration and adapter maker, a question no other test asks
 * (the cache lives in the file's database), spend rows by purpose, and the
 * thrown errors (kept, so a file can check none carries the key).
 */
export const Verdict = z.object({ verdict: z.enum(['true', 'false', 'unclear']), confidence: z.number().min(0).max(1) });

export function modelHarness(o: {
  label: string;
  provider: 'openai' | 'anthropic';
  start: () => Promise<FakeModelServer>;
  key: string;
  model: string;
  prices: { input: number; output: number };
}) {
  let db: TestDatabase;
  let server: FakeModelServer;
  const thrown: unknown[] = [];
  beforeAll(async () => {
    db = await createTestDatabase(o.label);
    server = await o.start();
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });
  beforeEach(() => server.reset());
  let n = 0;
  const cfg = (over: Partial<ProviderConfig['model']> = {}): ProviderConfig['model'] => ({
    provider: o.provider, baseUrl: server.url, apiKey: o.key, name: o.model, judgeName: undefined,
    price: configuredPrice(o.prices.input, o.prices.output), judgePrice: null, timeoutMs: 5_000, maxRetries: 2, concurrency: 4, ...over,
  });
  return {
    get db() {
      return db;
    },
    get server() {
      return server;
    },
    thrown,
    cfg,
    /** A number no other request of the file has used: questions that miss the cache. */
    unique: () => ++n,
    make: (over: Partial<ProviderConfig['model']> = {}, dailySpendLimitUsd = 1_000) => modelProvider(cfg(over), { db: db.pool, dailySpendLimitUsd })!,
    ask: (purpose: string, extra: { model?: string; maxOutputTokens?: number } = {}) =>
      ({ purpose, system: 'You judge claims.', prompt: `Is claim ${++n} true? SECRET-PROMPT-TEXT`, schema: Verdict, ...extra }),
    spendFor: async (purpose: string) =>
      (await db.pool.query<{ input_tokens: number; output_tokens: number; amount_usd: number; provider: string }>(
        'SELECT provider, input_tokens, output_tokens, amount_usd FROM spend_ledger WHERE purpose = $1 ORDER BY id', [purpose])).rows,
    async failure<E>(p: Promise<unknown>, type: new (...a: never[]) => E): Promise<E> {
      const err = await p.then(() => undefined, (e: unknown) => e);
      thrown.push(err);
      expect(err).toBeInstanceOf(type);
      return err as E;
    },
  };
}
