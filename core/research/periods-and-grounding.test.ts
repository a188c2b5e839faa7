import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { figuresJudge } from './judge-figures.ts';
import { sentenceSpans } from './judge-text.ts';
import { partMeets, partOfYear } from './periods.ts';
import { claimActors, figureBelongsToOther, groundSentences, rowOfOther } from './grounding.ts';

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
    // A ceiling is what is on offer: a lower one in the source does not bear it out.
    expect(judge('Our Starter Deposit scheme paid up to £15,000 towards a deposit in 2024.', '2025-05-01', 'The Starter Deposit scheme paid up to £13,000 towards a deposit in 2024.', '2025-06-01').outcome).not.toBe('true');
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

describe('figures of a group, and rows of a peers table', () => {
  const actors = claimActors('We own 146 pubs.', { name: 'Hollin & Vane Brewing', kind: 'organisation', aliases: ['Hollin & Vane'] });
  it('takes a figure of several bodies together as none of theirs', () => {
    for (const s of ['Between them they own 291 of the region\'s 1,480 pubs.', 'The five largest parcel fleets added 2,370 vans.', 'Cargo handled at the four ports totalled 25.8 million tonnes.']) {
      expect(figureBelongsToOther(s, s.search(/\d[\d,.]*\s+(?:of|vans|million)/), actors), s).toBe(true);
    }
    const own = 'Hollin & Vane owned 139 pubs at the end of 2024.';
    expect(figureBelongsToOther(own, own.indexOf('139'), actors)).toBe(false);
  });

  it("leaves out a row of another body in a table that lists bodies, and keeps one that names them in any cell", () => {
    expect(rowOfOther('Brackwater | 6.38 | 6.40', 'Port | 2023 | 2024', claimActors('The port handled 6.4 million tonnes.', { name: 'Saltmere Harbour Authority', kind: 'organisation', aliases: [] }))).toBe(true);
    expect(rowOfOther('Saltmere | 5.71 | 6.11', 'Port | 2023 | 2024', claimActors('The port handled 6.4 million tonnes.', { name: 'Saltmere Harbour Authority', kind: 'organisation', aliases: [] }))).toBe(false);
    expect(rowOfOther('Evening Weather | Westmoor Broadcasting | 1.28', 'Programme | Broadcaster | 2024', claimActors('Evening Weather reached 1.4 million.', { name: 'Westmoor Broadcasting', kind: 'organisation', aliases: [] }))).toBe(false);
    // A table whose rows are measures ("Revenue | 4,276 | 4,618") is no list of bodies.
    expect(rowOfOther('Revenue | 4,276 | 4,618', 'Item | 2023 | 2024', actors)).toBe(false);
  });

  it('reads a claim that names no period as the latest one a row gives that had ended when it was said', () => {
    const row = [{ url: 'https://filings.example/1', publisher: 'Calder Securities Commission', published: '2025-03-31', quote: 'Annual recurring revenue at year end ($ millions) | 349.0 | 409.5', table_header: 'Item | FY2023 | FY2024', independent_of_subject: true, relevance: 0.6, sentences: ['Annual recurring revenue at year end ($ millions) | 349.0 | 409.5'] }];
    const c = claimOf('Annual recurring revenue reached $412 million at year end.', '2025-02-20');
    expect(figuresJudge({ claim: c, items: row }).outcome).toBe('true');
    const season = [{ ...row[0]!, quote: 'Harrowdale | 436 | 471', table_header: 'Ski area | Patrol incidents 2024/25 | Patrol incidents 2025/26', sentences: ['Harrowdale | 436 | 471'] }];
    expect(figuresJudge({ claim: claimOf('Our patrollers dealt with 412 incidents last season.', '2025-10-20'), items: season }).outcome).toBe('mostly_true');
  });
  it('does not take a figure that names no period, published before the claimed year was over, for that year', () => {
    const claim = 'Harrowdale Dairy collected 412 million litres of milk in 2025.';
    expect(judge(claim, '2026-02-10', 'Harrowdale Dairy collected 300 million litres of milk.', '2025-03-18').outcome).toBe('unresolvable');
    expect(judge(claim, '2026-02-10', 'Harrowdale Dairy collected 300 million litres of milk.', '2026-03-18').outcome).toBe('false');
  });
});
