import type { ProviderConfig } from '../../config.ts';
import type { Queryable } from '../../db/pool.ts';
import { anthropicModel } from './anthropic.ts';
import { openaiModel } from './openai.ts';
import type { MeteredModelProvider } from './structured.ts';

export { ModelError, type MeteredModelProvider, type ModelUsage } from './structured.ts';

export type ModelDeps = {
  /** Where spend is recorded and the cache kept. */
  db: Queryable;
  /** The day's ceiling (DAILY_SPEND_LIMIT_USD): past it, calls throw UnavailableError('spend-limit'). */
  dailySpendLimitUsd: number;
};

/** The configured model, or null for MODEL_PROVIDER=none (the offline engine: no model). */
export function modelProvider(cfg: ProviderConfig['model'], deps: ModelDeps): MeteredModelProvider | null {
  switch (cfg.provider) {
    case 'none':
      return null;
    case 'openai':
      return openaiModel(cfg, deps);
    case 'anthropic':
      return anthropicModel(cfg, deps);
  }
}
