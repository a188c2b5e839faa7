import { describe, expect, it } from 'vitest';
import { candidateClaims } from './criteria.ts';
import { findDeadline } from './deadline.ts';
import { judgeClaim } from './judge.ts';
import { sentenceSpans } from './judge-text.ts';
import { derivedChanges } from './table-figures.ts';
import { claimActors, groundSentences, referredTo } from './grounding.ts';
import { officersOf } from './officers.ts';
import { extractClaims } from './extract.ts';

// Due dates a forward claim names by a month or a season alone, sentences that end after a unit's
// abbreviation, a change stated as two dated levels, a forecast with no date that has already come about,
// an officer named by an office of no body, and what "the hall" in a claim names. Invented subjects throughout.

describe('due dates named without a year', () => {
  it('reads a month after a future tense as the next such month, and not a month in the past tense', () => {
    expect(findDeadline('The Civic Union will win the general election in September.', '2025-01-08')).toBe('2025-09-30');
    expect(findDeadline('We will open the depot in January.', '2025-03-02')).toBe('2026-01-31');
    expect(findDeadline('The contract, signed in February, is worth £118 million.', '2025-03-10')).toBeNull();
  });

  it('leaves "this season" to the document\'s season, and reads "next season" as the one after it', () => {
    // compromise-dates alone reads "this season" as the weather's (winter, ending in January).
    expect(findDeadline('Call three: Castlemere Rovers will finish in the top four this season.', '2025-01-08')).not.toBe('2025-01-31');
    expect(findDeadline('Next season we will be promoted.', '2026-05-06')).toBe('2027-05-31');
    expect(findDeadline('Next season we will be promoted.', '2025-10-02')).toBe('2027-05-31');
    expect(findDeadline('We will open the terminal this winter.', '2025-01-08')).toBe('2025-02-28');
  });
});

describe('sentences', () => {
  it('ends a sentence after a unit\'s abbreviation when a capital follows, and not after a company\'s', () => {
    const text = "The network grew by 310 km in 2024, to 2,518 km. Cyclist deaths fell by a fifth. Hollin Co. Ltd built it.";
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual(['The network grew by 310 km in 2024, to 2,518 km.', 'Cyclist deaths fell by a fifth.', 'Hollin Co. Ltd built it.']);
  });
});

describe('a change stated as two dated levels', () => {
  it('reads "52 in 2024, compared with 65 in 2023" as a fall of a fifth, and not a comparison with another body', () => {
    const [fall] = derivedChanges("52 pedal cyclists were killed on Velmark's roads in 2024, compared with 65 in 2023.");
    expect(fall?.value).toBeCloseTo(-20, 5);
    expect([...fall!.years]).toEqual(['2024']);
    expect(derivedChanges('52 pedal cyclists were killed in Velmark in 2024, compared with 65 in Harnby.')).toEqual([]);
  });
});

describe('a forecast with no date', () => {
  const pundit = { name: 'Rafe Tullington', kind: 'person' as const, aliases: [], urls: ['https://tullington.example'] };
  const [claim] = candidateClaims({ url: 'https://tullington.example/column', title: 'Column', publisher: pundit.name, published: '2025-04-03', speakers: [pundit.name], text: 'Joss Ambler will score more than a thousand Championship runs.' }, pundit);
  const item = (quote: string) => ({ url: 'https://cricket-board.example/averages', publisher: 'Westmarch Cricket Board', published: '2025-10-01', quote, independent_of_subject: true, relevance: 0.6 });

  it('is settled once it has come about, and waits for its horizon while it has not', () => {
    expect(claim!.deadline).toBeNull();
    expect(judgeClaim(claim!, [item('Joss Ambler scored 1,046 Championship runs this season.')], '2026-06-30').outcome).toBe('true');
    expect(judgeClaim(claim!, [item('Joss Ambler scored 846 Championship runs this season.')], '2026-06-30').outcome).toBe('pending');
  });
});

describe('who speaks, and what a claim names by a common noun', () => {
  it('takes "Name, the managing director" as an officer of the subject a text is about, and not of an office of another body', () => {
    const station = ['Kestle Sound'];
    expect(officersOf('Kestle Sound moved studios in January.\n"It was worth it," Priya Haldane, the managing director, told The Wavelength.', station)).toEqual([['priya', 'haldane']]);
    expect(officersOf('Kestle Sound moved studios in January. Tessa Grindlay, the chair of the Association of Local Broadcasters, approved.', station)).toEqual([]);
    expect(officersOf('Priya Haldane, the managing director, spoke. Kestle Sound moved studios.', station)).toEqual([]);
  });

  it('reads "the hall" as the hall its document named before, and a feast as a date, not a name', () => {
    const trust = { name: 'Calderbrook Heritage Trust', kind: 'organisation' as const, aliases: [], urls: ['https://calderbrook-heritage.example'] };
    const [claim] = extractClaims({ url: 'https://calderbrook-heritage.example/news', title: 'News', publisher: trust.name, published: '2024-03-12', speakers: [trust.name], text: 'Fenwright Hall closed in October 2023 for its roof to be restored. The hall will reopen to visitors by Easter 2025.' }, trust).filter((c) => c.quote.startsWith('The hall'));
    expect(referredTo(claim!)).toEqual(['Fenwright Hall']);
    const actors = claimActors(claim!.quote, trust, referredTo(claim!));
    expect(groundSentences(['There was a queue when Fenwright Hall opened to the public on 12 July.', 'Pellow Castle opened too.'], actors)).toEqual([true, false]);
    // The hall named in full is what the two share beside the deed: done, twelve weeks late.
    const [candidate] = candidateClaims({ url: 'https://calderbrook-heritage.example/news', title: 'News', publisher: trust.name, published: '2024-03-12', speakers: [trust.name], text: 'Fenwright Hall closed in October 2023 for its roof to be restored. The hall will reopen to visitors by Easter 2025.' }, trust).filter((c) => c.quote.startsWith('The hall'));
    const item = { url: 'https://calderbrook-courier.example/2025/07/14', publisher: 'Calderbrook Courier', published: '2025-07-14', quote: 'There was a queue on Saturday morning, when Fenwright Hall opened to the public for the first time since October 2023.', independent_of_subject: true, relevance: 0.6 };
    const verdict = judgeClaim(candidate!, [item], '2026-06-30', actors);
    expect(verdict).toMatchObject({ outcome: 'true', on_time: false });
    expect(judgeClaim(candidate!, [{ ...item, quote: 'There was a queue on Saturday morning, when Pellow Castle opened to the public for the first time since October 2023.' }], '2026-06-30', actors).outcome).toBe('unresolvable');
  });
});

describe('a promise reported delayed', () => {
  it('is not broken by the delay alone: a promise kept late is kept', () => {
    const society = { name: 'Pennant Vale Building Society', kind: 'organisation' as const, aliases: [], urls: ['https://pennant-vale.example'] };
    const [claim] = candidateClaims({ url: 'https://pennant-vale.example/news', title: 'News', publisher: society.name, published: '2023-02-01', speakers: [society.name], text: 'We will open new branches in Ludbury and Kestle Cross during 2023.' }, society);
    const item = { url: 'https://mercia-post.example/2023/11', publisher: 'Mercia Business Post', published: '2023-11-20', quote: 'Pennant Vale Building Society has delayed the opening of its new branches in Ludbury and Kestle Cross.', independent_of_subject: true, relevance: 0.6 };
    expect(judgeClaim(claim!, [item], '2024-06-30').outcome).toBe('unresolvable');
  });
});

describe('a deed reported done', () => {
  const columnist = { name: 'Barnaby Kettle', kind: 'person' as const, aliases: [], urls: ['https://kettle.example'] };
  const [claim] = candidateClaims({ url: 'https://kettle.example/column', title: 'Column', publisher: columnist.name, published: '2025-01-12', speakers: [columnist.name], text: 'Stanwick Homes will slash its dividend when it reports in March.' }, columnist);
  const item = (quote: string) => ({ url: 'https://city-ledger.example/2025/03/20', publisher: 'The City Ledger', published: '2025-03-20', quote, independent_of_subject: true, relevance: 0.6 });
  it('bears out a forecast of one deed only by that deed, not by another ("kept its dividend")', () => {
    expect(claim!.claim_type).toBe('prediction');
    expect(judgeClaim(claim!, [item('Stanwick Homes kept its final dividend unchanged at 14p a share yesterday.')], '2025-06-30').outcome).not.toBe('true');
    expect(judgeClaim(claim!, [item('Stanwick Homes slashed its final dividend to 9p a share yesterday.')], '2025-06-30').outcome).toBe('true');
  });
});
