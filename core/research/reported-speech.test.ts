import { describe, expect, it } from 'vitest';
import { extractClaims } from './extract.ts';
import { officersOf } from './officers.ts';
import { classifyClaim } from './classify.ts';

// Who speaks in a broadcaster's interview and live blog, and the type of a wager and of a record in the
// present perfect. Invented subjects throughout.

const charity = { name: 'Moorcroft Animal Rescue', kind: 'organisation' as const, aliases: [], urls: ['https://moorcroft-rescue.example'] };
const article = (text: string) => ({ url: 'https://westmarch-radio.example/news/1', title: 'Moorcroft', publisher: 'Westmarch Radio', published: '2025-11-18', speakers: [charity.name], text });
const quotes = (text: string) => extractClaims(article(text), charity).map((c) => c.quote);

describe('officers a broadcaster names', () => {
  it('reads the short name, "a spokesperson for", "who became chief executive of" and "has run"', () => {
    const names = (t: string) => officersOf(t, [charity.name]).map((n) => n.join(' '));
    expect(names("Moorcroft's chief inspector, Sean Mulvey, has just told us.")).toEqual(['sean mulvey']);
    expect(names('Lorna Pike, a spokesperson for Moorcroft, says the centre has room.')).toEqual(['lorna pike']);
    expect(names("Priya Hollis's desk is tidy. Ms Hollis, who became chief executive of Moorcroft Animal Rescue in 2021, told us.")).toEqual(['priya hollis']);
    expect(names('Delia Farrant has run Moorcroft Animal Rescue since 2022.')).toEqual(['delia farrant']);
    // A short name that begins another body's name too is not the subject's.
    expect(names("Moorcroft Radio is next door. Moorcroft's chief inspector, Sean Mulvey, has just told us.")).toEqual([]);
  });
});

describe('reported speech after an opener or a time stamp', () => {
  it('reads "Looking ahead, she promised…" and a live blog\'s "11:32 He told us…" as the speaker\'s', () => {
    const got = quotes([
      "Priya Hollis became chief executive of Moorcroft Animal Rescue in 2021. She said the charity had rehomed 2,140 animals in 2024.",
      'Looking ahead, she promised the charity would open a new 40-pen cattery at its Crossgate centre by the end of 2026.',
      "11:25 Moorcroft's chief inspector, Sean Mulvey, is at the farm.",
      '11:30 Sean Mulvey says the charity will bring a prosecution.',
      '11:32 He told us he expects the case to reach court in the spring.',
    ].join('\n'));
    expect(got.some((q) => q.includes('40-pen cattery'))).toBe(true);
    expect(got.some((q) => q.includes('reach court in the spring'))).toBe(true);
  });

  it('takes the speaker from the start of a sentence whose verb follows a clause about them', () => {
    const got = quotes([
      '11:30 Moorcroft Animal Rescue says it will bring a prosecution.',
      '11:40 A neighbour, who did not want to be named, told us she had reported the farm "twice in the last three years" to the council.',
    ].join('\n'));
    expect(got.some((q) => q.includes('twice in the last three years'))).toBe(false);
  });
});

describe('types', () => {
  const type = (q: string) => classifyClaim(q, { said_on: '2025-02-11', self_names: [charity.name], doc_period: null, speaks_for_body: true, own_document: false });
  it('reads a wager as a forecast, and a record in the present perfect as a statement of fact', () => {
    expect(type("I'd bet beer sales nationally fall again this year, by 2 to 3%").claim_type).toBe('prediction');
    expect(type("We haven't closed a single depot in five years").claim_type).toBe('factual');
    expect(type("We haven't closed a single depot in five years").deadline).toBeNull();
  });
});

describe('a resort spokesperson named by first name, headings, offers and times of day', () => {
  const resort = { name: 'Glenmarra Mountain Resorts', kind: 'organisation' as const, aliases: [], urls: ['https://glenmarra.example'] };
  const blog = (text: string) => extractClaims({ url: 'https://westmarch-radio.example/live/1', title: 'LIVE: Glenmarra opens', publisher: 'Westmarch Radio', published: '2025-12-13', speakers: [resort.name], text }, resort).map((c) => c.quote);

  it('reads "Resort spokesperson Kirsty Lamont told us" and later "Kirsty told us" as the resort\'s, and the blog\'s own lines as not', () => {
    const got = blog([
      "08:02 Good morning from the foot of the Glenmarra access road, where the first cars were queuing before seven.",
      "08:41 Resort spokesperson Kirsty Lamont told us that nine of the resort's 14 lifts were running this morning.",
      '11:10 Kirsty told us that more than 5,000 season passes had now been sold for this winter.',
    ].join('\n'));
    expect(got.some((q) => q.includes('nine of the resort'))).toBe(true);
    expect(got.some((q) => q.includes('5,000 season passes'))).toBe(true);
    expect(got.some((q) => q.includes('Good morning'))).toBe(false);
  });

  it('leaves out headings, offers to trade customers, encouragements and calls to keep listening', () => {
    const own = (text: string) => extractClaims({ url: 'https://glenmarra.example/news', title: 'News', publisher: resort.name, published: '2025-06-11', speakers: [resort.name], text }, resort).map((c) => c.quote);
    for (const line of ['Glenmarra Mountain Resorts, Kinlarig, 11 June 2025', 'Where we are: calendar year 2024', 'What we will do', 'Trade customers can order lift passes through the group desk, open seven days a week.', 'Families are encouraged to book online before they travel.', 'Keep listening on 102.4 FM, on DAB and on our app.']) {
      expect(own(line), line).toEqual([]);
    }
    // A line with its closing stop is a sentence, heading or not.
    expect(own('Skier days: 212,400, up 12%.')).toHaveLength(1);
  });
});

describe('a Q&A introduction and numbered paragraphs', () => {
  it('takes the office in brackets after a name, in a text about the subject, as the subject\'s', () => {
    const zoo = ['Fenwold Zoo and Conservation Park'];
    expect(officersOf('Fenwold Zoo and Conservation Park has had a hard year. I met Imogen Carraway (chief executive since 2019, a former veterinary nurse) at the lemur walk.', zoo)).toEqual([['imogen', 'carraway']]);
    expect(officersOf('I met Imogen Carraway (chief executive since 2019) at the lemur walk. Fenwold Zoo and Conservation Park has had a hard year.', zoo)).toEqual([]);
  });

  it('reads a paragraph\'s number as no figure', async () => {
    const { readQuantities } = await import('./quantities.ts');
    expect(readQuantities("3. The men's race was won by Tobias Arrendale in 2 hours 7 minutes 41 seconds.").map((q) => q.text)).toEqual(['2 hours 7 minutes 41 seconds']);
    expect(readQuantities('(2) Registered entries were 30,900.').map((q) => q.text)).toEqual(['30,900']);
    expect(readQuantities('3 of the 14 schools opened.').map((q) => q.text)).toContain('3');
  });
});
