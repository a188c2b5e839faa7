import type { z } from 'zod';

/**
 * Turns zod issues into the spec's 422 items ({loc, msg, type, input?, ctx?}).
 * The `type` names follow the widely used pydantic vocabulary (`missing`,
 * `string_too_long`, `too_long`, `enum`, `int_parsing`, ...) so that clients
 * that already handle that body shape understand ours.
 */

export type ValidationItem = {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
};

export class RequestValidationError extends Error {
  readonly items: ValidationItem[];
  constructor(items: ValidationItem[]) {
    super('request validation failed');
    this.items = items;
  }
}

export type Where = 'body' | 'query' | 'path' | 'header';

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['int_parsing', 'Input should be a valid integer, unable to parse string as an integer'],
  boolean: ['bool_parsing', 'Input should be a valid boolean, unable to interpret input'],
  array: ['list_type', 'Input should be a valid list'],
  object: ['model_attributes_type', 'Input should be a valid dictionary or object to extract fields from'],
};

// Inputs echoed back are cut short: a 50,000-character text need not come back whole.
function clip(input: unknown): unknown {
  if (typeof input === 'string' && input.length > 200) return `${input.slice(0, 200)}…`;
  if (Array.isArray(input) && input.length > 20) return `[array of ${input.length} items]`;
  if (input && typeof input === 'object' && !Array.isArray(input)) return '[object]';
  return input;
}

function quoteList(values: readonly unknown[]): string {
  const q = values.map((v) => `'${String(v)}'`);
  return q.length <= 1 ? q.join('') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

export function toValidationItems(where: Where, issues: readonly z.core.$ZodIssue[], root: unknown): ValidationItem[] {
  return issues.map((issue) => {
    const loc: (string | number)[] = [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    const input = 'input' in issue ? issue.input : valueAt(root, issue.path);
    const item = describe(issue, input);
    const out: ValidationItem = { loc, msg: item.msg, type: item.type };
    if (input !== undefined) out.input = clip(input);
    if (item.ctx) out.ctx = item.ctx;
    return out;
  });
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function describe(issue: z.core.$ZodIssue, input: unknown): { type: string; msg: string; ctx?: Record<string, unknown> } {
  switch (issue.code) {
    case 'invalid_type': {
      if (input === undefined) return { type: 'missing', msg: 'Field required' };
      const [type, msg] = TYPE_NAMES[issue.expected] ?? [`${issue.expected}_type`, `Input should be a valid ${issue.expected}`];
      return { type, msg };
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return { type: 'string_too_long', msg: `String should have at most ${max} characters`, ctx: { max_length: max } };
      if (issue.origin === 'array') {
        const n = Array.isArray(input) ? input.length : undefined;
        return { type: 'too_long', msg: `List should have at most ${max} items after validation, not ${n ?? 'more'}`, ctx: { field_type: 'List', max_length: max, actual_length: n } };
      }
      return { type: 'less_than_equal', msg: `Input should be less than or equal to ${max}`, ctx: { le: max } };
    }
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return { type: 'string_too_short', msg: `String should have at least ${min} character${min === 1 ? '' : 's'}`, ctx: { min_length: min } };
      if (issue.origin === 'array') return { type: 'too_short', msg: `List should have at least ${min} item${min === 1 ? '' : 's'}`, ctx: { field_type: 'List', min_length: min } };
      return { type: 'greater_than_equal', msg: `Input should be greater than or equal to ${min}`, ctx: { ge: min } };
    }
    case 'invalid_value': {
      const expected = quoteList(issue.values);
      return issue.values.length === 1
        ? { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } }
        : { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } };
    }
    case 'invalid_format':
      if (issue.format === 'starts_with') return { type: 'string_pattern_mismatch', msg: issue.message, ctx: { prefix: (issue as { prefix?: string }).prefix } };
      return { type: 'string_pattern_mismatch', msg: `String should match pattern '${(issue as { pattern?: string }).pattern ?? issue.format}'`, ctx: { pattern: (issue as { pattern?: string }).pattern ?? issue.format } };
    case 'not_multiple_of':
      return { type: 'multiple_of', msg: issue.message };
    case 'unrecognized_keys':
      return { type: 'extra_forbidden', msg: 'Extra inputs are not permitted', ctx: { keys: issue.keys } };
    case 'invalid_union':
      return { type: 'union_error', msg: 'Input matches none of the allowed forms' };
    case 'custom':
    default:
      return { type: 'value_error', msg: `Value error, ${issue.message}` };
  }
}

export function parseOrThrow<S extends z.ZodType>(schema: S, where: Where, value: unknown): z.infer<S> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new RequestValidationError(toValidationItems(where, result.error.issues, value));
}
