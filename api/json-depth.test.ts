import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, excessiveNestingAt } from './json-depth.ts';

describe('excessiveNestingAt', () => {
  it('finds the bracket that opens one level too many', () => {
    expect(excessiveNestingAt('[]')).toBe(-1);
    expect(excessiveNestingAt(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(-1);
    expect(excessiveNestingAt(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(MAX_JSON_DEPTH);
    expect(excessiveNestingAt('{"a":[{"b":[1]}]}', 3)).toBe(11);
    expect(excessiveNestingAt('{"a":[{"b":[1]}]}', 4)).toBe(-1);
  });

  it('counts depth, not brackets: siblings do not add up', () => {
    expect(excessiveNestingAt(`[${'[],'.repeat(10_000)}[]]`, 2)).toBe(-1);
  });

  it('reads brackets inside strings as text, escapes included', () => {
    expect(excessiveNestingAt(`["${'['.repeat(100)}"]`, 1)).toBe(-1);
    expect(excessiveNestingAt(`["\\"${'{'.repeat(100)}"]`, 1)).toBe(-1);
    // An escaped backslash ends in the string's own quote: the bracket after it is nesting.
    expect(excessiveNestingAt('["\\\\",[]]', 1)).toBe(6);
    expect(excessiveNestingAt('{"k\\"[":{}}', 1)).toBe(8);
  });

  it('is linear: a million levels are refused at once, not after building them', () => {
    const started = performance.now();
    expect(excessiveNestingAt('['.repeat(1_000_000))).toBe(MAX_JSON_DEPTH);
    expect(excessiveNestingAt(`"${'['.repeat(1_000_000)}"`)).toBe(-1);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
