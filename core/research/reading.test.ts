import { describe, expect, it } from 'vitest';
import { readQuantities } from './quantities.ts';
import { readTableRow } from './table-figures.ts';
import { matchScore } from './judge-figures.ts';
import { checkedFigures } from './claim-figures.ts';
import { claimTerms, overlap } from './judge-text.ts';
import { candidateClaims } from './criteria.ts';
import { searchQuery, selectEvidence } from './evidence.ts';
import { claimActors, figureBelongsToOther, refersBack } from './grounding.ts';
import { judgeClaim } from './judge.ts';
import type { EvidenceItem } from './evidence.ts';

// How figures and passages are read: invented subjects and publishers throughout.

const subject = { name: 'Tarrow Fire Service', kind: 'organisation' as const, aliases: ['Tarrow FRS'], urls: ['https://tarrow-fire.example'] };
const known = { subject_id: 's1', serving_politician: false, demo: false, offices: [], handles: [], public_figure: true, description: null, ...subject };
const own = (text: string, published = '2024-06-01') => ({
  url: 'https://tarrow-fire.example/news/a', title: 'News', publisher: 'Tarrow Fire Service', published, speakers: ['Tarrow Fire Service'], text,
});
const claimOf = (text: string, fragment: string, published?: string) => {
  const c = candidateClaims(own(text, published), subject).find((x) => x.quote.includes(fragment));
  if (!c) throw new Error(`no claim with "${fragment}"`);
  return c;
};
let n = 0;
const item = (quote: string, published = '2024-09-01', header?: string): EvidenceItem => ({
  url: `https://stats-office.example/${(n += 1)}`, publisher: 'Tarrow Statistics Office', published, quote, independent_of_subject: true, relevance: 0.5,
  ...(header ? { table_header: header, table_rows: 3 } : {}),
});

describe('figures as they are written', () => {
  it('reads "8 minutes 12 seconds" as one span of time', () => {
    const [r] = readQuantities('Crews reached dwelling fires in an average of 8 minutes 12 seconds in 2023.');
    expect(r?.unit).toBe('duration');
    expect(r?.value).toBeCloseTo(8.2, 5);
  });

  it('reads "8:41" under a heading of times as minutes and seconds, and nothing else in it', () => {
    const cells = readTableRow('Tarrow FRS | 6,930 | 8:41', 'Service | Incidents | Average response time (min:sec)');
    const times = cells.filter((c) => c.unit === 'duration');
    expect(times).toHaveLength(1);
    expect(times[0]!.value).toBeCloseTo(8 + 41 / 60, 5);
    expect(cells.some((c) => c.value === 41)).toBe(false);
  });

  it('reads a decimal said in words', () => {
    const [r] = readQuantities('Inflation was two point seven per cent in December.');
    expect(r?.unit).toBe('percent');
    expect(r?.value).toBeCloseTo(2.7, 5);
  });

  it('reads "made up 41%" as a share, not a rise', () => {
    const [r] = readQuantities('False alarms made up 41% of incidents.');
    expect(r?.kind).toBe('level');
  });

  it('reads "nearly N" as the range from 95% of N to N', () => {
    const [r] = readQuantities('Nearly two in five parcels went to children.');
    expect(r?.low).toBeCloseTo(38, 5);
    expect(r?.high).toBeCloseTo(40, 5);
  });

  it('answers "by the end of 2025" with the last quarter of 2025, and a year with no quarter', () => {
    const [c] = checkedFigures('We expect unemployment to rise to more than 6% by the end of 2025', 'prediction');
    const [q4] = readQuantities('The unemployment rate rose to 5.9% in the fourth quarter of 2025.');
    const [q2] = readQuantities('The unemployment rate rose to 5.9% in the second quarter of 2025.');
    expect(matchScore(c!, q4!, 'prediction')).not.toBeNull();
    expect(matchScore(c!, q2!, 'prediction')).toBeNull();
    const [year] = checkedFigures('Unemployment averaged 6% in 2025', 'factual');
    expect(matchScore(year!, q4!, 'factual')).toBeNull();
  });
});

describe('passages that bear on a claim', () => {
  it('a change the other way of the same thing bears on it, and is asked for', () => {
    const c = claimOf('Complaints fell by 12% compared with the previous year.', 'Complaints fell');
    const ct = claimTerms(c);
    expect(overlap(ct, 'Complaints about the service rose by 7.0% to 4,310.').anchors).toBeGreaterThanOrEqual(2);
    expect(searchQuery(c)).toMatch(/\bComplaints rose\b/i);
  });

  it('asks for the claim\'s own words, not their lemmas', () => {
    const c = claimOf('More than a third of the parcels went to children in 2023.', 'parcels');
    expect(searchQuery(c)).toContain('children');
    expect(searchQuery(c)).not.toMatch(/\bthird\b/);
  });

  it('"Of these, …" continues the sentence before it', () => {
    expect(refersBack('Of these, 380,000 (33 per cent) were for children.')).toBe(true);
    expect(refersBack('Four hundred were for children.')).toBe(false);
  });

  it('a figure for the whole field is not the subject\'s', () => {
    const actors = claimActors('False alarms make up nearly half of our incidents', subject);
    const s = 'Tarrow Fire Service attended 6,930 incidents, of which 3,260 (47%) were false alarms; across all services, false alarms made up 41% of incidents.';
    expect(figureBelongsToOther(s, s.indexOf('47%'), actors)).toBe(false);
    expect(figureBelongsToOther(s, s.indexOf('41%'), actors)).toBe(true);
  });

  it('judges the subject\'s share against the subject\'s figure, not the field\'s', () => {
    const c = claimOf('False alarms now make up nearly half of all the incidents we attend.', 'False alarms');
    const ev = selectEvidence(c, known, [{ url: 'https://stats-office.example/fire', title: 'Fire statistics', publisher: 'Tarrow Statistics Office', published: '2024-08-01', speakers: [], text: 'Tarrow Fire Service attended 6,930 incidents in the year ending March 2024, of which 3,260 (47%) were false alarms; across all services, false alarms made up 41% of incidents.' }], 5);
    expect(ev).toHaveLength(1);
    expect(judgeClaim(c, ev, '2025-01-01', claimActors(c.quote, subject)).outcome).toBe('true');
  });
});

describe('a run that was broken', () => {
  it('"every year since" against "in every year since … except" is false', () => {
    const c = claimOf('We have met our 10-minute response standard for dwelling fires every year since 2019.', 'every year since');
    const v = judgeClaim(c, [item('Tarrow Fire Service met its 10-minute response standard for dwelling fires in every year since 2019-20 except 2021-22.', '2024-09-01')], '2025-01-01');
    expect(v.outcome).toBe('false');
  });

  it('"every year since" against "in every year since" with no exception is not made false', () => {
    const c = claimOf('We have met our 10-minute response standard for dwelling fires every year since 2019.', 'every year since');
    const v = judgeClaim(c, [item('Tarrow Fire Service met its 10-minute response standard for dwelling fires in every year since 2019-20.', '2024-09-01')], '2025-01-01');
    expect(v.outcome).not.toBe('false');
  });
});

describe('records, runs of years and the year a claim speaks of', () => {
  const homes = { name: 'Kelby Homes', kind: 'organisation' as const, aliases: [], urls: ['https://kelby-homes.example'] };
  const said = (text: string, published: string) => candidateClaims({ url: 'https://kelby-homes.example/news/a', title: 'News', publisher: 'Kelby Homes', published, speakers: ['Kelby Homes'], text }, homes)[0]!;
  const regulator = (quote: string, published: string): EvidenceItem => ({ url: `https://regulator.example/${(n += 1)}`, publisher: 'Housing Standards Regulator', published, quote, independent_of_subject: true, relevance: 0.5 });

  it('a figure right and a record that is not one is mixed', () => {
    const c = said('We completed 436 new homes in 2024/25, our highest total ever.', '2025-06-01');
    expect(judgeClaim(c, [regulator('Kelby Homes completed 431 new homes in 2024/25, its most since 2019/20, when it completed 452.', '2025-09-18')], '2026-01-01').outcome).toBe('mixed');
  });

  it('a record the source confirms is not made mixed', () => {
    const c = said('We completed 436 new homes in 2024/25, our highest total ever.', '2025-06-01');
    expect(judgeClaim(c, [regulator('Kelby Homes completed 431 new homes in 2024/25.', '2025-09-18')], '2026-01-01').outcome).toBe('true');
  });

  it('a change "since 2019" is computed from the levels a source dates in prose, leaving out a year not yet over', () => {
    const c = said('Use of our homes scheme has grown by a third since 2019.', '2024-06-20');
    const v = judgeClaim(c, [regulator('Use of the Kelby Homes scheme rose to 17.2 thousand in 2024, up from 15.6 thousand in 2023 and 12.0 thousand in 2019.', '2024-09-01')], '2025-01-01');
    // 12.0 → 15.6 is +30%: "a third" is 11% off. (12.0 → 17.2, +43%, is for 2024, not over when it was said.)
    expect(v.outcome).toBe('mostly_false');
  });

  it('a past-tense claim about "the year" is not held to a year that had not ended', () => {
    const c = said('We ended the year with net debt of $1.2 billion.', '2025-02-20');
    expect(judgeClaim(c, [regulator('Kelby Homes returned $480 million to shareholders in 2025; net debt ended the year at $1.06 billion.', '2025-12-20')], '2026-01-01').outcome).toBe('unresolvable');
  });
});

describe('what a speaker says that is checkable', () => {
  const ceo = { name: 'Rowena Castell', kind: 'person' as const, aliases: [], urls: [] };
  const quotes = (text: string, speakers = ['Rowena Castell']) =>
    candidateClaims({ url: 'https://courier.example/a', title: 'Interview', publisher: 'Kelby Courier', published: '2025-01-14', speakers, text }, ceo).map((c) => c.quote);

  it('courtesy to a caller is not a claim; a record stated with "never" is', () => {
    const text = 'Host: Marcus is on the line.\nRowena Castell: I\'m sorry to hear that, Marcus. We have never been fined by the regulator. I understand the worry, Pat.';
    expect(quotes(text)).toEqual(['We have never been fined by the regulator.']);
  });

  it('"she went on to say that…" reports her words', () => {
    expect(quotes('Rowena Castell runs the supplier. She went on to say that the company had cut its standing charge by a tenth in October.')).toContain('She went on to say that the company had cut its standing charge by a tenth in October.');
  });

  it('a quotation whose verb a tagger misreads ("income … rose") is still read', () => {
    expect(quotes('Rowena Castell told the Courier that the charity was in good shape.\n"Our income from public donations rose by 12 per cent in 2023-24, to £41.6m," she said.')).toContain('Our income from public donations rose by 12 per cent in 2023-24, to £41.6m');
  });

  it('a speaker called by a shorter first name ("Ro Castell") is still the speaker a pronoun points back to', () => {
    const text = 'Its chief executive, Ro Castell, sat down with us last week.\n"We will start building 150 homes at Kiln Lane before the end of 2025," she said.';
    expect(quotes(text)).toContain('We will start building 150 homes at Kiln Lane before the end of 2025');
  });

  it('a forecast of another body\'s figure is a prediction, not guidance', () => {
    const c = candidateClaims({ url: 'https://courier.example/b', title: 'Interview', publisher: 'Kelby Courier', published: '2025-01-14', speakers: ['Kelby Homes'], text: '"We expect the council\'s housing waiting list to pass 9,000 households by the end of 2026," Kelby Homes said.' }, { name: 'Kelby Homes', kind: 'organisation', aliases: [], urls: [] });
    expect(c[0]?.claim_type).toBe('prediction');
  });
});

describe('sentences that are not claims', () => {
  const body = { name: 'Kelby Homes', kind: 'organisation' as const, aliases: [], urls: ['https://kelby.example'] };
  const kept = (sentence: string) => candidateClaims({ url: 'https://kelby.example/a', title: 'News', publisher: 'Kelby Homes', published: '2025-01-14', speakers: ['Kelby Homes'], text: sentence }, body).length > 0;

  it.each([
    'Frankly, some of the criticism we get is ten years out of date.',
    "I'm confident about that one.",
    'That is still too many, and I won\'t pretend otherwise.',
    'The Institute believes the Bank of Pellow has kept interest rates too high for too long.',
    'We will continue to bring rigour and independence to the debate about housing.',
    'We want every tenant in Kelby to feel the homes are theirs.',
    'To book a viewing, call our lettings team on 01632 960 418.',
    'If you are worried about damp, call our free repairs line and we will arrange a visit.',
    'Tenants are asked to take care on Harbour Road while the paths are relaid.',
    'There is a chance, no more, that rents fall before the summer.',
    'KELBY BRIDGE, Wis., Feb. 5, 2025',
  ])('drops "%s"', (sentence) => {
    expect(kept(sentence)).toBe(false);
  });

  it.each([
    "With our reservoirs in good shape, I don't expect a hosepipe ban this summer.",
    'We completed 431 new homes in 2024/25.',
    'We will start building 150 homes at Kiln Lane before the end of 2025.',
  ])('keeps "%s"', (sentence) => {
    expect(kept(sentence)).toBe(true);
  });
});

describe('a run of periods read against a table', () => {
  const office = { name: 'Pellow Economics', kind: 'organisation' as const, aliases: [], urls: ['https://pellow-economics.example'] };
  const stats = (text: string, published = '2025-03-01') => ({ url: `https://stats.example/${(n += 1)}`, title: 'Release', publisher: 'Pellow Statistics Office', published, speakers: [], text });
  const said = (sentence: string, published = '2025-01-10') => candidateClaims({ url: 'https://pellow-economics.example/a', title: 'Outlook', publisher: 'Pellow Economics', published, speakers: ['Pellow Economics'], text: sentence }, office)[0]!;
  const verdict = (sentence: string, table: string, today = '2026-01-01', published?: string) => {
    const c = said(sentence, published);
    return judgeClaim(c, selectEvidence(c, { ...known, ...office }, [stats(table)], 5), today, claimActors(c.quote, office));
  };
  const quarters = 'Quarterly figures.\nQuarter | GDP growth on previous quarter\nQ1 2024 | 0.2%\nQ2 2024 | 0.4%\nQ3 2024 | -0.1%\nQ4 2024 | 0.3%';

  it('"grew in each of the first two quarters" holds when each of them grew', () => {
    expect(verdict('The economy grew in each of the first two quarters of 2024.', quarters).outcome).toBe('true');
  });

  it('"grew in each quarter of 2024" fails on the quarter it shrank', () => {
    const v = verdict('The economy grew in each quarter of 2024.', quarters);
    expect(v.outcome).toBe('false');
    expect(v.rationale).toMatch(/did not rise/);
  });

  it('levels by year: "has gone up every year since 2019" fails on a year it fell', () => {
    const table = 'Table 2: food bank use by year\nYear | Food bank use (%) | Food insecurity (%)\n2019-20 | 2.1 | 7.9\n2020-21 | 2.9 | 8.8\n2021-22 | 2.7 | 9.6\n2022-23 | 3.3 | 10.4';
    expect(verdict('Food bank use has gone up every single year since 2019.', table, '2026-01-01', '2024-06-10').outcome).toBe('false');
  });

  it('a bound in every quarter fails on the quarter it is not met', () => {
    const table = 'Unemployment rate by quarter.\nQuarter | Unemployment rate\nQ1 2024 | 5.2%\nQ2 2024 | 5.3%\nQ3 2024 | 5.5%\nQ4 2024 | 5.4%';
    expect(verdict("We'd expect unemployment to stay below 5.5% in every quarter of 2024.", table, '2025-06-01', '2024-01-10').outcome).toBe('false');
  });
});

describe('another party\'s statement', () => {
  it('is not evidence about the subject, though it names it', () => {
    const c = claimOf('Tarrow Fire Service answered 95% of calls within ten seconds in 2023.', 'answered 95%');
    const rival = { url: 'https://other-fire.example/news', title: 'News', publisher: 'Brayle Fire Service', published: '2024-03-01', speakers: ['Brayle Fire Service'], text: 'Tarrow Fire Service answered 80% of calls within ten seconds in 2023, well behind us.' };
    expect(selectEvidence(c, known, [rival], 5)).toEqual([]);
    const finding = { ...rival, url: 'https://stats-office.example/calls', publisher: 'Tarrow Statistics Office', speakers: [] };
    expect(selectEvidence(c, known, [finding], 5)).toHaveLength(1);
  });
});

describe('the figure of a sentence that measures the claimed thing', () => {
  it('"88.6% of our trains arrived on time" is held to the on-time figure, not the cancelled share beside it', () => {
    const c = claimOf('In the year to 31 March 2024, 88.6% of our trains arrived on time.', '88.6%', '2024-05-14');
    const v = judgeClaim(c, [item("Tarrow Fire Service's on-time measure was 84.1% in 2023-24, up from 81.7% the year before, while 3.2% of its trains were cancelled.", '2024-06-27')], '2025-01-01', claimActors(c.quote, subject));
    expect(v.rationale).toContain('against the reported 84.1%');
    expect(v.outcome).toBe('mostly_true');
  });
});

describe('words about another year or a dating clause', () => {
  const body = { name: 'Pellow Economics', kind: 'organisation' as const, aliases: [], urls: ['https://pellow-economics.example'] };
  const said = (sentence: string, published = '2024-01-10') => candidateClaims({ url: 'https://pellow-economics.example/a', title: 'Outlook', publisher: 'Pellow Economics', published, speakers: ['Pellow Economics'], text: sentence }, body)[0]!;
  const office = (quote: string, published: string): EvidenceItem => ({ url: `https://stats.example/${(n += 1)}`, publisher: 'Pellow Statistics Office', published, quote, independent_of_subject: true, relevance: 0.5 });

  it('a rise reported for another year does not speak to "will not fall in 2024"', () => {
    const c = said('House prices will not fall in 2024.');
    const v = judgeClaim(c, [office('Average house prices fell by 1.8% in the year to December 2024.', '2025-01-20'), office('Average house prices rose by 3.4% in the year to December 2025.', '2026-01-20')], '2026-06-01');
    expect(v.outcome).toBe('false');
  });

  it('the verb of a clause that only dates the claim is not its action', () => {
    const c = said('Nobody in Kelby has been hurt in a fire since the station closed.', '2025-06-01');
    const v = judgeClaim(c, [office('The service closed Kelby fire station on 1 December 2024.', '2025-03-18')], '2026-01-01');
    expect(v.outcome).toBe('unresolvable');
  });
});

describe('deeds reported in other words', () => {
  const club = { name: 'Kelby Rovers', kind: 'organisation' as const, aliases: [], urls: ['https://kelby-rovers.example'] };
  const said = (sentence: string) => candidateClaims({ url: 'https://kelby-rovers.example/a', title: 'News', publisher: 'Kelby Rovers', published: '2024-07-22', speakers: ['Kelby Rovers'], text: sentence }, club)[0]!;
  const post = (quote: string, published: string): EvidenceItem => ({ url: `https://post.example/${(n += 1)}`, publisher: 'Kelby Evening Post', published, quote, independent_of_subject: true, relevance: 0.5 });

  it('a named facility promised open, reported open late: kept late', () => {
    const c = said('The new Riverside Stand will open to supporters by December 2024.');
    expect(c.claim_type).toBe('promise');
    const v = judgeClaim(c, [post("The Riverside Stand finally opened its doors today, almost two months after the club's December target.", '2025-02-22')], '2026-01-01', claimActors(c.quote, club));
    expect(v).toMatchObject({ outcome: 'true', on_time: false });
  });

  it('a station that "took its first 999 call" has opened', () => {
    const c = said('We will open a new full-time fire station at Daneford Road by the end of 2025.');
    const v = judgeClaim(c, [post("The new fire station at Daneford Road took its first 999 call on 1 December 2025.", '2025-12-03')], '2026-01-01', claimActors(c.quote, club));
    expect(v).toMatchObject({ outcome: 'true', on_time: true });
  });
});

describe('types read from how a thing is said', () => {
  const body = { name: 'Kelby Homes', kind: 'organisation' as const, aliases: [], urls: ['https://kelby.example'] };
  const typeOf = (sentence: string, speakers = ['Kelby Homes'], publisher = 'Kelby Homes', url = 'https://kelby.example/a') =>
    candidateClaims({ url, title: 'News', publisher, published: '2025-01-14', speakers, text: sentence }, body)[0]?.claim_type;

  it.each([
    ['Proud that all 150 of our promised new homes opened their doors this winter.', 'factual'],
    ['Accidental house fires are down 10% in two years and fire deaths have halved.', 'factual'],
    ['Most damp and mould cases are now closed within 28 days.', 'factual'],
    ['My expectation is that interest rates come down this winter, by something like half a point.', 'prediction'],
  ])('"%s" is %s', (sentence, type) => {
    expect(typeOf(sentence)).toBe(type);
  });

  it('"would" in reported speech about someone else is a forecast', () => {
    expect(typeOf('Kelby Homes added that Sallowford Builders would not finish a single home this year.', ['Kelby Homes'], 'Kelby Courier', 'https://courier.example/a')).toBe('prediction');
  });
});

describe('dates without a year, and dates with a day', () => {
  const firm = { name: 'Kelby Systems', kind: 'organisation' as const, aliases: [], urls: ['https://kelby-systems.example'] };
  const said = (sentence: string, published: string) => candidateClaims({ url: 'https://kelby-systems.example/a', title: 'Results', publisher: 'Kelby Systems', published, speakers: ['Kelby Systems'], text: sentence }, firm)[0]!;
  const filing = (quote: string): EvidenceItem => ({ url: `https://filings.example/${(n += 1)}`, publisher: 'Securities Disclosure Commission', published: '2025-08-06', quote, independent_of_subject: true, relevance: 0.5 });

  it('"at June 30", said in July 2025, is June 2025, and "June 30, 2025" is read as June 2025', () => {
    const c = said('Backlog stood at $2.6 billion at June 30.', '2025-07-29');
    const v = judgeClaim(c, [filing('Backlog at June 30, 2025 was $2,310 million, compared with $2,450 million at December 31, 2024.')], '2026-01-01', claimActors(c.quote, firm));
    expect(v.rationale).toContain('against the reported $2,310 million');
    expect(v.outcome).toBe('mostly_false');
  });

  it('a claim with one word of substance is searched for by that word alone too', () => {
    expect(searchQuery(said('Backlog stood at $2.6 billion at June 30.', '2025-07-29')).split(' OR ')).toContain('backlog');
  });
});

describe('counts of the claimed thing', () => {
  it('a sentence counting the claim\'s own thing is not read for its counts of other things', () => {
    const c = claimOf('Every one of our 41 fire engines now carries a thermal imaging camera.', '41 fire engines', '2025-02-04');
    const v = judgeClaim(c, [item('The Tarrow Fire Service station is crewed full-time by 28 firefighters and houses two fire engines.', '2025-06-03')], '2026-01-01', claimActors(c.quote, subject));
    expect(v.rationale).not.toContain('reported 28');
  });

  it('a sentence with a figure of the claim\'s kind and its words bears on it, though the value differs', () => {
    const c = claimOf('We expect to hand out more than 3.1 million parcels in the year to March.', 'parcels', '2024-11-05');
    const doc = { url: 'https://stats-office.example/parcels', title: 'Parcels', publisher: 'Tarrow Statistics Office', published: '2025-05-01', speakers: [], text: 'Tarrow Fire Service distributed 3,020,000 parcels in 2024-25, 1.3 per cent more than in 2023-24.' };
    expect(selectEvidence(c, known, [doc], 5)).toHaveLength(1);
  });
});

describe('places said in words', () => {
  const pundit = { name: 'Maisie Kelby', kind: 'person' as const, aliases: [], urls: ['https://maisie-kelby.example'] };
  const said = (sentence: string) => candidateClaims({ url: 'https://maisie-kelby.example/a', title: 'Preview', publisher: 'Maisie Kelby', published: '2024-08-02', speakers: ['Maisie Kelby'], text: sentence }, pundit)[0]!;
  const league = (quote: string): EvidenceItem => ({ url: `https://league.example/${(n += 1)}`, publisher: 'Pellow League', published: '2025-05-18', quote, independent_of_subject: true, relevance: 0.5 });
  const final = league('Fellgate Athletic are champions and are promoted with runners-up Brindmoor United.');

  it('"runners-up X" is second: "X will win the league" fails', () => {
    expect(judgeClaim(said('Brindmoor United will win the league this season.'), [final], '2025-09-01').outcome).toBe('false');
  });

  it('"to be crowned champions" claims first place', () => {
    expect(judgeClaim(said('I fancy Fellgate Athletic to be crowned champions this season.'), [final], '2025-09-01').outcome).toBe('true');
  });
});

describe('claims in words only', () => {
  const body = { name: 'Kelby Courier', kind: 'outlet' as const, aliases: [], urls: ['https://kelby-courier.example'] };
  const claims = (sentence: string) => candidateClaims({ url: 'https://kelby-courier.example/a', title: 'News', publisher: 'Kelby Courier', published: '2025-01-10', speakers: ['Kelby Courier'], text: sentence }, body);

  it.each([
    ['Test your smoke alarms once a month by pressing the test button.', 'guidance'],
    ['And put a smoke alarm in the kitchen as well, right above the cooker.', 'guidance'],
    ['Wiping mould off with diluted bleach is the best way to get rid of it.', 'guidance'],
    ['Most accidental house fires in this county start in the kitchen.', 'factual'],
    ['No other paper in the county sells more.', 'factual'],
    ['The Kelby Evening Courier is the best-selling daily newspaper in the county.', 'factual'],
    ['Our print sales and our website audience both grew over the past year.', 'factual'],
    ['The regulator cleared us over the hospital story.', 'factual'],
  ])('"%s" is a %s claim', (sentence, type) => {
    expect(claims(sentence).map((c) => c.claim_type)).toEqual([type]);
  });

  it('"Let me start with money." is not advice', () => {
    expect(claims('Let me start with money.')).toEqual([]);
  });
});
