import { Writable } from 'node:stream';
import pino from 'pino';
import { buildApp } from '../../api/app.ts';
import { apiProviders } from '../../core/providers/index.ts';
import { bossEnqueue } from '../../jobs/enqueue.ts';
import { COUNTED_QUEUES, PGBOSS_SCHEMA } from '../../jobs/queues.ts';
import { startTestApp, type TestApp } from './app.ts';

/** Every line the app logged, as written (JSON lines), in order. */
export type CapturedLog = {
  lines: string[];
  /** Lines parsed as JSON (pino's own records). */
  records(): Record<string, unknown>[];
};

/**
 * A pino logger that keeps its lines in memory. Its options are those of the
 * service's own logger (scripts/logger.ts), in particular pino's standard `err`
 * serializer, which writes an error's whole stack: what keeps a stack out of
 * the log has to be the app's doing, not the test's.
 */
export function captureLog(level = 'trace'): { logger: pino.Logger; log: CapturedLog } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(line);
      cb();
    },
  });
  const logger = pino(
    {
      level,
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({ method: req.method, path: String(req.url ?? '').split('?')[0], id: req.id }),
      },
      redact: { paths: ['req.headers', 'headers.authorization', '*.authorization', 'authorization'], censor: '[redacted]' },
    },
    stream,
  );
  return { logger, log: { lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) } };
}

/**
 * startTestApp's app, database and pg-boss, but the app is built with a
 * logger whose lines the test can read (startTestApp's own app, built silent,
 * is left idle and closed with the rest).
 */
export async function startLoggedTestApp(env: Record<string, string> = {}, label = 'app', level = 'trace'): Promise<TestApp & { log: CapturedLog }> {
  const t = await startTestApp(env, label);
  const { logger, log } = captureLog(level);
  const app = await buildApp(
    {
      config: t.config, pool: t.db.pool, databaseUrl: t.db.url, bossSchema: PGBOSS_SCHEMA, queues: COUNTED_QUEUES,
      ...(await apiProviders(t.config, t.db.pool)), enqueue: bossEnqueue(t.boss),
    },
    { logger },
  );
  await app.ready();
  return {
    ...t,
    app,
    log,
    async close() {
      await app.close();
      await t.close();
    },
  };
}

/** A stack trace or a stack overflow, in any form a log line can hold one. */
export const STACK_IN_LOG = /"stack"|\\n\s+at |\n\s+at |\bat [^\s"]+ \([^)]*:\d+:\d+\)|Maximum call stack/;
