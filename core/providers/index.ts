import type { Config } from '../config.ts';
import type { Queryable } from '../db/pool.ts';
import type { Identify } from './identify.ts';
import { localProviders } from './local/corpus.ts';
import type { Providers } from './types.ts';

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
 * Adapters are imported only when configured: the offline engine starts
 * without loading HTTP clients, jsdom or the model SDKs.
 */
export async function buildProviders(config: Config, db: Queryable): Promise<Providers> {
  const local = localProviders(db);
  const p = config.providers;
  const knowledge = p.knowledge.provider === 'wikidata' ? (await import('./wikidata/knowledge.ts')).wikidataKnowledge(p.knowledge, db) : local.knowledge;
  const web = p.search.provider !== 'local';
  let search = local.search;
  let fetch = local.fetch;
  let statements = local.statements;
  if (web) {
    search = p.search.provider === 'brave' ? (await import('./web/brave.ts')).braveSearch(p.search) : (await import('./web/searxng.ts')).searxngSearch(p.search);
    fetch = (await import('./web/fetcher.ts')).webFetchProvider(p.fetch, config.siteUrl ? { siteUrl: config.siteUrl } : {});
    statements = (await import('./web/statements.ts')).webStatements(search, fetch);
  }
  return {
    knowledge,
    search,
    fetch,
    statements,
    model: p.model.provider === 'none' ? null : (await import('./model/index.ts')).modelProvider(p.model, { db, dailySpendLimitUsd: config.dailySpendLimitUsd }),
    factCheck: p.factCheck.apiKey ? (await import('./web/factcheck.ts')).googleFactChecks(p.factCheck) : null,
    secondJudgeModel: p.model.judgeName ?? null,
  };
}

/** What the API needs of the providers: knowledge for names and ids, and the model's identification of names nothing else knows. */
export async function apiProviders(config: Config, db: Queryable, given?: Providers): Promise<{ knowledge: Providers['knowledge']; identify?: Identify }> {
  const p = given ?? (await buildProviders(config, db));
  if (!p.model) return { knowledge: p.knowledge };
  const { modelIdentifier } = await import('./identify.ts');
  return { knowledge: p.knowledge, identify: modelIdentifier(p.model, p.knowledge, db, { wikidata: config.providers.knowledge.provider === 'wikidata' }) };
}
