import { describe, expect, it } from 'vitest';
import { parseGold } from './gold.ts';
import { figures, measurePack, quoteMatch, sideOf, stageCounts, stageOf, type EngineClaim } from './measure.ts';

const URL_A = 'https://a.example/news/1';
const gold = parseGold([
  '{"record":"eval","today":"2026-01-31"}',
  `{"record":"claim","subject":"Acme Water","url":"${URL_A}","quote":"We cut leakage by 9% in 2024","claim_type":"factual","outcome":"mostly_true","phenomena":["figure_alignment"]}`,
  `{"record":"claim","subject":"Acme Water","url":"${URL_A}","quote":"We will replace 400 km of mains by 2027","claim_type":"promise","outcome":"pending","phenomena":["pending"]}`,
  `{"record":"claim","subject":"Acme Water","url":"${URL_A}","quote":"Bills fell by 3% last year","claim_type":"factual","outcome":"false","phenomena":["opposite_direction"]}`,
  `{"record":"non_claim","subject":"Acme Water","url":"${URL_A}","quote":"Customers can ask for a free leak check","why":"offer"}`,
].join('\n'));

const claim = (quote: string, over: Partial<EngineClaim> = {}): EngineClaim => ({
  claim_type: 'factual', quote, quote_verified: true, source: { url: URL_A }, outcome: 'unresolvable', on_time: null, evidence: [], ...over,
});

describe('eval measure', () => {
  it('sides group the scale: true with mostly_true, false with mostly_false; mixed, unresolvable and pending alone', () => {
    expect(sideOf('mostly_true')).toBe('true');
    expect(sideOf('mostly_false')).toBe('false');
    expect(sideOf('mixed')).toBe('mixed');
    expect(sideOf('pending')).toBe('pending');
  });

  it('quotes match when they share most words, not when they share a few', () => {
    expect(quoteMatch('We cut leakage by 9% in 2024', '"We cut leakage by 9% in 2024," she said')).toBeGreaterThan(0);
    expect(quoteMatch('We cut leakage by 9% in 2024', 'Leakage is a problem for every company in the valley and beyond')).toBe(0);
  });

  it('counts found, type, side, coverage, wrong verdicts, false extractions, non-claims, independence and verbatim quotes', () => {
    const text = 'We cut leakage by 9% in 2024. We will replace 400 km of mains by 2027. Bills fell by 3% last year. Customers can ask for a free leak check.';
    const m = measurePack(gold, [{
      subject: 'Acme Water', status: 'complete', ms: 10,
      claims: [
        claim('We cut leakage by 9% in 2024', { outcome: 'true', evidence: [{ url: 'https://a.example/later', publisher: 'Acme Water', independent_of_subject: true }] }),
        claim('We will replace 400 km of mains by 2027', { claim_type: 'prediction', outcome: 'pending' }),
        claim('Customers can ask for a free leak check', { claim_type: 'guidance', outcome: 'true' }),
        claim('Bills rose by 3% last year', { outcome: 'true' }),
      ],
    }], [{ name: 'Acme Water', aliases: [], urls: ['https://a.example'] }], [{ url: URL_A, publisher: 'Acme Water', text }]);
    const f = figures(m.counts);
    expect(m.counts.found).toBe(3);
    expect(m.counts.type_right).toBe(2);
    expect(m.counts.side_right).toBe(2);
    expect(f.side_right).toBeCloseTo(2 / 3);
    expect(m.counts.gold_resolved).toBe(2);
    expect(m.counts.engine_resolved_of_gold_resolved).toBe(2);
    expect(m.counts.wrong_resolved).toBe(1);
    expect(f.wrong_of_resolved).toBeCloseTo(1 / 2);
    expect(m.counts.extracted).toBe(4);
    expect(m.counts.false_extractions).toBe(1);
    expect(m.counts.non_claims_extracted).toBe(1);
    expect(m.counts.wrongly_independent).toBe(1);
    expect(m.counts.non_verbatim_verified).toBe(1);
    expect(m.phenomena.get('figure_alignment')).toEqual({ n: 1, side_right: 1 });
    expect(m.phenomena.get('opposite_direction')).toEqual({ n: 1, side_right: 0 });
  });

  it('refuses a gold file without its eval line, or with a bad outcome, naming the line', () => {
    expect(() => parseGold(`{"record":"claim","subject":"A","url":"u","quote":"q","claim_type":"factual","outcome":"true"}`)).toThrow(/no \{"record":"eval"/);
    expect(() => parseGold('{"record":"eval","today":"2026-01-01"}\n{"record":"claim","subject":"A","url":"u","quote":"q","claim_type":"factual","outcome":"yes"}', 'g')).toThrow(/g:2/);
  });
});

describe('stageOf', () => {
  const gold = (outcome: string) => ({ record: 'claim', subject: 'S', url: 'https://s.example/a', quote: 'Q', claim_type: 'factual', outcome, phenomena: [] }) as unknown as import('./gold.ts').GoldClaim;
  const result = (g: string, e: string | null, independent = 0, side_right = false) => ({
    gold: gold(g), found: e !== null, engine: e === null ? null : { quote: 'Q', claim_type: 'factual' as const, outcome: e as never, independent_evidence: independent }, type_right: true, side_right,
  });

  it('places each lost claim at the stage that lost it', () => {
    expect(stageOf(result('true', 'true', 1, true))).toBe('right');
    expect(stageOf(result('true', null))).toBe('not_found');
    expect(stageOf(result('true', 'unresolvable', 0))).toBe('no_evidence');
    expect(stageOf(result('false', 'unresolvable', 2))).toBe('not_read');
    expect(stageOf(result('true', 'false', 2))).toBe('wrong_side');
    expect(stageOf(result('mixed', 'pending'))).toBe('pending');
    expect(stageOf(result('unresolvable', 'true', 1))).toBe('settled_open');
    expect(stageOf(result('pending', 'unresolvable'))).toBe('other');
  });

  it('counts stages and mistyped claims', () => {
    const counts = stageCounts([result('true', null), { ...result('true', 'false', 1), type_right: false }, result('true', 'true', 1, true)]);
    expect(counts.not_found).toEqual({ n: 1, type_wrong: 0 });
    expect(counts.wrong_side).toEqual({ n: 1, type_wrong: 1 });
    expect(counts.right.n).toBe(1);
  });
});
