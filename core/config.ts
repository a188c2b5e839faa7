import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

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
  RATE_LIMIT_STORE: z.preprocess(emptyToUndefined, z.enum(['memory', 'postgres']).optional()),
  DAILY_JOB_LIMIT: intFrom(20, 1, 1_000_000),
  DAILY_SPEND_LIMIT_USD: z.coerce.number().min(0).max(1_000_000).default(10),
  BODY_LIMIT_BYTES: intFrom(262_144, 1024, 50 * 1024 * 1024),
  SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 100, 600_000),
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
  rateLimitStore: 'memory' | 'postgres';
  dailyJobLimit: number;
  dailySpendLimitUsd: number;
  bodyLimitBytes: number;
  shutdownTimeoutMs: number;
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
    dailyJobLimit: e.DAILY_JOB_LIMIT,
    dailySpendLimitUsd: e.DAILY_SPEND_LIMIT_USD,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
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
  });
}
