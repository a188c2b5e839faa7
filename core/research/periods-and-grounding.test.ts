import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { figuresJudge } from './judge-figures.ts';
import { sentenceSpans } from './judge-text.ts';
import { partMeets, partOfYear } from './periods.ts';
import { claimActors, figureBelongsToOther, groundSentences } from './grounding.ts';

// A level at the year's close, a year named relative to the day a claim was made, a bound a source states,
// a figure in a clause that names the subject inside a place's name, and a sentence that refers back by a bare
// pronoun. Invented subjects throughout.

const coop = { name: 'Harrowdale Dairy Co-operative', kind: 'organisation' as const, aliases: ['Harrowdale Dairy'], urls: ['https://harrowdale-dairy.example'] };
const claimOf = (text: string, published: string) => {
  const [c] = candidateClaims({ url: `${coop.urls[0]}/news/${published}`, title: 'News', publisher: coop.name, published, speakers: [coop.name], text }, coop);
  if (!c) throw new Error(`no claim in "${text}"`);
  return c;
};
const items = (quote: string, published: string) => [{
  url: `https://farm-ledger.example/${published}`, publisher: 'Farm Ledger', published, quote, independent_of_subject: true, relevance: 0.6, sentences: sentenceSpans(quote).map((s) => quote.slice(s.start, s.end)),
}];
const judge = (claim: string, said: string, source: string, published: string) => {
  const c = claimOf(claim, said);
  return figuresJudge({ claim: c, items: items(source, published), actors: claimActors(c.quote, coop) });
};

describe('the year\'s close', () => {
  it('reads "end 2025 with", "ended the year" and "year-end" as the close of the year', () => {
    expect(partOfYear('We expect to end 2025 with around 65,000 members.')).toBe('end');
    expect(partOfYear('Net debt ended the year at $1.06 billion.')).toBe('end');
    expect(partOfYear('The land bank stood at 41,300 plots at the year end.')).toBe('end');
    expect(partOfYear('Membership rose in 2025.')).toBeNull();
  });

  it('answers a claim about the year with the level at its close, and not a quarter with it', () => {
    expect(partMeets(null, 'end')).toBe(true);
    expect(partMeets('q2', 'end')).toBe(false);
    expect(judge('We expect to end 2025 with around 65,000 members.', '2025-01-28', 'The accounts for 2025, filed last month, record 63,100 members at the end of the year.', '2026-03-18').outcome).toBe('mostly_true');
  });
});

describe('a year named relative to the day it was said', () => {
  it('reads "this year" and "last year" in a statement of fact as the calendar year said, or the one before', () => {
    expect(judge('At the peak of works this year more than 1,100 people were working on the site.', '2024-10-10', 'The workforce on site peaked at about 950 people in spring 2024.', '2025-06-01').outcome).toBe('false');
    // Another year's figure does not answer it.
    expect(judge('At the peak of works this year more than 1,100 people were working on the site.', '2024-10-10', 'The workforce on site peaked at about 950 people in spring 2023.', '2025-06-01').outcome).toBe('unresolvable');
    expect(judge('Our members supplied 640 million litres of milk last year.', '2025-02-10', 'Its members supplied 598 million litres of milk in 2024.', '2025-09-01').outcome).toBe('mostly_true');
  });
});

describe('a bound the source states', () => {
  it('settles a bound claimed the same way when it is as strict, and says nothing when it is looser', () => {
    const claim = 'Since 1 July 2025 every member of staff has been paid at least £13.50 an hour.';
    expect(judge(claim, '2025-08-01', 'A payroll audit confirmed that all directly employed staff are paid at least £13.50 an hour.', '2025-09-15').outcome).toBe('true');
    expect(judge(claim, '2025-08-01', 'A payroll audit confirmed that all directly employed staff are paid at least £14 an hour.', '2025-09-15').outcome).toBe('true');
    expect(judge(claim, '2025-08-01', 'A payroll audit confirmed that all directly employed staff are paid at least £12 an hour.', '2025-09-15').outcome).toBe('unresolvable');
  });
});

describe('whose figure a clause gives', () => {
  it("takes a figure as the subject's when its clause names the subject inside a place's name", () => {
    const actors = claimActors('The contract for the new creamery is worth £118 million.', coop);
    const s = "Filings show that the contract for Harrowdale Dairy's Storrow Bridge Depot, signed with Hollin Construction in February 2025, is worth £142.5m.";
    expect(figureBelongsToOther(s, s.indexOf('£142.5m'), actors)).toBe(false);
    const other = 'Filings show that Hollin Construction, a builder, is worth £142.5m.';
    expect(figureBelongsToOther(other, other.indexOf('£142.5m'), actors)).toBe(true);
  });

  it('carries the subject to a sentence that refers back by a bare pronoun', () => {
    const actors = claimActors('We now have more than 1,100 member farms.', coop);
    const grounded = groundSentences(['Harrowdale Dairy is a farmer-owned co-operative.', 'At 31 March 2025 it had 1,086 member farms.', 'Some 40 miles away, the weather was fine.'], actors);
    expect(grounded).toEqual([true, true, false]);
  });
});
