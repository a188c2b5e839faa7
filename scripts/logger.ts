import pino from 'pino';

/**
 * Logs go to stderr as JSON lines, so stdout carries only what a command
 * prints on purpose (the URL line, a new key). The Authorization header is
 * never logged: pino's default request serializer leaves headers out, and the
 * redaction below covers any that are logged by hand.
 */
export function createLogger(level: string) {
  return pino({ level, redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'], censor: '[redacted]' } }, pino.destination(2));
}
