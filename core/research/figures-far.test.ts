import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { figuresJudge } from './judge-figures.ts';
import { sentenceSpans } from './judge-text.ts';
import { claimActors } from './grounding.ts';

// A source's figure too far from the claimed one to be its measure settles nothing (criteria.ts, FIGURE_FAR).
// Invented subjects and publishers throughout.

const ferry = { name: 'Saltwick Island Ferries', kind: 'organisation' as const, aliases: ['Saltwick Ferries'], urls: ['https://saltwick-ferries.example'] };
const claimOf = (text: string, published = '2026-02-10') => {
  const [c] = candidateClaims({ url: `${ferry.urls[0]}/news`, title: 'News', publisher: ferry.name, published, speakers: [ferry.name], text }, ferry);
  if (!c) throw new Error(`no claim in "${text}"`);
  return c;
};
const judge = (claim: string, source: string) => {
  const c = claimOf(claim);
  const items = [{
    url: 'https://harbour-board.example/2026/03', publisher: 'Harbour Board', published: '2026-03-20', quote: source, independent_of_subject: true, relevance: 0.6,
    sentences: sentenceSpans(source).map((s) => source.slice(s.start, s.end)),
  }];
  return figuresJudge({ claim: c, items, actors: claimActors(c.quote, ferry) });
};

describe('a figure too far off to be the claim’s measure', () => {
  it('settles nothing, where a nearer one still makes the claim false', () => {
    // 610 against 150: four times as many; more often the whole staff against one site's than a claim that wrong.
    const far = judge('Saltwick Island Ferries carried 610,000 passengers in 2025.', 'Saltwick Island Ferries carried 150,000 passengers in 2025.');
    expect(far.outcome).toBe('unresolvable');
    expect(far.reason).toMatch(/something else/);
    // 610 against 480: 27% off, false by the fixed test's bands.
    expect(judge('Saltwick Island Ferries carried 610,000 passengers in 2025.', 'Saltwick Island Ferries carried 480,000 passengers in 2025.').outcome).toBe('false');
  });

  it('holds a bound to any figure, however far', () => {
    expect(judge('Saltwick Island Ferries carried more than 600,000 passengers in 2025.', 'Saltwick Island Ferries carried 150,000 passengers in 2025.').outcome).toBe('false');
  });

  it('is the claim’s own measure when the passage bears out another of its figures', () => {
    // The source confirms the passengers, so it speaks of the same sailings: one figure holds and one fails.
    expect(judge(
      'Saltwick Island Ferries carried 480,000 passengers in 2025 and ran 9,000 sailings.',
      'Saltwick Island Ferries carried 480,000 passengers in 2025 and ran 2,100 sailings.',
    ).outcome).toBe('mixed');
    // A nearer figure that fails decides alone: the far one is left out.
    expect(judge(
      'Saltwick Island Ferries carried 610,000 passengers in 2025 and ran 9,000 sailings.',
      'Saltwick Island Ferries carried 480,000 passengers in 2025 and ran 2,100 sailings.',
    ).outcome).toBe('false');
  });
  it('counts a change a source states the other way, however far', () => {
    expect(judge('Saltwick Island Ferries cut its fares by 10% in 2025.', 'Saltwick Island Ferries fares rose by 4% in 2025.').outcome).toBe('false');
    // The same distance the same way is another measure.
    expect(judge('Saltwick Island Ferries cut its fares by 10% in 2025.', 'Saltwick Island Ferries fares fell by 4% in 2025.').outcome).toBe('unresolvable');
  });
  it('counts a far figure when the source names the claimed one to deny it', () => {
    expect(judge('Saltwick Island Ferries spent £31 million on its harbours in 2025.', 'Saltwick Island Ferries spent £18 million on its harbours in 2025, not £31 million.').outcome).toBe('false');
  });
});
