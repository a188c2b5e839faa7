import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { heldLevel } from './judge-hold.ts';
import { judgeClaim } from './judge.ts';
import { readQuantities } from './quantities.ts';

// The holds judge and the money it reads in words. Invented subjects and publishers.

const body = { name: 'Tarn Valley Buses', kind: 'organisation' as const, aliases: [], urls: ['https://tarn-buses.example'] };
const claimOf = (text: string, published = '2024-07-02') => {
  const [c] = candidateClaims({ url: 'https://tarn-buses.example/news', title: 'News', publisher: 'Tarn Valley Buses', published, speakers: ['Tarn Valley Buses'], text }, body);
  if (!c) throw new Error(`no claim in "${text}"`);
  return c;
};
const item = (quote: string, published: string) => ({ url: `https://tarn-courier.example/${published}`, publisher: 'Tarn Courier', published, quote, independent_of_subject: true, relevance: 0.6 });

describe('holds: a level kept to a date', () => {
  it('finds the held level, in figures or in words, only in a hold with an end', () => {
    expect(heldLevel('We will keep the adult single fare at £2 until the end of March 2025')?.value).toBe(2);
    expect(heldLevel('I can promise you the adult single will stay at two pounds until the end of this year.')?.value).toBe(2);
    expect(heldLevel('The day ticket will stay frozen at £5.50 throughout 2025')?.value).toBe(5.5);
    expect(heldLevel('We will cut the adult single fare to £2 in March')).toBeNull();
    expect(heldLevel('We will keep fares at £2')).toBeNull();
  });

  it('is broken by a change dated before the end, and kept by one dated after it', () => {
    const hold = 'I can promise you the adult single will stay at two pounds until the end of this year.';
    const rise = 'The adult single fare on Tarn Valley Buses went up from £2 to £2.30 on Sunday 1 September.';
    expect(judgeClaim(claimOf(hold), [item(rise, '2024-09-03')], '2025-03-01').outcome).toBe('false');
    const shorter = 'We will keep the adult single fare at £2 until the end of March 2024.';
    const kept = judgeClaim(claimOf(shorter, '2023-11-01'), [item(rise, '2024-09-03')], '2025-03-01');
    expect(kept.outcome).toBe('true');
  });

  it('is kept by a source after the end that reports the level unchanged, and left open by an undated change', () => {
    const hold = 'We will keep the price of a day ticket frozen at £5.50 throughout 2025.';
    expect(judgeClaim(claimOf(hold, '2025-01-10'), [item('The day ticket still costs £5.50, the price it has been since January 2024.', '2026-01-08')], '2026-02-01').outcome).toBe('true');
    expect(judgeClaim(claimOf(hold, '2025-01-10'), [item('The price of a day ticket went up from £5.50 to £6.', '2026-01-08')], '2026-02-01').outcome).toBe('unresolvable');
  });
});

describe('money in words', () => {
  it('reads "two pounds" and "three hundred and fifty million pounds" as money, and "between two and three per cent" as a span', () => {
    expect(readQuantities('at two pounds until the end of the year')[0]).toMatchObject({ value: 2, unit: 'money' });
    expect(readQuantities('spending more than three hundred and fifty million pounds on research')[0]).toMatchObject({ value: 350_000_000, unit: 'money' });
    expect(readQuantities('between two and three per cent')[0]).toMatchObject({ low: 2, high: 3, unit: 'percent' });
  });
});
