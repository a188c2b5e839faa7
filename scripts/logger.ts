import pino from 'pino';

/**
 * Logs go to stderr as JSON lines, so stdout carries only what a command
 * prints on purpose (the URL line, a new key). No secret reaches a log: a
 * request is logged by its method and path only (never its headers, and never
 * its query string, which a careless client may put a key in), and the
 * redaction below covers anything logged by hand.
 */
export function createLogger(level: string) {
  return pino(
    {
      level,
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({ method: req.method, path: String(req.url ?? '').split('?')[0], id: req.id }),
      },
      redact: { paths: ['req.headers', 'headers.authorization', '*.authorization', 'authorization'], censor: '[redacted]' },
    },
    pino.destination(2),
  );
}
