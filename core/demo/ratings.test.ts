import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLAIMREVIEW_TEXT, LIAR_RATINGS, PROMISE_STATUSES, claimReviewOutcome, forecastOutcome, liarOutcome, normaliseRating, numericOutcome, promiseOutcome,
} from './ratings.ts';

describe('rating mappings', () => {
  it('LIAR: true, mostly-true, half-true, barely-true, false, pants-fire', () => {
    expect(['true', 'mostly-true', 'half-true', 'barely-true', 'false', 'pants-fire'].map(liarOutcome)).toEqual(['true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'false']);
    expect(liarOutcome(' Half-True ')).toBe('mixed');
    expect(liarOutcome('half true')).toBeNull();
    expect(liarOutcome('misleading')).toBeNull();
  });

  it('promise statuses: kept, partly kept, broken; in progress and not started are pending', () => {
    expect(['Achieved', 'Compromised', 'Broken', 'In progress', 'Not started'].map(promiseOutcome)).toEqual(['true', 'mixed', 'false', 'pending', 'pending']);
    expect(promiseOutcome('in  PROGRESS')).toBe('pending');
    expect(promiseOutcome('Stalled')).toBeNull();
  });

  it('numeric ratings: position between worst and best, nearest of five credits', () => {
    expect([1, 2, 3, 4, 5].map((v) => numericOutcome(v, 5, 1))).toEqual(['false', 'mostly_false', 'mixed', 'mostly_true', 'true']);
    expect(numericOutcome('7', '7', '1')).toBe('true');
    // 1 to 7: 2 sits at 1/6 (nearest 0.25), 6 at 5/6 (nearest 0.75).
    expect(numericOutcome(2, 7, 1)).toBe('mostly_false');
    expect(numericOutcome(6, 7, 1)).toBe('mostly_true');
    // A reversed scale (best below worst) reads the same way.
    expect(numericOutcome(0, 0, 10)).toBe('true');
  });

  it('numeric ratings: a value half-way between two credits goes to the one nearer to mixed', () => {
    // 0 to 8: 1 = 0.125 (false|mostly_false), 3 = 0.375 (mostly_false|mixed), 5 = 0.625, 7 = 0.875.
    expect([1, 3, 5, 7].map((v) => numericOutcome(v, 8, 0))).toEqual(['mostly_false', 'mixed', 'mixed', 'mostly_true']);
  });

  it('numeric ratings: no scale, no outcome', () => {
    expect(numericOutcome(3, 3, 3)).toBeNull();
    expect(numericOutcome('n/a', 5, 1)).toBeNull();
    expect(numericOutcome(-1, 5, 1)).toBeNull();
    expect(numericOutcome(undefined, 5, 1)).toBeNull();
  });

  it('ClaimReview: the textual rating first, then the number (schema.org defaults 1 and 5), else unrated', () => {
    expect(claimReviewOutcome({ alternateName: 'Pants on Fire!', ratingValue: 5, bestRating: 5, worstRating: 1 })).toBe('false');
    expect(claimReviewOutcome({ alternateName: 'Mostly-True' })).toBe('mostly_true');
    expect(claimReviewOutcome({ alternateName: 'Misleading', ratingValue: 2 })).toBe('mostly_false');
    expect(claimReviewOutcome({ alternateName: 'Unproven' })).toBeNull();
    expect(claimReviewOutcome({ ratingValue: '4', bestRating: '4', worstRating: '0' })).toBe('true');
    expect(normaliseRating('  Half_True. ')).toBe('half true');
  });

  it('forecasts: 1 won (true), 0 lost (false)', () => {
    expect([forecastOutcome('1'), forecastOutcome('0'), forecastOutcome('0.5'), forecastOutcome('')]).toEqual(['true', 'false', null, null]);
  });
});

describe('content/methodology.md states the same mappings', () => {
  const text = readFileSync(new URL('../../content/methodology.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Measurement'), text.indexOf('## Versioning'));
  const row = (a: string, b: string) => new RegExp(`^\\| \`${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` \\| \`${b}\` \\|$`, 'mi');

  it('the LIAR and promise tables, row for row', () => {
    for (const [k, v] of Object.entries(LIAR_RATINGS)) expect(section).toMatch(row(k, v));
    for (const [k, v] of Object.entries(PROMISE_STATUSES)) expect(section).toMatch(row(k, v));
  });

  it('every textual ClaimReview rating, next to the numeric rule', () => {
    const flat = section.replace(/\s+/g, ' ');
    for (const k of Object.keys(CLAIMREVIEW_TEXT)) expect(flat).toContain(`\`${k}\``);
    expect(flat).toMatch(/schema\.org's defaults 1 and 5/);
    expect(flat).toMatch(/nearer to `mixed`/);
  });
});
