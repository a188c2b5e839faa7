import { describe, expect, it } from 'vitest';
import { extractClaims } from './extract.ts';
import { claimActors, quotesSubject } from './grounding.ts';
import { readQuantities } from './quantities.ts';
import { matchScore } from './judge-figures.ts';
import { checkedFigures } from './claim-figures.ts';

// Who speaks in a news article, the subject's words reported in another body's
// document, numbers that name rather than count, and areas and temperatures.
// Invented subjects and publishers throughout.

const person = { name: 'Orla Penrith', kind: 'person' as const, aliases: [], urls: [], description: 'Chief executive of Tamsin Mutual' };
const article = (text: string) => ({
  url: 'https://dale-post.example/2024/interview', title: 'Interview', publisher: 'Dale Post', published: '2024-05-02', speakers: ['Orla Penrith'], text,
});

describe('who speaks', () => {
  it('takes the speaker from the words beside the verb, not from a place named after it', () => {
    const text = [
      'Orla Penrith has a short answer when asked why Tamsin Mutual keeps its branches open.',
      '"Branches are what a mutual is for," she said in an interview at the society\'s Harrowgate office.',
      '"We have opened four new branches since 2021," she said.',
    ].join('\n');
    const quotes = extractClaims(article(text), person).map((c) => c.quote);
    expect(quotes).toContain('We have opened four new branches since 2021');
    // The writer's own sentences stay the writer's.
    expect(quotes.some((q) => q.startsWith('Orla Penrith has a short answer'))).toBe(false);
  });

  it("takes a one-word label that opens several lines of a transcript as another speaker's turn", () => {
    const text = [
      'Orla Penrith sat down with the Post. The interview has been edited for length.',
      'Post: The branch closures were a blow. What has changed?',
      'Orla Penrith: We have opened four new branches since 2021.',
      'Post: Dublin was supposed to open this spring.',
      'Orla Penrith: I can promise we will open in Dublin in 2027.',
    ].join('\n');
    const quotes = extractClaims(article(text), person).map((c) => c.quote);
    expect(quotes).toContain('We have opened four new branches since 2021.');
    expect(quotes.some((q) => q.includes('Dublin was supposed'))).toBe(false);
  });

  it('still gives a quotation to another person named beside the verb', () => {
    const text = [
      'Orla Penrith spoke first.',
      '"We have opened four new branches since 2021," said Callum Reyes, a rival lender\'s chief executive.',
    ].join('\n');
    expect(extractClaims(article(text), person).map((c) => c.quote)).not.toContain('We have opened four new branches since 2021');
  });
});

describe('a quotation introduced by a colon', () => {
  it('is spoken by the person the clause before the colon is about', () => {
    const text = [
      'Orla Penrith was blunt: "We have opened four new branches since 2021."',
      'Callum Reyes, a rival lender\'s chief executive, was unimpressed: "Tamsin Mutual closed six branches in 2019."',
    ].join('\n');
    const quotes = extractClaims(article(text), person).map((c) => c.quote);
    expect(quotes).toContain('We have opened four new branches since 2021.');
    expect(quotes).not.toContain('Tamsin Mutual closed six branches in 2019.');
  });

  it('reads a quotation of several sentences one sentence at a time', () => {
    const text = '"We have opened four new branches since 2021. That is not good enough for a mutual of our size," Penrith said.';
    expect(extractClaims(article(text), person).map((c) => c.quote)).toEqual(['We have opened four new branches since 2021.']);
  });
});

describe('pronouns in a profile', () => {
  it('gives "she said" to the profile\'s subject once a critic quoted earlier has given way, and to the critic right after him', () => {
    const text = [
      'Orla Penrith does not look like someone who has just had a hard year.',
      '"We have opened four new branches since 2021," Penrith said.',
      'Critics are unconvinced. Callum Reyes, an analyst at Dunmere Securities, said the society had lost its way.',
      '"Tamsin Mutual cut its mortgage rates twice in 2023," he said.',
      'Tamsin Mutual\'s savings rates have fallen since January.',
      'On the wider market she is more guarded. "I predict that mortgage rates will be below 4% by Christmas," she said.',
    ].join('\n');
    const quotes = extractClaims(article(text), person).map((c) => c.quote);
    expect(quotes).toContain('I predict that mortgage rates will be below 4% by Christmas');
    // The critic's own words, tagged by a pronoun in the paragraph after he was named, stay his.
    expect(quotes).not.toContain('Tamsin Mutual cut its mortgage rates twice in 2023');
  });
});

describe("the subject's words in another body's document", () => {
  const org = { name: 'Harlow Courier', kind: 'outlet' as const, aliases: [], description: null };
  const actors = claimActors('Recorded burglaries in Harlow rose by almost a third last year, to 412.', org);
  it('are its claim, reported, whatever stands between its name and the verb of speech', () => {
    expect(quotesSubject('The complainant said a Harlow Courier editorial of 16 February 2023 stated that burglaries had risen by almost a third, to 412.', actors)).toBe(true);
  });
  it("are not confused with a finding that only names it", () => {
    expect(quotesSubject('Police figures show 312 burglaries in Harlow in 2022, and the Harlow Courier corrected its figure in March.', actors)).toBe(false);
  });
});

describe('numbers that name, and units', () => {
  it('reads no figure in a grade, a band, a route or a number to call', () => {
    for (const s of ['Most pupils achieved a grade 4 or above', 'Report it online or ring 101', 'Call 999 if someone is in danger', 'Route 40 runs hourly']) {
      expect(readQuantities(s).filter((q) => q.unit === 'count' || q.unit === 'percent'), s).toEqual([]);
    }
  });

  it('converts hectares and acres, square kilometres and square miles, to one area', () => {
    const [ha] = readQuantities('restored 410 hectares of wetland');
    const [ac] = readQuantities('will restore 1,000 acres of wetland');
    const [sq] = readQuantities('a reserve of 2 square miles');
    expect(ha?.unit).toBe('area');
    expect(ac?.unit).toBe('area');
    expect(ha!.value / ac!.value).toBeCloseTo(1.013, 2);
    expect(sq?.value).toBeCloseTo(5_179_976, -1);
  });

  it('reads degrees and °C as one temperature, and compares them', () => {
    const [c] = checkedFigures('Kestle hit 31.5 degrees on Tuesday', 'factual');
    const [e] = readQuantities('Kestle reached 31.5°C on 4 July.');
    expect(c?.unit).toBe('temperature');
    expect(e?.unit).toBe('temperature');
    expect(matchScore(c!, e!, 'factual')).toBeGreaterThan(0);
  });
});

describe('carrying on a speaker, records and advice', () => {
  it('gives an untagged quotation to the speaker reported in the paragraph before', () => {
    const text = [
      'Orla Penrith has run the society since 2021.',
      'She said the society had opened four branches in 2023.',
      '"I can promise members we will open two more branches in 2025."',
    ].join('\n');
    const quotes = extractClaims(article(text), person).map((c) => c.quote);
    expect(quotes).toContain('I can promise members we will open two more branches in 2025.');
  });

  it('takes "we did not close a single branch" as a checkable record', () => {
    const quotes = extractClaims(article('Orla Penrith: We did not close a single branch in the whole of 2024.'), person).map((c) => c.quote);
    expect(quotes).toContain('We did not close a single branch in the whole of 2024.');
  });

  it('takes an order with a participle in it as advice, and a noun the tagger took for an order as a statement', async () => {
    const { readCues } = await import('./classify.ts');
    expect(readCues('Keep your curtains closed during the day, and open the windows in the evening.', []).guidance).toBe(true);
    expect(readCues('Staff turnover in our stores fell to 38% last year.', []).guidance).toBe(false);
    expect(readCues('Honestly, the best way to cool off is a swim in the reservoir.', []).guidance).toBe(true);
  });
});

describe('words the wording judge no longer misreads', () => {
  const body = { name: 'Tamsin Mutual', kind: 'organisation' as const, aliases: [], urls: ['https://tamsin.example'] };
  const own = (text: string, published = '2024-03-01') => ({ url: 'https://tamsin.example/news', title: 'News', publisher: 'Tamsin Mutual', published, speakers: ['Tamsin Mutual'], text });
  const item = (quote: string, published = '2025-02-01') => ({ url: `https://money-weekly.example/${published}`, publisher: 'Money Weekly', published, quote, independent_of_subject: true, relevance: 0.6 });
  const judge = async (text: string, evidence: string, today = '2026-01-31') => {
    const { candidateClaims } = await import('./criteria.ts');
    const { judgeClaim } = await import('./judge.ts');
    const [c] = candidateClaims(own(text), body);
    if (!c) throw new Error(`no claim in "${text}"`);
    return judgeClaim(c, [item(evidence, today < '2025-02-01' ? '2024-09-10' : '2025-02-01')], today).outcome;
  };

  it('does not read a promise restated with "would" as the promise kept', async () => {
    expect(await judge('We will open every one of our branches on Saturday mornings by the end of 2024.', 'Tamsin Mutual promised in 2023 that every one of its branches would open on Saturday mornings by the end of 2024.')).not.toBe('true');
  });

  it('reads a bound ("more than 400", "fewer than 3,000", "up to 5%") as no change, and a change beside it still as one', async () => {
    const { direction } = await import('./quantities.ts');
    expect(direction('The trust had restored more than 400 hectares of wetland')).toBe(0);
    expect(direction('Fewer than 3,000 customers complained')).toBe(0);
    expect(direction('Bills will rise by up to 5%')).toBe(1);
    expect(direction('Complaints rose to more than 3,000')).toBe(1);
  });

  it('does not read a source calling an error wrong as contradicting a claim that owns to it', async () => {
    expect(await judge('Tamsin Mutual got one figure wrong in its 2023 annual report, and corrected it within a month.', 'Tamsin Mutual accepted that one figure in its 2023 annual report was wrong.')).not.toBe('false');
  });

  it('reads a named centre as what a promise is about, and a trailing gloss as no part of it: kept late', async () => {
    expect(await judge('The Kestle Heritage Centre will open its doors in spring 2024, giving families a place to learn about the canal.', 'The Kestle Heritage Centre opened its doors on Saturday, 7 September 2024, three months after the spring opening Tamsin Mutual had promised.', '2024-12-31')).toBe('true');
  });
});
