import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extractClaims, subjectMatcher } from './extract.ts';
import { ExtractedClaimSchema, type SourceDocument, type SubjectRef } from './types.ts';

// Documents written for these tests: invented names and wording, none from the sample pack.

const orrin: SubjectRef = { name: 'Orrin Foods', kind: 'organisation', aliases: ['Orrin'], urls: ['https://orrin-foods.example'] };
const okafor: SubjectRef = { name: 'Selma Okafor', kind: 'person', aliases: [], urls: [] };
const gazette: SubjectRef = { name: 'The Harwick Gazette', kind: 'outlet', aliases: ['Harwick Gazette', 'the Gazette'], urls: ['https://harwick-gazette.example'] };

const doc = (over: Partial<SourceDocument> & Pick<SourceDocument, 'text' | 'speakers' | 'publisher'>): SourceDocument => ({
  url: 'https://example.test/doc',
  title: 'Test document',
  published: '2024-04-02',
  ...over,
});
const quotes = (d: SourceDocument, s: SubjectRef) => extractClaims(d, s).map((c) => c.quote);

describe('extractClaims: a subject\'s own publication', () => {
  const release = doc({
    url: 'https://orrin-foods.example/press/2024-04',
    publisher: 'Orrin Foods',
    speakers: ['Orrin Foods'],
    text: [
      'Good morning from all of us at Orrin Foods.',
      '',
      'Orrin Foods sold 18.5 million loaves in 2023, up 7% on 2022. We will open a bakery in Pellow by September 2025. Isn\'t that exciting? We think our bread is the best in the county.',
      '',
      '"We expect flour prices to fall by a fifth next year," said Amos Kell, Orrin\'s head of buying. "Customers should store bread in a cool, dry place."',
      '',
      '“Our members will take every loaf Orrin can bake,” said Nell Ruddock of the Pellow Grocers Guild. “Sales in our shops rose 12% last year.”',
    ].join('\n'),
  });

  it('keeps the document\'s own checkable sentences and drops greetings, questions and opinions', () => {
    const got = quotes(release, orrin);
    expect(got).toContain('Orrin Foods sold 18.5 million loaves in 2023, up 7% on 2022.');
    expect(got).toContain('We will open a bakery in Pellow by September 2025.');
    expect(got.some((q) => /Good morning|exciting|best in the county/.test(q))).toBe(false);
  });

  it('keeps quotes by its own people (the attribution names the subject) without marks or trailing commas', () => {
    const got = quotes(release, orrin);
    expect(got).toContain('We expect flour prices to fall by a fifth next year');
    // The continuation quote has no attribution of its own: it carries on the last speaker's.
    expect(got).toContain('Customers should store bread in a cool, dry place.');
  });

  it('leaves out what a third party is quoted as saying, even inside the subject\'s own release', () => {
    const got = quotes(release, orrin);
    expect(got.some((q) => q.includes('Guild') || q.includes('Sales in our shops') || q.includes('every loaf'))).toBe(false);
  });

  it('quotes verbatim: every quote is a substring of the document and marked verified', () => {
    const claims = extractClaims(release, orrin);
    expect(claims.length).toBeGreaterThanOrEqual(4);
    for (const c of claims) {
      expect(release.text.includes(c.quote)).toBe(true);
      expect(c.quote_verified).toBe(true);
      expect(ExtractedClaimSchema.parse(c)).toEqual(c);
      expect(c).toMatchObject({ said_on: '2024-04-02', speaker: 'Orrin Foods', source: { outlet: 'Orrin Foods', url: release.url } });
    }
  });

  it('reads figures, leaving years and days of the month out', () => {
    const sold = extractClaims(release, orrin).find((c) => c.quote.startsWith('Orrin Foods sold'));
    expect(sold?.figures.map((f) => [f.text, f.unit])).toEqual([['18.5 million', 'count'], ['7%', 'percent']]);
    const flour = extractClaims(release, orrin).find((c) => c.quote.includes('a fifth'));
    expect(flour?.figures).toEqual([{ text: 'a fifth', value: 20, unit: 'percent' }]);
    const dated = extractClaims(doc({ publisher: 'Orrin Foods', speakers: ['Orrin Foods'], text: 'We paid £2.4 million to 310 farmers on 14 June 2023.' }), orrin)[0];
    expect(dated?.figures.map((f) => f.text)).toEqual(['£2.4 million', '310']);
    expect(dated?.figures[0]).toMatchObject({ unit: 'money', value: 2_400_000 });
  });
});

describe('extractClaims: documents with several speakers', () => {
  const article = doc({
    url: 'https://harwick-gazette.example/2024/04/ferries',
    publisher: 'The Harwick Gazette',
    speakers: ['The Harwick Gazette', 'Selma Okafor'],
    text: [
      'Ferry crossings to Dunnock Island fell to 2,100 in March, the lowest since 2015.',
      '"We will restore the winter timetable by December 2024," said Selma Okafor, who chairs the ferry trust. "Ticket sales already rose 9% in April."',
      'Harbourmaster Piet Varga was less hopeful. "The pier needs £3 million of repairs before any new sailings," he said.',
      'Okafor said the trust had raised £450,000 since January.',
      'According to the island council, 640 residents use the ferry every week.',
    ].join('\n'),
  });

  it('gives the subject only what is attributed to them: quotes, follow-on quotes and reported speech', () => {
    const got = quotes(article, okafor);
    expect(got).toEqual([
      'We will restore the winter timetable by December 2024',
      'Ticket sales already rose 9% in April.',
      'Okafor said the trust had raised £450,000 since January.',
    ]);
    expect(extractClaims(article, okafor).map((c) => c.attribution)).toEqual(['quotation', 'quotation', 'reported_speech']);
  });

  it('resolves "he said" to the person last named, not to the subject', () => {
    expect(quotes(article, okafor).some((q) => q.includes('pier'))).toBe(false);
  });

  it('gives the publishing outlet its own narration, and nothing it quotes or attributes', () => {
    const got = quotes(article, gazette);
    expect(got).toContain('Ferry crossings to Dunnock Island fell to 2,100 in March, the lowest since 2015.');
    expect(got.some((q) => /timetable|Ticket|pier|£450,000|640 residents/.test(q))).toBe(false);
  });

  it('returns nothing for a subject who is not among the document\'s speakers', () => {
    expect(extractClaims(article, orrin)).toEqual([]);
  });

  it('does not let a shared surname attribute one speaker\'s words to another', () => {
    const two = doc({
      publisher: 'Dunnock Radio',
      speakers: ['Ana Varga', 'Piet Varga'],
      text: '"The ferry carried 80,000 passengers in 2023," said Varga.\n"We will buy a second boat by 2026," said Ana Varga.',
    });
    expect(quotes(two, { name: 'Ana Varga', kind: 'person', aliases: [], urls: [] })).toEqual(['We will buy a second boat by 2026']);
  });
});

describe('extractClaims: transcripts and third-party pieces', () => {
  it('follows "<Name>:" labels, surnames in capitals, and unlabelled follow-on paragraphs', () => {
    const transcript = doc({
      publisher: 'Pellow Town Council',
      speakers: ['Selma Okafor', 'Rolf Brandt'],
      text: [
        'Pellow Town Council, ferry committee, 3 April 2024.',
        'Selma Okafor: The trust carried 26,000 passengers in 2023. We will add a Sunday sailing by July 2024.',
        'Rolf Brandt: The trust lost £80,000 last year.',
        'OKAFOR: Fares will rise by 5% in 2025.',
        'We expect the new pontoon to open in spring 2025.',
      ].join('\n'),
    });
    const claims = extractClaims(transcript, okafor);
    expect(claims.map((c) => c.quote)).toEqual([
      'The trust carried 26,000 passengers in 2023.',
      'We will add a Sunday sailing by July 2024.',
      'Fares will rise by 5% in 2025.',
      'We expect the new pontoon to open in spring 2025.',
    ]);
    expect(claims.every((c) => c.attribution === 'transcript')).toBe(true);
  });

  it('in a third party\'s piece that quotes the subject, counts only the quotes as theirs', () => {
    const profile = doc({
      publisher: 'Dunnock Radio',
      speakers: ['Selma Okafor'],
      text: 'Selma Okafor has run the ferry trust since 2019. "We cut the trust\'s debt by £200,000 in 2023," Okafor said.',
    });
    expect(quotes(profile, okafor)).toEqual(["We cut the trust's debt by £200,000 in 2023"]);
  });

  it('in an op-ed signed by the subject alone, the text is theirs', () => {
    const oped = doc({ publisher: 'Dunnock Radio', speakers: ['Selma Okafor'], text: 'Island fares rose 14% between 2020 and 2024. The council should publish ferry subsidies every year.' });
    expect(quotes(oped, okafor)).toEqual(['Island fares rose 14% between 2020 and 2024.', 'The council should publish ferry subsidies every year.']);
  });
});

describe('subjectMatcher', () => {
  it('matches names and aliases as whole words, possessives included, and a leading "the" as optional', () => {
    const m = subjectMatcher(gazette);
    expect(m('a Harwick Gazette reporter')).toBe(true);
    expect(m("the Gazette's editor said")).toBe(true);
    expect(m('the Harwick Gazetteer')).toBe(false);
    expect(subjectMatcher(orrin)('said a spokesperson for Orrin.')).toBe(true);
    expect(subjectMatcher(orrin)('said Lorrin Baker.')).toBe(false);
  });

  it('trusts a person\'s surname only when no other speaker of the document shares it', () => {
    expect(subjectMatcher(okafor)('said Okafor')).toBe(false);
    expect(subjectMatcher(okafor, ['Piet Varga'])('said Okafor')).toBe(true);
    expect(subjectMatcher(okafor, ['Dele Okafor'])('said Okafor')).toBe(false);
    expect(subjectMatcher(okafor, ['Dele Okafor'])('said Selma Okafor')).toBe(true);
  });
});

describe('extractClaims: quotes are always verbatim', () => {
  const sentences = [
    'We will open 4 new depots by June 2026.',
    'Ferry fares rose 6% in 2023.',
    'Is that right?',
    'Hello everyone.',
    '"Cyclists should use the Westbrook path," said Selma Okafor.',
    'Okafor said that 1,200 people signed the petition.',
    '“We expect 15% more visitors in 2025,” Okafor added.',
    'The council disagrees.',
    'Selma Okafor: Pellow gained 300 jobs in 2022.',
  ];
  it('for any arrangement of sentences and line breaks', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...sentences), { minLength: 1, maxLength: 8 }), fc.array(fc.constantFrom(' ', '\n', '\n\n'), { minLength: 8, maxLength: 8 }), (picked, gaps) => {
        const text = picked.map((s, i) => s + (gaps[i] ?? ' ')).join('');
        for (const speakers of [['Selma Okafor'], ['Selma Okafor', 'The Harwick Gazette']]) {
          for (const c of extractClaims(doc({ publisher: 'The Harwick Gazette', speakers, text }), okafor)) {
            expect(text.includes(c.quote)).toBe(true);
            expect(c.quote_verified).toBe(true);
            expect(c.quote).toBe(c.quote.trim());
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('extractClaims: what a press release says to its readers that is no claim', () => {
  it('leaves out calls to use its own channels, greetings, verdicts on a year and commitments to a state, and keeps the figures beside them', () => {
    const release = doc({
      url: 'https://orrin-foods.example/press/2025-02',
      publisher: 'Orrin Foods',
      speakers: ['Orrin Foods'],
      text: [
        '2024 was a landmark year for Orrin Foods.',
        'We sold 19.2 million loaves in 2024.',
        'We remain committed to being a good neighbour.',
        'This report sets out what we will deliver by 2027.',
        'Follow us on social media for the latest news.',
        'If you have an allergy, sign up to our newsletter and we will tell you about every recipe change.',
        'To report a faulty loaf, call 0300 555 0100 free of charge.',
        'Tickets for the bakery tour are on sale now at orrin-foods.example/tours.',
        'Have a wonderful weekend!',
      ].join('\n'),
    });
    expect(quotes(release, orrin)).toEqual(['We sold 19.2 million loaves in 2024.']);
  });
});
