import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AFTER_DUE_DAYS, DEFAULT_HORIZON_DAYS, FACT_WINDOW_DAYS, FIGURE_BANDS, candidateClaims, measuredThing, writeCriteria, type ClassifiedClaim } from './criteria.ts';
import { CandidateClaimSchema, type Figure } from './types.ts';

// Claims written for these tests (invented names, none from the sample pack).

const base: ClassifiedClaim = {
  quote: '',
  quote_verified: true,
  said_on: '2024-02-10',
  source: { url: 'https://orrin-foods.example/a', title: 'A', outlet: 'Orrin Foods', published: '2024-02-10' },
  speaker: 'Orrin Foods',
  attribution: 'own_document',
  entities: [],
  keywords: [],
  figures: [],
  claim_type: 'factual',
  topic: 'business',
  deadline: null,
};
const claim = (over: Partial<ClassifiedClaim>): ClassifiedClaim => ({ ...base, ...over });
const fig = (text: string, value: number, unit: Figure['unit'] = 'count'): Figure => ({ text, value, unit });

describe('writeCriteria', () => {
  it('factual with figures: names the figures, what they measure, the window and the bands', () => {
    const c = claim({ quote: 'Orrin Foods baked 18,000 loaves a day in 2023, up 7%.', figures: [fig('18,000', 18000), fig('7%', 7, 'percent')] });
    const text = writeCriteria(c);
    expect(text).toContain('on or before 2025-02-09');
    expect(text).toContain('18,000 loaves');
    expect(text).toContain('7%');
    expect(text).toContain('in 2023');
    expect(text).toContain('within 10% mostly_true');
    expect(text).toContain('within 25% mostly_false');
    expect(text).toContain('mixed if some of its figures hold'); // only said when there are several figures
    expect(writeCriteria(claim({ quote: 'Orrin Foods employs 420 people.', figures: [fig('420', 420)] }))).not.toContain('mixed if some');
  });

  it('factual without figures: tests the statement itself and the entities it names', () => {
    const text = writeCriteria(claim({ quote: 'Orrin Foods bought the Pellow mill from Dunnock Grain.', entities: ['Pellow', 'Dunnock Grain'] }));
    expect(text).toContain('"Orrin Foods bought the Pellow mill from Dunnock Grain"');
    expect(text).toContain('about Pellow and Dunnock Grain');
    expect(text).toMatch(/^True if an independent source published on or before 2025-02-09 confirms/);
  });

  it('promise: kept if done by the deadline, late after it, partial for a share of the figure, pending until then', () => {
    const text = writeCriteria(claim({ claim_type: 'promise', quote: 'We will open 3 bakeries in Pellow by March 2026.', figures: [fig('3', 3)], deadline: '2026-03-31' }));
    expect(text).toMatch(/^Kept \(true\) if independent sources show that Orrin Foods carried out the commitment "We will open 3 bakeries in Pellow by March 2026" by 2026-03-31/);
    expect(text).toContain('on_time false');
    expect(text).toContain('at least 90% of 3');
    expect(text).toContain('Pending until 2026-03-31.');
  });

  it('promise without a date: judged two years after it was made, and says so', () => {
    const text = writeCriteria(claim({ claim_type: 'promise', quote: 'We will keep the Harwick shop open.' }));
    expect(DEFAULT_HORIZON_DAYS).toBe(730);
    expect(text).toContain('Pending until 2026-02-09.');
    expect(text).toContain('no date was stated');
  });

  it('prediction: the forecast, its due date, and how late the evidence may come', () => {
    const text = writeCriteria(claim({ claim_type: 'prediction', quote: 'Grain prices will climb by 15% by the end of 2025.', figures: [fig('15%', 15, 'percent')], deadline: '2025-12-31' }));
    expect(text).toContain('published on or before 2026-07-01'); // 2025-12-31 + 182 days
    expect(AFTER_DUE_DAYS).toBe(182);
    expect(text).toContain('"Grain prices will climb by 15% by the end of 2025"');
    expect(text).toContain('came about by 2025-12-31');
    expect(text).toContain('for its figures (15%)');
    expect(text).toContain('Pending until 2025-12-31.');
  });

  it('guidance: whether authoritative independent sources support the advice, with its details', () => {
    const text = writeCriteria(claim({ claim_type: 'guidance', quote: 'Customers should freeze bread within 2 days of buying it.', figures: [fig('2', 2)] }));
    expect(text).toContain('support the advice "Customers should freeze bread within 2 days of buying it"');
    expect(text).toContain('current on 2024-02-10 or published by 2025-02-09');
    expect(text).toContain('including its figures (2)');
    expect(text).toContain('advise against it');
  });

  it('is derived from the claim: different claims of one type get different tests', () => {
    const a = writeCriteria(claim({ quote: 'Orrin Foods employs 420 people.', figures: [fig('420', 420)] }));
    const b = writeCriteria(claim({ quote: 'Orrin Foods employs 510 people.', figures: [fig('510', 510)], said_on: '2023-06-01' }));
    expect(a).not.toBe(b);
    expect(b).toContain('2024-05-31');
  });

  it('always states each figure and the dates, for any figure and any date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000_000 }), fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }), fc.constantFrom('factual', 'promise', 'prediction', 'guidance'), (n, day, type) => {
        const said_on = day.toISOString().slice(0, 10);
        const text = n.toLocaleString('en-GB');
        const deadline = type === 'promise' || type === 'prediction' ? `${Number(said_on.slice(0, 4)) + 1}-12-31` : null;
        const c = claim({ claim_type: type, said_on, quote: `Harwick recorded ${text} visitors.`, figures: [fig(text, n)], deadline });
        const out = writeCriteria(c);
        expect(out).toContain(text);
        if (deadline) expect(out).toContain(`Pending until ${deadline}.`);
        else expect(out).toContain(new Date(Date.parse(`${said_on}T00:00:00Z`) + FACT_WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10));
      }),
      { numRuns: 80 },
    );
  });
});

describe('FIGURE_BANDS', () => {
  it('widen from true to mostly_false', () => {
    expect(FIGURE_BANDS.map((b) => b.outcome)).toEqual(['true', 'mostly_true', 'mostly_false']);
    const widths = FIGURE_BANDS.map((b) => b.within);
    expect([...widths].sort((x, y) => x - y)).toEqual(widths);
  });
});

describe('measuredThing', () => {
  it('joins each figure to the nouns after it, else to the noun phrase the sentence opens with', () => {
    expect(measuredThing('We sold 3,200 wholemeal loaves in 2022.', [fig('3,200', 3200)])).toBe('3,200 wholemeal loaves in 2022');
    expect(measuredThing('Flour waste fell to 4% in 2023.', [fig('4%', 4, 'percent')])).toBe('4% for Flour waste in 2023');
  });
});

describe('candidateClaims', () => {
  it('runs extract, classify and criteria, giving schema-valid claims', () => {
    const claims = candidateClaims(
      {
        url: 'https://orrin-foods.example/b',
        title: 'B',
        publisher: 'Orrin Foods',
        published: '2025-05-01',
        speakers: ['Orrin Foods'],
        text: 'We will hire 60 bakers in Pellow by the end of 2026. Orrin Foods sold 2,300 cakes in April. We expect butter prices to rise by 10% next year. Customers should keep cream cakes in the fridge.',
      },
      { name: 'Orrin Foods', kind: 'organisation', aliases: [], urls: [] },
    );
    expect(claims.map((c) => [c.claim_type, c.deadline])).toEqual([
      ['promise', '2026-12-31'],
      ['factual', null],
      // A body's expectation in its own voice is guidance since method 1.1, dated like a forecast.
      ['guidance', '2026-12-31'],
      ['guidance', null],
    ]);
    for (const c of claims) expect(CandidateClaimSchema.parse(c)).toEqual(c);
  });
});
