import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { judgeClaim } from './judge.ts';
import { readQuantities } from './quantities.ts';
import { readTableRow } from './table-figures.ts';
import { peerCondition, peersFinding } from './judge-peers.ts';
import { sentenceSpans, stem } from './judge-text.ts';
import { selectEvidence } from './evidence.ts';
import { figuresJudge, matchScore } from './judge-figures.ts';

// Tables read as a careful reader reads them (a heading's unit, a change column, a rate column), places
// among the peers a table lists, denied bounds, and irregular word forms. Invented subjects throughout.

const body = { name: 'Holloway Ridge Airport', kind: 'organisation' as const, aliases: ['Holloway Ridge'], urls: ['https://holloway-ridge.example'] };
const claimOf = (text: string, published = '2025-03-02', subject = body) => {
  const [c] = candidateClaims({ url: `${subject.urls[0]}/news`, title: 'News', publisher: subject.name, published, speakers: [subject.name], text }, subject);
  if (!c) throw new Error(`no claim in "${text}"`);
  return c;
};
const item = (quote: string, extra: Record<string, unknown> = {}, published = '2025-06-18') => ({
  url: `https://aviation-stats.example/${published}/${quote.length}`, publisher: 'Aviation Standards Office', published, quote, independent_of_subject: true, relevance: 0.6, ...extra,
});

const HEADER = 'Airport | Region | Terminal passengers | Change on 2023 (%) | Average security wait (min) | Complaints per 100,000 passengers';
const ROWS = ['Holloway Ridge | Upper Fen | 2,138,400 | 6.2 | 9.4 | 12', 'Tarnmouth | Upper Fen | 2,410,900 | 3.1 | 7.2 | 9', 'Sallow Cross | Upper Fen | 1,002,300 | -1.8 | 5.1 | 21', 'Kelby Bay | Western Reach | 3,877,000 | 8.9 | 8.0 | 15'];

describe('a table read under its headings', () => {
  it('takes a unit a heading names in brackets for the bare cells under it, and a working day as a fifth of a week', () => {
    const wait = readTableRow(ROWS[0]!, HEADER).find((r) => r.text === '9.4');
    expect(wait).toMatchObject({ unit: 'duration', value: 9.4, duration: false });
    const [days] = readTableRow('Wyvern Networks | 82', 'Operator | Time to connection offer (working days)');
    expect(days).toMatchObject({ unit: 'duration' });
    expect(days!.value / (7 * 24 * 60)).toBeCloseTo(16.4, 5);
    const [miles] = readTableRow('Route 1 | 12.5', 'Route | Length (km)');
    expect(miles).toMatchObject({ unit: 'length', value: 12_500 });
  });

  it('reads a column that says only "Change" as a change of the column before it, and a rate column as a rate', () => {
    const cells = readTableRow(ROWS[0]!, HEADER);
    const change = cells.find((r) => r.text === '6.2')!;
    expect(change).toMatchObject({ kind: 'change', unit: 'percent' });
    expect([...change.context]).toContain('passenger');
    expect(cells.find((r) => r.text === '12')).toMatchObject({ rate: true });
    expect(readQuantities('There were 905 complaints per 100,000 accounts.')[0]).toMatchObject({ rate: true });
    expect(readQuantities('There were 905 complaints last year.')[0]?.rate).toBe(false);
  });

  it('judges a wait, a change and a count against the subject\'s row', () => {
    const items = [item(ROWS[0]!, { table_header: HEADER, table_rows: 4 })];
    expect(judgeClaim(claimOf('The average wait at security was below eight minutes.'), items, '2025-12-01').outcome).toBe('false');
    expect(judgeClaim(claimOf('Passenger numbers grew by 9 per cent compared with 2023.'), items, '2025-12-01').outcome).toBe('false');
    expect(judgeClaim(claimOf('Passenger numbers grew by 6 per cent compared with 2023.'), items, '2025-12-01').outcome).toMatch(/true/);
    // A count of complaints is not the rate per 100,000 passengers.
    expect(judgeClaim(claimOf('Fewer than 20 passengers complained to us last year.'), items, '2025-12-01').outcome).toBe('unresolvable');
  });
});

describe('a place among the peers a table lists', () => {
  it('reads the place a claim states', () => {
    expect(peerCondition('We are now the second-largest contractor in the country by output.')).toMatchObject({ within: 2, exact: true, descending: true });
    expect(peerCondition('We are one of the three forces with the lowest crime rate.')).toMatchObject({ within: 3, exact: false, descending: false });
    expect(peerCondition('We built more new mast sites than any other operator.')).toMatchObject({ within: 1, descending: true, change: false });
    expect(peerCondition('We grew output faster than any other contractor last year.')).toMatchObject({ within: 1, change: true });
    expect(peerCondition('No other airport in the region handled as many.')).toMatchObject({ within: 1, descending: true });
    // A record is not a place among peers.
    expect(peerCondition('This is the biggest investment since the airport opened in 1968.')).toBeNull();
    expect(peerCondition('Our highest total ever.')).toBeNull();
  });

  const table = (quote: string, header = HEADER) => [{ ...item(quote, { table_header: header, table_rows: quote.split('\n').length }), sentences: quote.split('\n') }];

  it('ranks the subject by the column that names the measure, among the rows of the place the claim names', () => {
    const rank = (text: string) => peersFinding({ claim: claimOf(text), items: table(ROWS.join('\n')) });
    // Among Upper Fen's three airports, Holloway Ridge is second by passengers.
    expect(rank('Holloway Ridge handled more terminal passengers than any other airport in Upper Fen.')?.outcome).toBe('false');
    expect(rank('We are the second-busiest airport in Upper Fen by terminal passengers.')?.outcome).toBe('true');
    expect(rank('We have the second-largest number of terminal passengers in Upper Fen.')?.outcome).toBe('true');
    // Kelby Bay (Western Reach) grew faster, but the claim is about Upper Fen.
    expect(rank('Our terminal passengers grew faster than at any other airport in Upper Fen.')?.outcome).toBe('true');
    // A rate is ranked by the rate column: 12 per 100,000 is the second lowest of the three.
    expect(rank('We are one of the two airports in Upper Fen with the lowest complaints rate.')?.outcome).toBe('true');
  });

  it('leaves out rows that sum the others, reads a name in a later column, and settles nothing on a tie or an unknown measure', () => {
    const header = 'Rank | Contractor | Output 2024 (£m) | Public-sector share of output';
    const rows = '1 | Halvergate Group | 3,050 | 38%\n2 | Thornmoor Builders | 2,710 | 44%\n3 | Holloway Ridge | 2,220 | 61%\n– | All contractors | 41,600 | 47%';
    const claim = (text: string) => claimOf(text, '2025-06-10');
    expect(peersFinding({ claim: claim('We are now the second-largest contractor in the country by output.'), items: table(rows, header) })?.outcome).toBe('false');
    expect(peersFinding({ claim: claim('We are now the third-largest contractor in the country by output.'), items: table(rows, header) })?.outcome).toBe('true');
    expect(peersFinding({ claim: claim('We had the largest order book of any contractor in 2024.'), items: table(rows, header) })).toBeNull();
    const tied = '1 | Halvergate Group | 2,220 | 38%\n2 | Thornmoor Builders | 2,710 | 44%\n3 | Holloway Ridge | 2,220 | 61%';
    expect(peersFinding({ claim: claim('We are now the second-largest contractor in the country by output.'), items: table(tied, header) })).toBeNull();
  });

  it('speaks through the ranks judge in a verdict, and evidence carries the whole table', () => {
    const rows = ROWS.join('\n');
    const v = judgeClaim(claimOf('Holloway Ridge handled more terminal passengers than any other airport in Upper Fen.'), [item(rows, { table_header: HEADER, table_rows: 4 })], '2025-12-01');
    expect(v.outcome).toBe('false');
    expect(v.rationale).toMatch(/ranks it 2 of 3/);
    const doc = { url: 'https://aviation-stats.example/2025', title: 'Airports 2024', publisher: 'Aviation Standards Office', published: '2025-06-18', speakers: [], text: `Annual figures for the calendar year 2024.\n${HEADER}\n${rows}` };
    const subject = { subject_id: 'sub_hr', ...body, description: null, public_figure: true, offices: [], serving_politician: false, handles: [], demo: false };
    const claim = claimOf('Holloway Ridge handled more terminal passengers than any other airport in Upper Fen.');
    const [peers] = selectEvidence(claim, subject, [doc], 5);
    expect(peers?.quote).toBe(rows);
    // A claim that ranks no one is shown its own row only.
    const [own] = selectEvidence(claimOf('Holloway Ridge handled 2.1 million terminal passengers in 2024.'), subject, [doc], 5);
    expect(own?.quote).toBe(ROWS[0]);
  });
});

describe('bounds and word forms', () => {
  it('reads a denied bound as the opposite bound, met at the figure', () => {
    expect(readQuantities('Our Clifton restaurant has never had a rating lower than five.')[0]).toMatchObject({ threshold: 'above', inclusive: true, negated: false });
    expect(readQuantities('Arrears did not fall below 2%.')[0]).toMatchObject({ threshold: 'above', inclusive: true });
    expect(readQuantities('Bills will not rise by more than 5%.')[0]).toMatchObject({ threshold: 'below', inclusive: true });
    // A bound whose own word denies ("no more than") is read as written.
    expect(readQuantities('We had no more than 3 complaints.')[0]).toMatchObject({ threshold: 'below', inclusive: true });
    expect(readQuantities('Fewer than 3,000 customers complained.')[0]).toMatchObject({ threshold: 'below', inclusive: false });
  });

  it('reads a count after a date and a comma as a count, and a day beside its month as a date', () => {
    expect(readQuantities('By 31 December, 12 additional drivers had started work.')).toMatchObject([{ value: 12, unit: 'count' }]);
    expect(readQuantities('It opened on December 12 last year.')).toEqual([]);
    expect(readQuantities('It opened on 12 December.')).toEqual([]);
  });

  it('reads a figure a cause made happen as an outcome, not a purpose', () => {
    expect(readQuantities('Storms forced us to cancel 212 sailings between November and February.')[0]).toMatchObject({ target: false, value: 212 });
    expect(readQuantities('The network received £2.4m to open 150 warm hubs.')[1]).toMatchObject({ target: true, value: 150 });
  });

  it('never compares counts of two named kinds of thing', () => {
    const [sailings] = readQuantities('Storm Brannagh forced us to cancel 58 sailings over three days last week.');
    const [guests] = readQuantities('Some 63 passengers were put up in hotels overnight after the last sailing was cancelled.');
    const [cancelled] = readQuantities('Storm Brannagh led to 71 cancelled sailings between 12 and 14 January.');
    expect(matchScore(sailings!, guests!, 'factual')).toBeNull();
    expect(matchScore(sailings!, cancelled!, 'factual')).not.toBeNull();
  });

  it('reads "five percentage points" in words as points', () => {
    expect(readQuantities('Uptake reached 73%, five percentage points higher than last winter.')[1]).toMatchObject({ unit: 'points', value: 5 });
  });

  it('takes irregular forms from the lexicon', () => {
    expect(stem('lent')).toBe(stem('lend'));
    expect(stem('sought')).toBe(stem('seek'));
    expect(stem('criteria')).toBe(stem('criterion'));
    // Regular forms keep the suffix rules.
    expect(stem('opened')).toBe(stem('open'));
  });

  it('reads a change that carries on a clause ("…, up 6.8%") as the change of that clause\'s thing', () => {
    const claim = claimOf('Gross written premiums grew 6.8% to £3.03 billion.', '2026-03-04');
    const quote = 'Gross written premiums reached £3.03bn, up 6.8%, short of the 8% to 10% growth the company had guided to. Across the market, the average premium paid for comprehensive cover fell 9% in 2025.';
    const found = figuresJudge({ claim, items: [{ ...item(quote, {}, '2026-03-05'), sentences: sentenceSpans(quote).map((x) => quote.slice(x.start, x.end)) }] });
    expect(found.outcome).toBe('true');
    expect(found.reason).toMatch(/6\.8% against the reported 6\.8%/);
  });
});
