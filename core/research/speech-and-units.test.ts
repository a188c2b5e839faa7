import { describe, expect, it } from 'vitest';
import { extractClaims } from './extract.ts';
import { claimActors, quotesSubject } from './grounding.ts';
import { readQuantities } from './quantities.ts';
import { matchScore, checkedFigures } from './judge-figures.ts';

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

  it('still gives a quotation to another person named beside the verb', () => {
    const text = [
      'Orla Penrith spoke first.',
      '"We have opened four new branches since 2021," said Callum Reyes, a rival lender\'s chief executive.',
    ].join('\n');
    expect(extractClaims(article(text), person).map((c) => c.quote)).not.toContain('We have opened four new branches since 2021');
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
