import type { ProviderConfig } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import type { MeteredModelProvider } from './structured.ts';

export { ModelError, type MeteredModelProvider, type ModelUsage } from './structured.ts';

export type ModelDeps = {
  /** Where spend is recorded and the cache kept. */
  db: Queryable;
  /** The day's ceiling (DAILY_SPEND_LIMIT_USD): past it, calls throw UnavailableError('spend-limit'). */
  dailySpendLimitUsd: number;
};

/**
 * The configured model, or null for MODEL_PROVIDER=none (the offline engine:
 * no model). The SDK is loaded with the first call, not at start: a service
 * that never calls a model does not carry it.
 */
export function modelProvider(cfg: ProviderConfig['model'], deps: ModelDeps): MeteredModelProvider | null {
  if (cfg.provider === 'none') return null;
  const provider = cfg.provider;
  let loading: Promise<MeteredModelProvider> | undefined;
  let loaded: MeteredModelProvider | undefined;
  const load = () =>
    (loading ??= (provider === 'openai'
      ? import('./openai.ts').then((m) => m.openaiModel(cfg, deps))
      : import('./anthropic.ts').then((m) => m.anthropicModel(cfg, deps))
    ).then((p) => (loaded = p)));
  return {
    name: provider,
    model: cfg.name ?? '',
    complete: async (request) => (await load()).complete(request),
    usage: () => loaded?.usage() ?? { calls: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
  };
}
