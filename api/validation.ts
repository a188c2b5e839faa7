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
const INPUT_MAX_CHARS = 200;

/**
 * The `input` of a 422 item: the value as sent when its JSON is short; else a
 * string, its JSON text cut at INPUT_MAX_CHARS and ending in `…`. Built within
 * that budget, so neither a long array nor deep nesting costs more than the
 * budget to echo (the rendering recurses at most once per character written).
 */
export function clip(input: unknown): unknown {
  if (typeof input === 'string') return input.length > INPUT_MAX_CHARS ? `${input.slice(0, INPUT_MAX_CHARS)}…` : input;
  if (input === null || typeof input !== 'object') return input;
  const { text, complete } = renderJson(input, INPUT_MAX_CHARS);
  return complete ? JSON.parse(text) : `${text}…`;
}

/** JSON.stringify's output, stopped after `max` characters. */
function renderJson(value: unknown, max: number): { text: string; complete: boolean } {
  let text = '';
  let complete = true;
  const emit = (s: string): boolean => {
    if (text.length + s.length <= max) {
      text += s;
      return true;
    }
    text += s.slice(0, max - text.length);
    complete = false;
    return false;
  };
  // A long string is cut before it is quoted: one character past the budget still says it was cut.
  const quote = (s: string) => JSON.stringify(s.length > max ? s.slice(0, max + 1) : s);
  const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') return emit(quote(v));
    if (typeof v === 'number') return emit(Number.isFinite(v) ? String(v) : 'null');
    if (typeof v === 'boolean') return emit(String(v));
    if (typeof v === 'bigint') return emit(quote(String(v)));
    if (v === null || skipped(v)) return emit('null');
    if (Array.isArray(v)) {
      if (!emit('[')) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !emit(',')) || !walk(v[i])) return false;
      return emit(']');
    }
    if (!emit('{')) return false;
    let first = true;
    for (const k in v as Record<string, unknown>) {
      if (!Object.hasOwn(v as object, k)) continue;
      const member = (v as Record<string, unknown>)[k];
      if (skipped(member)) continue;
      if ((!first && !emit(',')) || !emit(`${quote(k)}:`) || !walk(member)) return false;
      first = false;
    }
    return emit('}');
  };
  walk(value);
  return { text, complete };
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
  // A required field left out is `missing`, whatever its schema (zod reports an
  // absent enum as a wrong value, an absent union as matching no form). JSON has
  // no undefined, so undefined input at a field's path means the field is absent.
  if (input === undefined && issue.path.length > 0 && ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)) {
    return { type: 'missing', msg: 'Field required' };
  }
  switch (issue.code) {
    case 'invalid_type': {
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
