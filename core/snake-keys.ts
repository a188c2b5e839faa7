/**
 * The command-line tools' `--json` output uses the API's naming: snake_case
 * field names. Their results are built in TypeScript, partly with camelCase
 * fields (`reportId`, `byPart`); this maps those names on the way out, in one
 * place, as the repositories map snake_case columns on the way in.
 *
 * Only names that are camelCase identifiers change. Keys that are data, not
 * field names (outcomes, data set names, subject names: lower-case,
 * snake_case or with spaces), are left as they are.
 */

const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;

export function snakeName(name: string): string {
  return CAMEL.test(name) ? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : name;
}

/** A copy of a JSON-ready value with every camelCase field name in snake_case; Maps become objects, as JSON.stringify would not. */
export function snakeKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return snakeKeys(Object.fromEntries(value));
  const toJSON = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === 'function') return snakeKeys(toJSON.call(value));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[snakeName(k)] = snakeKeys(v);
  return out;
}

/** `--json` output: snake_case field names, two-space indentation, one trailing newline. */
export function jsonOutput(value: unknown): string {
  return `${JSON.stringify(snakeKeys(value), null, 2)}\n`;
}
