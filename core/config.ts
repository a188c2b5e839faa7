import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ModelPrice } from './providers/model/prices.ts';
import { defaultPriceWarning, modelPrices, priceVariablesProblem } from './config/model-prices.ts';

/**
 * The one reader of the environment. Every setting the service has is here,
 * parsed once at start; a bad value stops the process with a message naming
 * the variable. The README's table of variables is kept in step with this file
 * (test/config.test.ts checks that every variable below is documented there).
 */

const intFrom = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s?#]+$/, 'must be an http(s) URL without query or fragment, e.g. https://api.example.com/v1')
  .transform((u) => u.replace(/\/+$/, ''));

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: intFrom(8080, 0, 65535),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  EMBEDDED_PG_PORT: intFrom(0, 0, 65535),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_MINUTE: intFrom(60, 1, 1_000_000),
  RATE_LIMIT_STORE: z.preprocess(emptyToUndefined, z.enum(['memory', 'postgres', 'redis']).optional()),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\/[^\s]+$/, 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379/0').optional()),
  // The share of a key's minute an API process takes from a shared store at once (api/plugins/rate-limit.ts); 0: one store call a request.
  RATE_LIMIT_BLOCK_PERCENT: z.coerce.number().min(0).max(10).default(1),
  DAILY_JOB_LIMIT: intFrom(20, 1, 1_000_000),
  DAILY_SPEND_LIMIT_USD: z.coerce.number().min(0).max(1_000_000).default(10),
  // Replies to claims (POST /v1/responses): bounded per claim, and per key per UTC day.
  RESPONSES_PER_CLAIM: intFrom(50, 1, 100_000),
  RESPONSES_PER_KEY_PER_CLAIM_PER_DAY: intFrom(3, 1, 100_000),
  RESPONSES_PER_KEY_PER_DAY: intFrom(100, 1, 1_000_000),
  // Requests with an unknown or revoked key, per client address and minute, before 429.
  AUTH_FAILURES_PER_MINUTE: intFrom(60, 1, 1_000_000),
  BODY_LIMIT_BYTES: intFrom(262_144, 1024, 50 * 1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 100, 600_000),
  // A request must arrive whole within these (a body or headers that never end hold a connection).
  REQUEST_TIMEOUT_MS: intFrom(30_000, 100, 600_000),
  HEADERS_TIMEOUT_MS: intFrom(10_000, 100, 600_000),
  DB_POOL_MAX: intFrom(10, 1, 200),
  TRUST_PROXY: bool(false),
  LOAD_SAMPLE_PACK: bool(true),
  MCP_JSON_RESPONSE: bool(false),
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  MCP_WAIT_SECONDS: intFrom(20, 0, 600),
  PIPELINE_THREADS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(64).optional()),
  SITE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^https?:\/\/[^/?#\s]+$/, 'must be an http(s) origin without a path, e.g. https://reliability.example')
      .optional(),
  ),
  SITE_BUILD_DEBOUNCE_SECONDS: intFrom(5, 0, 3600),
  SITE_EXPORT_CRON: z
    .string()
    .regex(/^\s*\S+(\s+\S+){4}\s*$/, 'must be a cron expression of five fields, e.g. 30 2 * * *')
    .default('30 2 * * *'),
  SITE_EXPORT_KEEP_DAYS: intFrom(7, 1, 366),
  // Hosted providers (README, "Hosted providers"). The offline engine is the default.
  MODEL_PROVIDER: z.enum(['none', 'openai', 'anthropic']).default('none'),
  MODEL_BASE_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  MODEL_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  MODEL_NAME: z.preprocess(emptyToUndefined, z.string().optional()),
  MODEL_JUDGE_NAME: z.preprocess(emptyToUndefined, z.string().optional()),
  MODEL_PRICE_INPUT_PER_MTOK: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10_000).optional()),
  MODEL_PRICE_OUTPUT_PER_MTOK: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10_000).optional()),
  MODEL_JUDGE_PRICE_INPUT_PER_MTOK: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10_000).optional()),
  MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(10_000).optional()),
  MODEL_TIMEOUT_MS: intFrom(60_000, 100, 600_000),
  MODEL_MAX_RETRIES: intFrom(3, 0, 10),
  MODEL_CONCURRENCY: intFrom(4, 1, 256),
  SEARCH_PROVIDER: z.enum(['local', 'brave', 'searxng']).default('local'),
  SEARCH_BASE_URL: z.preprocess(emptyToUndefined, httpUrl.optional()),
  SEARCH_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  FACTCHECK_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  FACTCHECK_BASE_URL: z.preprocess(emptyToUndefined, httpUrl.default('https://factchecktools.googleapis.com')),
  KNOWLEDGE_PROVIDER: z.enum(['local', 'wikidata']).default('local'),
  KNOWLEDGE_BASE_URL: z.preprocess(emptyToUndefined, httpUrl.default('https://www.wikidata.org')),
  FETCH_TIMEOUT_MS: intFrom(15_000, 100, 300_000),
  FETCH_MAX_BYTES: intFrom(5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
  FETCH_MAX_REDIRECTS: intFrom(3, 0, 10),
  FETCH_ALLOW_CIDRS: z.string().default(''),
});

export type Config = Readonly<{
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedPgPort: number;
  role: 'all' | 'api' | 'worker';
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  rateLimitPerMinute: number;
  rateLimitStore: 'memory' | 'postgres' | 'redis';
  /** Redis for the shared rate-limit counters (RATE_LIMIT_STORE=redis). Never logged: it may hold a password. */
  redisUrl: string | undefined;
  /** The share of a key's minute (per cent) an API process takes from a shared store at once; at least one request (api/plugins/rate-limit.ts). */
  rateLimitBlockPercent: number;
  dailyJobLimit: number;
  dailySpendLimitUsd: number;
  /** Caps on replies to claims (core/responses.ts): in total per claim (409 past it), per key and claim per UTC day, per key per UTC day (429). */
  responseLimits: Readonly<{ perClaim: number; perKeyPerClaimPerDay: number; perKeyPerDay: number }>;
  /** Requests with a well-formed but unknown or revoked key one client address may make a minute; past it 429 (api/plugins/auth.ts). */
  authFailuresPerMinute: number;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
  /** Time allowed to receive a whole request, headers and body; past it the connection gets 408 and is closed. */
  requestTimeoutMs: number;
  /** Time allowed to receive a request's headers; at most requestTimeoutMs. */
  headersTimeoutMs: number;
  dbPoolMax: number;
  trustProxy: boolean;
  loadSamplePack: boolean;
  mcpJsonResponse: boolean;
  mcpAllowedOrigins: readonly string[];
  mcpWaitSeconds: number;
  /** Worker threads for the research pipeline's NLP; 0 runs it in the worker process's main thread. */
  pipelineThreads: number;
  /** The public origin of the static site, for absolute links in its pages' JSON-LD; undefined: links relative to the page. */
  siteUrl: string | undefined;
  /** The static site's folder: DATA_DIR/site. */
  siteDir: string;
  /** A burst of finished reports within this many seconds gives one site build (pg-boss debounce). */
  siteBuildDebounceSeconds: number;
  /** When the nightly export runs (cron, UTC). */
  siteExportCron: string;
  /** Nights of export files kept in the site. */
  siteExportKeepDays: number;
  /** Hosted providers; see README, "Hosted providers". */
  providers: ProviderConfig;
  /**
   * Settings that work but deserve a look, one line each (a model priced at the
   * default). The service logs them once at start (scripts/start.ts); loadConfig
   * itself stays silent, since scripts and tests call it many times.
   */
  warnings: readonly string[];
}>;

export type ProviderConfig = Readonly<{
  model: Readonly<{
    provider: 'none' | 'openai' | 'anthropic';
    /** API base URL; undefined: the SDK's own (the provider's public API). */
    baseUrl: string | undefined;
    apiKey: string | undefined;
    name: string | undefined;
    /** The second judge's model; the first judge's model when unset (then the judges differ by prompt). */
    judgeName: string | undefined;
    /** The price in force for `name` (core/providers/model/prices.ts); null without a model. */
    price: ModelPrice | null;
    /** The price in force for `judgeName`; null when there is no second judge model. */
    judgePrice: ModelPrice | null;
    timeoutMs: number;
    maxRetries: number;
    concurrency: number;
  }>;
  search: Readonly<{ provider: 'local' | 'brave' | 'searxng'; baseUrl: string | undefined; apiKey: string | undefined }>;
  factCheck: Readonly<{ apiKey: string | undefined; baseUrl: string }>;
  knowledge: Readonly<{ provider: 'local' | 'wikidata'; baseUrl: string }>;
  fetch: Readonly<{ timeoutMs: number; maxBytes: number; maxRedirects: number; allowCidrs: readonly string[] }>;
}>;

/** Names of every variable the service reads, for the README check. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape);

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of CONFIG_VARIABLES) {
    const value = env[key];
    if (value !== undefined) picked[key] = value;
  }
  const parsed = EnvSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    // Separate api and worker processes must meet in one database they do not own.
    throw new ConfigError(`invalid configuration: ROLE=${e.ROLE} needs DATABASE_URL (an external PostgreSQL shared by all processes)`);
  }
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    // Node's HTTP server refuses the combination: the headers are part of the request.
    throw new ConfigError(`invalid configuration: HEADERS_TIMEOUT_MS (${e.HEADERS_TIMEOUT_MS}) must not exceed REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS})`);
  }
  if (e.RATE_LIMIT_STORE === 'redis' && !e.REDIS_URL) throw new ConfigError('invalid configuration: RATE_LIMIT_STORE=redis needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)');
  const providers = providerConfig(e);
  const priceWarning = defaultPriceWarning(providers.model);
  return Object.freeze({
    host: e.HOST,
    port: e.PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    role: e.ROLE,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    // Counters live in the process unless API processes are split out; then they must be shared.
    rateLimitStore: e.RATE_LIMIT_STORE ?? (e.ROLE === 'all' ? 'memory' : 'postgres'),
    redisUrl: e.REDIS_URL,
    rateLimitBlockPercent: e.RATE_LIMIT_BLOCK_PERCENT,
    dailyJobLimit: e.DAILY_JOB_LIMIT,
    dailySpendLimitUsd: e.DAILY_SPEND_LIMIT_USD,
    responseLimits: Object.freeze({
      perClaim: e.RESPONSES_PER_CLAIM,
      perKeyPerClaimPerDay: e.RESPONSES_PER_KEY_PER_CLAIM_PER_DAY,
      perKeyPerDay: e.RESPONSES_PER_KEY_PER_DAY,
    }),
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    dbPoolMax: e.DB_POOL_MAX,
    trustProxy: e.TRUST_PROXY,
    loadSamplePack: e.LOAD_SAMPLE_PACK,
    mcpJsonResponse: e.MCP_JSON_RESPONSE,
    mcpAllowedOrigins: Object.freeze(e.MCP_ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean)),
    mcpWaitSeconds: e.MCP_WAIT_SECONDS,
    pipelineThreads: e.PIPELINE_THREADS ?? (os.availableParallelism() > 1 ? os.availableParallelism() : 0),
    siteUrl: e.SITE_URL,
    siteDir: path.join(path.resolve(e.DATA_DIR), 'site'),
    siteBuildDebounceSeconds: e.SITE_BUILD_DEBOUNCE_SECONDS,
    siteExportCron: e.SITE_EXPORT_CRON.trim(),
    siteExportKeepDays: e.SITE_EXPORT_KEEP_DAYS,
    providers,
    warnings: Object.freeze(priceWarning ? [priceWarning] : []),
  });
}

const fail = (message: string): never => {
  throw new ConfigError(`invalid configuration: ${message}`);
};

/** Provider settings, with the combinations that cannot work refused by name. */
function providerConfig(e: z.infer<typeof EnvSchema>): ProviderConfig {
  const m = e.MODEL_PROVIDER;
  if (m !== 'none') {
    if (!e.MODEL_NAME) fail(`MODEL_PROVIDER=${m} needs MODEL_NAME (the model to call)`);
    // A local OpenAI-compatible server (vLLM, Ollama, llama.cpp) may need no key; the hosted APIs do.
    if (!e.MODEL_API_KEY && (m === 'anthropic' || !e.MODEL_BASE_URL)) {
      fail(`MODEL_PROVIDER=${m} needs MODEL_API_KEY${m === 'openai' ? ' (or MODEL_BASE_URL for a local server that needs none)' : ''}`);
    }
    // No price is required: unset, it comes from the table, a local server or the default.
    const priceProblem = priceVariablesProblem(e);
    if (priceProblem) fail(priceProblem);
  } else {
    for (const v of ['MODEL_BASE_URL', 'MODEL_API_KEY', 'MODEL_NAME', 'MODEL_JUDGE_NAME', 'MODEL_JUDGE_PRICE_INPUT_PER_MTOK', 'MODEL_JUDGE_PRICE_OUTPUT_PER_MTOK'] as const) {
      if (e[v] !== undefined) fail(`${v} is set but MODEL_PROVIDER is none; set MODEL_PROVIDER=openai or anthropic, or unset ${v}`);
    }
  }
  if (e.SEARCH_PROVIDER === 'brave' && !e.SEARCH_API_KEY) fail('SEARCH_PROVIDER=brave needs SEARCH_API_KEY (a Brave Search API subscription token)');
  if (e.SEARCH_PROVIDER === 'searxng' && !e.SEARCH_BASE_URL) fail('SEARCH_PROVIDER=searxng needs SEARCH_BASE_URL (the SearXNG instance, with the JSON format enabled)');
  if (e.SEARCH_PROVIDER === 'local' && (e.SEARCH_BASE_URL || e.SEARCH_API_KEY)) {
    fail('SEARCH_BASE_URL or SEARCH_API_KEY is set but SEARCH_PROVIDER is local; set SEARCH_PROVIDER=brave or searxng, or unset them');
  }
  const allowCidrs = e.FETCH_ALLOW_CIDRS.split(',').map((c) => c.trim()).filter(Boolean);
  for (const c of allowCidrs) {
    if (!/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(c)) fail(`FETCH_ALLOW_CIDRS: "${c}" is not an address range such as 10.0.0.0/8`);
  }
  return Object.freeze({
    model: Object.freeze({
      provider: m,
      baseUrl: e.MODEL_BASE_URL,
      apiKey: e.MODEL_API_KEY,
      name: e.MODEL_NAME,
      judgeName: e.MODEL_JUDGE_NAME,
      ...modelPrices(e),
      timeoutMs: e.MODEL_TIMEOUT_MS,
      maxRetries: e.MODEL_MAX_RETRIES,
      concurrency: e.MODEL_CONCURRENCY,
    }),
    search: Object.freeze({ provider: e.SEARCH_PROVIDER, baseUrl: e.SEARCH_BASE_URL, apiKey: e.SEARCH_API_KEY }),
    factCheck: Object.freeze({ apiKey: e.FACTCHECK_API_KEY, baseUrl: e.FACTCHECK_BASE_URL }),
    knowledge: Object.freeze({ provider: e.KNOWLEDGE_PROVIDER, baseUrl: e.KNOWLEDGE_BASE_URL }),
    fetch: Object.freeze({ timeoutMs: e.FETCH_TIMEOUT_MS, maxBytes: e.FETCH_MAX_BYTES, maxRedirects: e.FETCH_MAX_REDIRECTS, allowCidrs: Object.freeze(allowCidrs) }),
  });
}
