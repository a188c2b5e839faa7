import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { judgeClaim } from './judge.ts';
import { readQuantities } from './quantities.ts';
import { readTableRow } from './table-figures.ts';
import { tableHeader } from './evidence.ts';
import { wordingJudge } from './judge-wording.ts';
import { claimActors } from './grounding.ts';
import { partMeets, partOfYear } from './periods.ts';
import { sentenceSpans } from './judge-text.ts';

// Changes stated without "by", changes with no figure, "most" as a share, a table's scale in its caption,
// and what one reported case cannot confirm. Invented subjects and publishers throughout.

const body = { name: 'Corrow Valley Trust', kind: 'organisation' as const, aliases: [], urls: ['https://corrow-trust.example'] };
const claimOf = (text: string, published = '2025-03-02') => {
  const [c] = candidateClaims({ url: 'https://corrow-trust.example/news', title: 'News', publisher: 'Corrow Valley Trust', published, speakers: ['Corrow Valley Trust'], text }, body);
  if (!c) throw new Error(`no claim in "${text}"`);
  return c;
};
const item = (quote: string, published = '2025-04-10', extra: Record<string, unknown> = {}) => ({
  url: `https://corrow-stats.example/${published}/${quote.length}`, publisher: 'Corrow Statistics Office', published, quote, independent_of_subject: true, relevance: 0.6, ...extra,
});

describe('a change the figure names', () => {
  it('reads "a 12% rise", "by the maximum 4.99%", "by between 10% and 14%" and "the reduction is 18%" as changes', () => {
    expect(readQuantities('Councillors voted themselves a 12% rise in their allowance.')[0]).toMatchObject({ kind: 'change', value: 12 });
    expect(readQuantities('Council tax will go up by the maximum 4.99% in April.')[0]).toMatchObject({ kind: 'change', value: 4.99 });
    expect(readQuantities('We expect revenue to grow by between 10% and 14% in 2024.')[0]).toMatchObject({ kind: 'change', low: 10, high: 14 });
    expect(readQuantities('The corresponding reduction in risk is 18%.')[0]).toMatchObject({ kind: 'change', value: -18 });
    expect(readQuantities('Any rise next April will be no higher than 2.7%.')[0]).toMatchObject({ kind: 'change', threshold: 'below' });
    // A level stays a level.
    expect(readQuantities('Inflation was 2.7% in December.')[0]).toMatchObject({ kind: 'level' });
    expect(readQuantities('Inflation rose to 2.7% in December.')[0]).toMatchObject({ kind: 'level' });
  });
});

describe('a change with no figure', () => {
  it('is answered by the change a source reports, either way', () => {
    const claim = claimOf('Visitor numbers at our reserves fell in 2024.');
    expect(judgeClaim(claim, [item('Visitor numbers at Corrow Valley Trust reserves rose 6% in 2024.')], '2025-06-01').outcome).toBe('false');
    expect(judgeClaim(claim, [item('Visitor numbers at Corrow Valley Trust reserves dropped 4% in 2024.')], '2025-06-01').outcome).toBe('true');
  });

  it('"did not rise" holds at no change or a fall, and fails on a rise', () => {
    const claim = claimOf('Complaints about our reserves did not rise in 2024.');
    expect(judgeClaim(claim, [item('Complaints about Corrow Valley Trust reserves went up 9% in 2024.')], '2025-06-01').outcome).toBe('false');
    expect(judgeClaim(claim, [item('Complaints about Corrow Valley Trust reserves fell 3% in 2024.')], '2025-06-01').outcome).toBe('true');
  });

  it('is not read for "in any quarter" claims, nor for two things said to move together', () => {
    const anyQuarter = claimOf('Membership has not fallen in any quarter since 2023.');
    expect(judgeClaim(anyQuarter, [item('Corrow Valley Trust membership rose 2% in 2024.')], '2025-06-01').outcome).toBe('unresolvable');
    const both = claimOf('Both our membership and our income grew in 2024.');
    expect(judgeClaim(both, [item('Corrow Valley Trust membership fell 3% in 2024.')], '2025-06-01').outcome).not.toBe('false');
  });
});

describe('"most" as a share', () => {
  it('is more than half, held to the share a source gives', () => {
    const claim = claimOf('Most visitors to our reserves arrived by car in 2024.');
    expect(judgeClaim(claim, [item('Three in five visitors to Corrow Valley Trust reserves (61%) arrived by car in 2024.', '2025-01-10')], '2025-06-01').outcome).toBe('true');
    expect(judgeClaim(claim, [item('At Corrow Valley Trust reserves, 41% of visitors arrived by car in 2024.', '2025-01-10')], '2025-06-01').outcome).toBe('false');
  });

  it('is not confirmed in words by one case', () => {
    const claim = claimOf('Most of our wetland projects in 2023 met their targets.');
    const sentence = 'The Corrow Valley Trust wetland project at Fen Reach met its targets in 2023.';
    const finding = wordingJudge({ claim, items: [{ ...item(sentence), sentences: sentenceSpans(sentence).map((s) => sentence.slice(s.start, s.end)) }] });
    expect(finding.outcome).toBe('unresolvable');
  });
});

describe("a table's scale in its caption", () => {
  it('applies "(millions of viewers)" in the line that introduces a table to its bare cells', () => {
    const text = 'Average weekly reach of regional programmes, 2023 and 2024 (millions of viewers):\nProgramme | Broadcaster | 2023 | 2024\nValley Tonight | Corrow Vision | 1.10 | 1.28';
    const header = tableHeader(text, text.indexOf('Valley Tonight'));
    expect(header).toBeDefined();
    const cells = readTableRow('Valley Tonight | Corrow Vision | 1.10 | 1.28', header!);
    expect(cells.map((c) => c.value)).toEqual([1_100_000, 1_280_000]);
  });

  it('applies "(millions)" in a heading', () => {
    const cells = readTableRow('Corrow Valley Trust | 4.2', 'Charity | Visits (millions)');
    expect(cells[0]?.value).toBe(4_200_000);
  });
});

describe('what a sentence is about', () => {
  it('reads "not had a single finding" as none, contradicted by a finding reported', () => {
    const claim = claimOf('We have not had a single finding of severe maladministration from the Ombudsman since April 2024.');
    const found = item('We opened this investigation after a run of severe maladministration findings against Corrow Valley Trust.', '2025-06-24');
    expect(judgeClaim(claim, [found], '2025-09-01').outcome).toBe('false');
  });

  it('does not take the speaker\'s own body, or half of a compound modifier, for what a promise is about', () => {
    const claim = claimOf('The trust will open a new full-time ranger station at Fen Reach by the end of 2025.', '2024-05-01');
    const opened = item("Corrow Valley Trust's newest ranger station, at Fen Reach, welcomed its first visitors on Monday 1 December 2025.", '2025-12-03');
    expect(judgeClaim(claim, [opened], '2026-01-10').outcome).toBe('true');
  });

  it('does not read a direction word that names a place ("the lower Corrow") as a change', () => {
    const claim = claimOf('Phosphate levels in the lower Corrow fell in 2024, helped by the wetlands we restored.');
    const rose = item('The agency also reports that phosphate in the lower Corrow rose 6% in 2024, although nitrate fell.');
    expect(judgeClaim(claim, [rose], '2025-06-01').outcome).toBe('false');
  });

  it('does not hold a claim about a place to a figure for a wider area ("force-wide")', () => {
    const claim = claimOf('Thefts at our Fen Reach reserve fell by a fifth in 2024.');
    expect(judgeClaim(claim, [item('Force-wide, theft fell 9% in 2024.')], '2025-06-01', claimActors(claim.quote, body)).outcome).toBe('unresolvable');
    expect(judgeClaim(claim, [item('At Fen Reach, theft fell 20% in 2024.')], '2025-06-01', claimActors(claim.quote, body)).outcome).toBe('true');
  });
});

describe('comparisons in words', () => {
  it('does not confirm "more than in any year" or "the only one" by a report of the deed alone', () => {
    const record = claimOf('We planted more trees in 2024 than in any year in our history.');
    expect(judgeClaim(record, [item('Corrow Valley Trust planted 41,000 trees in 2024, according to the forestry register.')], '2025-06-01').outcome).toBe('unresolvable');
    const only = claimOf('Corrow Valley Trust was the only one of the large land trusts to grow its reserves during 2024.');
    const others = item('Corrow Valley Trust was not alone in adding land: Fenmoor Trust grew its reserves to 3,900 hectares in 2024.');
    expect(judgeClaim(only, [others], '2025-06-01').outcome).toBe('false');
  });

  it('holds a change read from words only to a source\'s change of that very thing', () => {
    const claim = claimOf('Knife crime at our reserves did not rise in 2024.');
    const header = 'Area | Recorded crimes 2024 | Crime change 2024';
    const row = item('Corrow Valley reserves | 1,310 | -3.1%', '2025-04-10', { table_header: header, table_rows: 1 });
    expect(judgeClaim(claim, [row], '2025-06-01').outcome).toBe('unresolvable');
  });
});

describe('figures that are not what they seem', () => {
  it('reads "percentage points" as points, "the top rating of 5" and "aged 12 to 17" as no figure to check, and "a total of" as the figure itself', () => {
    expect(readQuantities('Charges will rise by CPI plus 3.9 percentage points.')[0]).toMatchObject({ unit: 'points', value: 3.9 });
    expect(readQuantities('The margin slipped 2.4 percentage points to 17.4 per cent.').map((q) => q.unit)).toEqual(['points', 'percent']);
    expect(readQuantities('Our cafes all hold the top hygiene rating of 5.')).toEqual([]);
    expect(readQuantities('We expect a decision on the treatment for children aged 12 to 17 by the end of 2023.')).toEqual([]);
    expect(readQuantities('The outage began at 08:20 and lasted a total of 7 hours and 20 minutes.').at(-1)).toMatchObject({ unit: 'duration', value: 440, denominator: false });
    // The whole a count is out of follows a count of the same kind ("742 of its 1,150 overflows"); "each of the
    // 61,300" after a sum of money, or "a rise of 17%" after a count, is a figure of its own.
    expect(readQuantities('Some 742 of its 1,150 overflows spilled.').at(-1)).toMatchObject({ value: 1150, denominator: true });
    expect(readQuantities('Fenmoor credited £25 to each of the 61,300 affected customers.').at(-1)).toMatchObject({ value: 61300, denominator: false });
    expect(readQuantities('Crowds totalled 412,600, a rise of 17.0% on 2024.').at(-1)).toMatchObject({ unit: 'percent', denominator: false });
  });

  it('holds the level a change started from only to a source\'s starting level', () => {
    const claim = claimOf('Our operating margin fell to 17.4% from 19.8%.');
    const slipped = item('The Corrow Valley Trust operating margin slipped 2.4 percentage points to 17.4 per cent.');
    expect(judgeClaim(claim, [slipped], '2025-06-01').outcome).toBe('true');
    const both = item('The Corrow Valley Trust operating margin fell to 17.4 per cent, down from 14.0 per cent.');
    expect(judgeClaim(claim, [both], '2025-06-01').outcome).toBe('mixed');
  });

  it('does not take a figure published before a forecast fell due, for no stated period, as its outcome', () => {
    const claim = claimOf('We expect an operating margin of around 17% for 2025.', '2025-03-02');
    const early = item('The Corrow Valley Trust operating margin slipped to 17.4 per cent.', '2025-03-05');
    expect(judgeClaim(claim, [early], '2026-06-01').outcome).toBe('unresolvable');
    const actual = item('The Corrow Valley Trust operating margin was 14.4 per cent in 2025.', '2026-03-10');
    expect(judgeClaim(claim, [actual], '2026-06-01').outcome).toBe('mostly_false');
  });
});

describe('which figure is the claim\'s', () => {
  it('names the half, quarter or year a span ending in a month covers', () => {
    expect(partOfYear('completed 3,610 homes in the six months to 30 June 2025')).toBe('h1');
    expect(partOfYear('in the three months ended September')).toBe('q3');
    expect(partOfYear('in the 12 months to September 2025')).toBe('y9');
    expect(partOfYear('in the year to December 2025')).toBeNull();
    expect(partMeets('h1', 'y9')).toBe(false);
    expect(partMeets(null, 'y3')).toBe(true);
    expect(partMeets('q2', 'y6')).toBe(true);
  });

  it('takes none of two figures of one sentence that fit equally and read differently', () => {
    const claim = claimOf('In the countryside our average response time was about 22 minutes in 2024.');
    const both = item('In 2024 the average response time of Corrow Valley Trust rangers was 12 minutes in urban areas and 22 minutes in rural areas.');
    expect(judgeClaim(claim, [both], '2025-06-01').outcome).toBe('unresolvable');
  });

  it('reads a figure\'s clause past a thousands separator ("89% of the 2,640 complaints … within eight weeks")', () => {
    const claim = claimOf('In 2023, nine in ten complaints were resolved within eight weeks.', '2024-03-01');
    const ombudsman = item('In 2023 Corrow Valley Trust closed 89% of the 2,640 complaints it received within eight weeks, and we upheld 38% of the Corrow Valley cases referred to us, against 31% for trusts as a whole.', '2024-05-01');
    expect(judgeClaim(claim, [ombudsman], '2024-09-01').outcome).toBe('true');
  });

  it('does not confirm a claim about each of a set by one member\'s figure, but may refute it', () => {
    const claim = claimOf('Every one of our 38 ranger teams now has at least six rangers.');
    expect(judgeClaim(claim, [item('The new Fen Reach ranger team of Corrow Valley Trust began patrols with six rangers.')], '2025-06-01').outcome).toBe('unresolvable');
    expect(judgeClaim(claim, [item('All 38 Corrow Valley Trust ranger teams now have six rangers or more.')], '2025-06-01').outcome).toBe('true');
  });
});

describe('the period of a change', () => {
  it('dates a table\'s "Change on 2023" to 2024, the year it measures', () => {
    const [, change] = readTableRow('Corrow Valley Trust | 2,138,400 | 6.2', 'Trust | Visitors 2024 | Change on 2023 (%)');
    expect(change).toMatchObject({ kind: 'change', value: 6.2 });
    expect([...change!.years]).toEqual(['2024']);
  });
});

describe('a year that only opens a span', () => {
  it('does not make a report of the deed speak of another year ("since March 2025")', () => {
    const claim = claimOf('We will open the new Fen Reach visitor centre to visitors on 1 June 2026.', '2025-03-01');
    const opened = item("Corrow Valley Trust's new Fen Reach visitor centre opened to visitors on Monday 22 June, three weeks after the 1 June date the trust had promised since March 2025.", '2026-06-23');
    const v = judgeClaim(claim, [opened], '2026-06-30');
    expect(v.outcome).toBe('true');
    // "three weeks after the 1 June date" is late.
    expect(v.on_time).toBe(false);
  });
});
