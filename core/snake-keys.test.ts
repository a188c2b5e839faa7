import { describe, expect, it } from 'vitest';
import { jsonOutput, snakeKeys, snakeName } from './snake-keys.ts';

describe('snakeKeys: the CLIs\' --json naming', () => {
  it('turns camelCase field names into snake_case, at any depth', () => {
    expect(snakeKeys({ reportId: 'rep_1', stats: { msTotal: 3, byPart: [{ nCompared: 1 }] } })).toEqual({ report_id: 'rep_1', stats: { ms_total: 3, by_part: [{ n_compared: 1 }] } });
  });

  it('leaves snake_case names and keys that are data alone', () => {
    const data = { subject_id: 's', machine: { mostly_true: 2, unresolvable: 1 }, 'fte-governors': 1, 'Brightwater Utilities': 1, URL: 1, a: 1 };
    expect(snakeKeys(data)).toEqual(data);
    expect(['already_snake', 'Capitalised', 'with space', 'kebab-case', 'x'].map(snakeName)).toEqual(['already_snake', 'Capitalised', 'with space', 'kebab-case', 'x']);
  });

  it('writes what JSON would for dates, and Maps as objects', () => {
    const at = new Date('2026-11-24T00:00:00Z');
    expect(snakeKeys({ generatedAt: at, byPhenomenon: new Map([['sideRight', 1]]) })).toEqual({ generated_at: '2026-11-24T00:00:00.000Z', by_phenomenon: { side_right: 1 } });
    expect(jsonOutput({ aB: [1, null] })).toBe('{\n  "a_b": [\n    1,\n    null\n  ]\n}\n');
  });
});
