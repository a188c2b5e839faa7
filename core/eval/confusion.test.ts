import { describe, expect, it } from 'vitest';
import { wrongSideOf } from '../method/judge-error.ts';
import { confusionOf } from './confusion.ts';
import type { ClaimResult } from './measure.ts';

const result = (gold: string, engine: string | null, type = 'factual'): ClaimResult =>
  ({
    gold: { outcome: gold, claim_type: 'factual' },
    found: engine !== null,
    engine: engine === null ? null : { quote: 'q', claim_type: type, outcome: engine },
    type_right: true,
    side_right: false,
  }) as unknown as ClaimResult;

describe('judge confusion from an eval run', () => {
  it('counts found and resolved claims by the engine type, gold row and engine column; unsettled apart; nothing else', () => {
    const c = confusionOf([
      result('true', 'true'),
      result('true', 'mostly_false'),
      result('false', 'mixed', 'promise'),
      result('unresolvable', 'true'),
      result('pending', 'false', 'prediction'),
      result('true', 'unresolvable'),
      result('mixed', 'pending'),
      result('true', null),
    ]);
    expect(c.overall.counts[0]).toEqual([1, 0, 0, 1, 0]);
    expect(c.overall.counts[4]).toEqual([0, 0, 1, 0, 0]);
    expect(c.overall.unsettled).toBe(2);
    expect(c.by_type.factual.counts[0]).toEqual([1, 0, 0, 1, 0]);
    expect(c.by_type.factual.unsettled).toBe(1);
    expect(c.by_type.promise.counts[4]).toEqual([0, 0, 1, 0, 0]);
    expect(c.by_type.prediction.unsettled).toBe(1);
    // true→mostly_false, false→mixed and both unsettled are wrong; true→true is not.
    expect(wrongSideOf(c.overall)).toEqual({ wrong: 4, resolved: 5, rate: 0.8 });
  });
});
