import { describe, expect, it } from 'vitest';
import { errorForLog } from './logging.ts';
import { z } from 'zod';
import { clip, toValidationItems } from './validation.ts';

describe('clip: the input echoed in a 422', () => {
  it('gives short values back as they are', () => {
    expect(clip('abc')).toBe('abc');
    expect(clip(42)).toBe(42);
    expect(clip(null)).toBe(null);
    expect(clip([1, 'two', { three: [3] }])).toEqual([1, 'two', { three: [3] }]);
    expect(clip({})).toEqual({});
  });

  it('cuts long strings, and long or deep values to their JSON text, at 200 characters', () => {
    expect(clip('x'.repeat(201))).toBe(`${'x'.repeat(200)}…`);
    const list = clip(Array.from({ length: 1000 }, (_, i) => i)) as string;
    expect(list).toBe(`${JSON.stringify(Array.from({ length: 1000 }, (_, i) => i)).slice(0, 200)}…`);
    const obj = clip({ a: 'y'.repeat(10_000), b: 1 }) as string;
    expect(obj).toBe(`{"a":"${'y'.repeat(194)}…`);
  });

  it('does not recurse without limit: a value nested 100,000 deep costs the same as a short one', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const out = clip(deep) as string;
    expect(out).toBe(`${'['.repeat(200)}…`);
    let objects: unknown = {};
    for (let i = 0; i < 100_000; i++) objects = { a: objects };
    expect(String(clip(objects)).length).toBe(201);
  });

  it('writes what JSON would for values JSON cannot hold', () => {
    expect(clip([undefined, Number.NaN, () => 1])).toEqual([null, null, null]);
    expect(clip({ a: undefined, b: 2 })).toEqual({ b: 2 });
  });
});

describe('errorForLog', () => {
  it('keeps type, code, status and the first line of the message, never the stack', () => {
    const err = Object.assign(new RangeError('Maximum call stack size exceeded\n    at f (x.js:1:1)'), { code: 'E_X', statusCode: 422, sql: 'SELECT secret' });
    expect(errorForLog(err)).toEqual({ type: 'RangeError', code: 'E_X', statusCode: 422, message: 'Maximum call stack size exceeded' });
    expect(JSON.stringify(errorForLog(err))).not.toMatch(/stack"|at f|SELECT/);
    expect(errorForLog({ code: 'ECONNRESET' })).toEqual({ code: 'ECONNRESET' });
  });
});

describe('toValidationItems: the type of each 422 item', () => {
  const schema = z.object({ verdict: z.enum(['true', 'false']), either: z.union([z.string(), z.number()]), name: z.string() });
  const types = (value: unknown) => {
    const r = schema.safeParse(value, { reportInput: true });
    return r.success ? [] : toValidationItems('body', r.error.issues, value).map((i) => `${i.loc.join('.')}:${i.type}`).sort();
  };

  it('calls a field left out `missing`, whatever its schema (an enum, a union, a string)', () => {
    expect(types({})).toEqual(['body.either:missing', 'body.name:missing', 'body.verdict:missing']);
  });

  it('calls a field sent with a wrong value by what is wrong with it, null included', () => {
    expect(types({ verdict: 'maybe', either: true, name: 1 })).toEqual(['body.either:union_error', 'body.name:string_type', 'body.verdict:enum']);
    expect(types({ verdict: null, either: null, name: null })).toEqual(['body.either:union_error', 'body.name:string_type', 'body.verdict:enum']);
  });
});
