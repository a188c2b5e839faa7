import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from '../method/outcomes.ts';
import { claimReview, jsonForScript, ratingScale, RATING_VALUES } from './claim-review.ts';

const base = { claim_id: 'clm_1', quote: 'We will open 5 clinics by 2027.', rationale: 'Five opened.', said_on: '2025-01-02', source: { url: 'https://a.example/x', title: 'T', outlet: 'O' } };
const ctx = { pagePath: '/reports/rep_1/', siteUrl: null, published: '2026-11-21', subject: { name: 'Acme', kind: 'organisation' } };

describe('jsonForScript', () => {
  it('is JSON that means the same value and can never end a script element or open a comment', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        for (const v of [value, { text, nested: [text, `</script>${text}<!--`] }]) {
          const out = jsonForScript(v);
          expect(out).not.toMatch(/<|>|&|\u2028|\u2029/);
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('claimReview', () => {
  it('rates the five resolved outcomes 5 to 1 and gives unresolvable and pending a name but no number', () => {
    expect(RATING_VALUES).toEqual({ true: 5, mostly_true: 4, mixed: 3, mostly_false: 2, false: 1 });
    for (const outcome of OUTCOMES) {
      const r = claimReview({ ...base, outcome }, ctx) as { reviewRating: Record<string, unknown> };
      const value = (RATING_VALUES as Record<string, number | undefined>)[outcome];
      expect(r.reviewRating.ratingValue).toBe(value);
      expect(r.reviewRating.bestRating).toBe(value === undefined ? undefined : 5);
      expect(r.reviewRating.alternateName).toMatch(/ \(machine-generated, unreviewed\)$/);
    }
    expect(ratingScale().map((r) => r.outcome)).toEqual([...OUTCOMES]);
  });

  it('names the subject by its kind, links the claim on its page, and leaves out a source that is not http(s)', () => {
    const r = claimReview({ ...base, outcome: 'true' }, { ...ctx, siteUrl: 'https://rs.example', subject: { name: 'Ann', kind: 'person' } }) as Record<string, any>;
    expect(r.url).toBe('https://rs.example/reports/rep_1/#clm_1');
    expect(r.itemReviewed.author).toEqual({ '@type': 'Person', name: 'Ann' });
    expect(r.itemReviewed.appearance.url).toBe('https://a.example/x');
    const bad = claimReview({ ...base, outcome: 'false', source: { url: 'javascript:alert(1)', title: null, outlet: null } }, ctx) as Record<string, any>;
    expect(bad.itemReviewed.appearance).toBeUndefined();
    expect((claimReview({ ...base, outcome: 'mixed' }, { ...ctx, subject: { name: 'Daily', kind: 'outlet' } }) as Record<string, any>).itemReviewed.author['@type']).toBe('NewsMediaOrganization');
  });
});
