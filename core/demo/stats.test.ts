import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../method/outcomes.ts';
import { PUBLISHED_ROWS, agreementOf, forecastStats, ratio, tallyRows } from './stats.ts';

// Ten claims, worked by hand:
//   published  true:          machine true, mostly_true, unresolvable
//   published  mixed:         machine false, mixed
//   published  false:         machine false, unresolvable, pending
//   published  pending:       machine true
//   published  unrated:       machine mostly_false
// reference-resolved = 3 + 2 + 3 = 8; compared = 2 + 2 + 1 = 5 (the machine resolved them too);
// agree = true/true, mixed/mixed, false/false = 3; adjacent (≤ 1 step) adds true/mostly_true = 4;
// coverage 5/8 = 0.625, agreement 3/5 = 0.6, adjacent 4/5 = 0.8; the machine resolved 7 of 10.
const ROWS = [
  ['true', 'true'], ['true', 'mostly_true'], ['true', 'unresolvable'],
  ['mixed', 'false'], ['mixed', 'mixed'],
  ['false', 'false'], ['false', 'unresolvable'], ['false', 'pending'],
  ['pending', 'true'],
  [null, 'mostly_false'],
] as const;

describe('agreement, coverage and the confusion matrix', () => {
  const a = agreementOf(tallyRows(ROWS.map(([reference, machine]) => ({ reference, machine }))).cells);

  it('counts and rates as defined', () => {
    expect(a).toMatchObject({
      n: 10, n_reference_resolved: 8, n_machine_resolved: 7, n_compared: 5, n_agree: 3, n_adjacent: 4,
      coverage: 0.625, agreement: 0.6, adjacent_agreement: 0.8,
    });
  });

  it('the confusion matrix counts every claim, rows published outcome, columns machine outcome', () => {
    expect(a.confusion.rows).toEqual([...OUTCOMES, 'unrated']);
    expect(a.confusion.columns).toEqual([...OUTCOMES]);
    const cell = (r: string, c: string) => a.confusion.counts[PUBLISHED_ROWS.indexOf(r)]![OUTCOMES.indexOf(c as never)];
    expect(cell('true', 'true')).toBe(1);
    expect(cell('true', 'unresolvable')).toBe(1);
    expect(cell('mixed', 'false')).toBe(1);
    expect(cell('false', 'pending')).toBe(1);
    expect(cell('pending', 'true')).toBe(1);
    expect(cell('unrated', 'mostly_false')).toBe(1);
    expect(a.confusion.counts.flat().reduce((x, y) => x + y, 0)).toBe(10);
  });

  it('nothing to compare gives null rates, not zero', () => {
    const none = agreementOf(tallyRows([{ reference: 'true', machine: 'unresolvable' }]).cells);
    expect(none).toMatchObject({ n: 1, n_reference_resolved: 1, n_compared: 0, coverage: 0, agreement: null, adjacent_agreement: null });
    expect(agreementOf([]).coverage).toBeNull();
    expect(ratio(2, 3)).toBe(0.6667);
  });

  it('labels use their own rows: not_a_claim and unresolvable do not settle a claim', () => {
    const g = agreementOf(tallyRows([
      { reference: 'not_a_claim', machine: 'true' }, { reference: 'unresolvable', machine: 'unresolvable' }, { reference: 'mostly_true', machine: 'true' },
    ]).cells, ['true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'unresolvable', 'not_a_claim']);
    expect(g).toMatchObject({ n: 3, n_reference_resolved: 1, n_compared: 1, n_agree: 0, n_adjacent: 1, agreement: 0, coverage: 1 });
    expect(g.confusion.counts[6]![0]).toBe(1);
  });
});

describe('forecasts: Brier score and calls', () => {
  it('by hand: p 0.9 won, 0.2 lost, 0.5 won, 0.7 lost', () => {
    const t = tallyRows([
      { reference: 'true', machine: 'unresolvable', probability: 0.9 },
      { reference: 'false', machine: 'unresolvable', probability: 0.2 },
      { reference: 'true', machine: 'unresolvable', probability: 0.5 },
      { reference: 'false', machine: 'unresolvable', probability: 0.7 },
      { reference: 'pending', machine: 'unresolvable', probability: 0.4 }, // no published result: not scored
    ]);
    // (0.1² + 0.2² + 0.5² + 0.7²) / 4 = (0.01 + 0.04 + 0.25 + 0.49) / 4 = 0.1975
    expect(forecastStats(t.forecasts!)).toEqual({ n: 4, brier: 0.1975, machine_brier: null, calls: { n: 3, right: 2, rate: 0.6667 } });
  });

  it('a set without probabilities has no forecast figures', () => {
    expect(tallyRows([{ reference: 'true', machine: 'true' }]).forecasts).toBeNull();
    expect(forecastStats({ n: 0, sum_sq: 0, decided: 0, right: 0 })).toMatchObject({ brier: null, calls: { rate: null } });
  });
});
