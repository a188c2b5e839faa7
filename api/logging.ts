/**
 * What of an error goes into a log line: its type, code, status and the first
 * line of its message, cut short. Never its stack (file paths, frames, and a
 * hostile input can make one thousands of lines long) and never its other
 * fields (a driver error can carry SQL or parameters). Installed as the app
 * logger's `err` and `error` serializers, so it covers Fastify's own lines
 * ("request completed" with an error, client errors) as well as ours.
 */
export function errorForLog(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  // Plain objects logged under `error` by hand are already chosen fields.
  if (!(value instanceof Error)) return value;
  const e = value as Error & { code?: unknown; statusCode?: unknown };
  const message = String(e.message ?? '').split('\n', 1)[0]!.slice(0, 300);
  return {
    type: e.name || e.constructor?.name || 'Error',
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(typeof e.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    message,
  };
}

export const logSerializers = { err: errorForLog, error: errorForLog };
