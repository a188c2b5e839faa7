import type { Config } from '../config.ts';
import type { Queryable } from '../db/pool.ts';
import { localProviders } from './local/corpus.ts';
import { modelProvider } from './model/index.ts';
import { braveSearch } from './web/brave.ts';
import { googleFactChecks } from './web/factcheck.ts';
import { webFetchProvider } from './web/fetcher.ts';
import { searxngSearch } from './web/searxng.ts';
import { webStatements } from './web/statements.ts';
import { wikidataKnowledge } from './wikidata/knowledge.ts';
import type { Providers } from './types.ts';
import { modelIdentifier, type Identify } from './identify.ts';

/**
 * The providers configuration asks for (README, "Hosted providers"). The
 * offline engine (everything local, no model) is the default; each part is
 * swapped on its own:
 * - knowledge: local subjects, or Wikidata behind them;
 * - search: the local corpus, or Brave / SearXNG; with a web search, pages are
 *   fetched from the web through the safe fetcher and statements are found
 *   by searching for the subject;
 * - model: none, or an OpenAI-compatible / Anthropic model for the
 *   model-backed stages;
 * - published fact-checks when FACTCHECK_API_KEY is set.
 */
export function buildProviders(config: Config, db: Queryable): Providers {
  const local = localProviders(db);
  const p = config.providers;
  const knowledge = p.knowledge.provider === 'wikidata' ? wikidataKnowledge(p.knowledge, db) : local.knowledge;
  const web = p.search.provider !== 'local';
  const search = p.search.provider === 'brave' ? braveSearch(p.search) : p.search.provider === 'searxng' ? searxngSearch(p.search) : local.search;
  const fetch = web ? webFetchProvider(p.fetch, config.siteUrl ? { siteUrl: config.siteUrl } : {}) : local.fetch;
  return {
    knowledge,
    search,
    fetch,
    statements: web ? webStatements(search, fetch) : local.statements,
    model: modelProvider(p.model, { db, dailySpendLimitUsd: config.dailySpendLimitUsd }),
    factCheck: p.factCheck.apiKey ? googleFactChecks(p.factCheck) : null,
    secondJudgeModel: p.model.judgeName ?? null,
  };
}

/** What the API needs of the providers: knowledge for names and ids, and the model's identification of names nothing else knows. */
export function apiProviders(config: Config, db: Queryable): { knowledge: Providers['knowledge']; identify?: Identify } {
  const p = buildProviders(config, db);
  if (!p.model) return { knowledge: p.knowledge };
  return { knowledge: p.knowledge, identify: modelIdentifier(p.model, p.knowledge, db, { wikidata: config.providers.knowledge.provider === 'wikidata' }) };
}
