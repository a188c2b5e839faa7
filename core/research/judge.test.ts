import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { candidateClaims } from './criteria.ts';
import type { EvidenceItem } from './evidence.ts';
import { combine, dueDate, judgeClaim, type JudgeOpinion } from './judge.ts';
import { RESOLVED_OUTCOMES, isResolved, type Outcome } from '../method/outcomes.ts';
import type { CandidateClaim } from './types.ts';

// Invented subject, places and publishers throughout. The claims come from the real
// extract → classify → criteria stages, so their shapes are the ones the judge meets.

const subject = { name: 'Orrin Foods', kind: 'organisation' as const, aliases: ['Orrin'], urls: ['https://orrin-foods.example'] };
const own = (path: string, text: string) => ({
  url: `https://orrin-foods.example/news/${path}`, title: 'News', publisher: 'Orrin Foods', published: '2024-02-10', speakers: ['Orrin Foods'], text,
});
const claims = [
  ...candidateClaims(own('a', 'Orrin Foods baked 18,000 loaves a day in 2023. We will open 3 new bakeries in Pellow by March 2025. We will publish our flour sourcing audit by June 2024. Customers should store bread in a cool, dry place. Flour prices will fall by 10% before the end of 2024.'), subject),
  ...candidateClaims(own('b', 'Orrin Foods opened its Harwick mill in May 2023. We will donate 500 loaves a week to the Pellow food bank by the end of 2027. People should not eat raw dough.'), subject),
];
const claim = (fragment: string): CandidateClaim => {
  const found = claims.find((c) => c.quote.includes(fragment));
  if (!found) throw new Error(`no claim with "${fragment}"`);
  return found;
};
const [LOAVES, BAKERIES, AUDIT, STORE] = [claim('18,000 loaves'), claim('3 new bakeries'), claim('sourcing audit'), claim('store bread')];
const [DOUGH, FLOUR, MILL, DONATE] = [claim('raw dough'), claim('Flour prices'), claim('Harwick mill'), claim('donate 500')];

let n = 0;
const ev = (publisher: string, published: string | null, quote: string, independent = true): EvidenceItem => ({
  url: `https://${publisher.toLowerCase().replace(/[^a-z]+/g, '-')}.example/${(n += 1)}`, publisher, published, quote, independent_of_subject: independent, relevance: 0.5,
});
const [GAZETTE, AGENCY] = ['Pellow Gazette', 'Pellow Food Standards Agency'];

describe('the claims under test', () => {
  it('are typed as the fixed tests below assume', () => {
    expect([LOAVES, BAKERIES, AUDIT, STORE, DOUGH, FLOUR, MILL, DONATE].map((c) => c.claim_type)).toEqual(['factual', 'promise', 'promise', 'guidance', 'guidance', 'prediction', 'factual', 'promise']);
    expect([BAKERIES.deadline, AUDIT.deadline, FLOUR.deadline]).toEqual(['2025-03-31', '2024-06-30', '2024-12-31']);
  });
});

describe('factual claims with figures: the bands of the fixed test', () => {
  it.each([
    ['18,200', 'true'],
    ['19,000', 'mostly_true'],
    ['21,000', 'mostly_false'],
    ['30,000', 'false'],
  ])('18,000 against a reported %s is %s', (figure, outcome) => {
    const v = judgeClaim(LOAVES, [ev(GAZETTE, '2024-05-01', `Orrin Foods baked ${figure} loaves a day in 2023, an inspection found.`)], '2025-01-01');
    expect(v.outcome).toBe(outcome);
    expect(v.on_time).toBeNull();
    expect(v.rationale).toContain(`Pellow Gazette (2024-05-01) wrote: "Orrin Foods baked ${figure} loaves a day in 2023`);
  });

  it('a source published after the window does not count, and the rationale says so', () => {
    const v = judgeClaim(LOAVES, [ev(GAZETTE, '2025-06-01', 'Orrin Foods baked 18,000 loaves a day in 2023.')], '2026-01-01');
    expect(v.outcome).toBe('unresolvable');
    expect(v.rationale).toMatch(/on or before 2025-02-09[\s\S]*outside the fixed test's window/);
  });

  it('evidence that is not independent never settles the claim, but is named', () => {
    const v = judgeClaim(LOAVES, [ev('Orrin Foods', '2024-03-01', 'Orrin Foods baked 18,000 loaves a day in 2023.', false)], '2025-01-01');
    expect(v.outcome).toBe('unresolvable');
    expect(v.opinions.every((o) => o.outcome === 'unresolvable')).toBe(true);
    expect(v.rationale).toMatch(/Not counted: 1 item\(s\) published by the subject/);
  });

  it('a figure about another year is not the same measure', () => {
    expect(judgeClaim(LOAVES, [ev(GAZETTE, '2024-05-01', 'Orrin Foods baked 30,000 loaves a day in 2021.')], '2025-01-01').outcome).toBe('unresolvable');
  });
});

describe('factual claims in words', () => {
  it('a claim about its own deeds ("we…") is not confirmed by the same deed done by someone else', () => {
    const [ours] = candidateClaims(own('c', 'We spent £31 million on oven repairs in the last financial year.'), subject);
    const v = judgeClaim(ours as CandidateClaim, [ev(GAZETTE, '2024-05-01', 'The county council spent £31 million on oven repairs in the last financial year.')], '2025-01-01');
    expect(v.opinions.find((o) => o.judge === 'wording')?.outcome).toBe('unresolvable');
    const named = judgeClaim(ours as CandidateClaim, [ev(GAZETTE, '2024-05-01', 'Orrin Foods spent £31 million on oven repairs in the last financial year.')], '2025-01-01');
    expect(named.opinions.find((o) => o.judge === 'wording')?.outcome).toBe('true');
  });

  it('confirmed by an independent report of the same event, contradicted when the source negates it', () => {
    const v = judgeClaim(MILL, [ev(GAZETTE, '2023-06-01', 'The Harwick mill, owned by Orrin Foods, opened in May 2023.')], '2024-06-01');
    expect(v).toMatchObject({ outcome: 'true', judges_disagree: false });
    expect(v.opinions.find((o) => o.judge === 'wording')?.outcome).toBe('true');
    const denied = [ev(GAZETTE, '2024-03-01', 'The Harwick mill of Orrin Foods did not open in May 2023, and the mill still stands empty.')];
    expect(judgeClaim(MILL, denied, '2024-06-01').outcome).toBe('false');
  });
});

describe('promises', () => {
  it('pending before the deadline when nothing shows it kept', () => {
    const v = judgeClaim(BAKERIES, [], '2024-12-01');
    expect(v).toMatchObject({ outcome: 'pending', on_time: null });
    expect(v.rationale).toContain('falls due on 2025-03-31');
  });

  it('kept early settles it before the deadline', () => {
    const v = judgeClaim(BAKERIES, [ev(GAZETTE, '2024-11-20', 'Orrin Foods opened 3 new bakeries in Pellow in November 2024.')], '2024-12-01');
    expect(v).toMatchObject({ outcome: 'true', on_time: true, judges_disagree: false });
  });

  it('partly kept before the deadline is still pending: there is time left', () => {
    const v = judgeClaim(BAKERIES, [ev(GAZETTE, '2024-11-20', 'Orrin Foods has opened 2 new bakeries in Pellow so far.')], '2024-12-01');
    expect(v.outcome).toBe('pending');
  });

  it('a promise of a number of deeds is not kept in full by a report of the deed without its number', () => {
    const done = ev(GAZETTE, '2024-11-20', 'Orrin Foods opened the new bakeries in Pellow in November 2024.');
    const part = ev(GAZETTE, '2024-11-25', 'Orrin Foods has 2 new bakeries trading in Pellow so far.');
    const v = judgeClaim(BAKERIES, [done, part], '2024-12-01');
    expect(v.outcome).toBe('pending');
    const after = judgeClaim(BAKERIES, [done, part], '2025-09-01');
    expect(after.outcome).toBe('mixed');
    expect(after.opinions.find((o) => o.judge === 'wording')?.outcome).not.toBe('true');
    // With the number reported, the words confirm it too.
    expect(judgeClaim(BAKERIES, [ev(GAZETTE, '2024-11-20', 'Orrin Foods opened 3 new bakeries in Pellow in November 2024.')], '2025-09-01').outcome).toBe('true');
  });

  it('kept late: true with on_time false', () => {
    const v = judgeClaim(BAKERIES, [ev(GAZETTE, '2025-06-02', 'Orrin Foods opened 3 new bakeries in Pellow in May 2025, later than it had promised.')], '2025-09-01');
    expect(v).toMatchObject({ outcome: 'true', on_time: false });
    expect(v.rationale).toMatch(/after the deadline, 2025-03-31, so it counts as late/);
  });

  it('kept in part: the share delivered sets the outcome', () => {
    const v = judgeClaim(BAKERIES, [ev(GAZETTE, '2025-04-02', 'By March 2025 Orrin Foods had opened 2 new bakeries in Pellow.')], '2025-09-01');
    expect(v.outcome).toBe('mixed');
    expect(v.on_time).toBe(true);
  });

  it('broken: false, and on_time stays null', () => {
    const v = judgeClaim(BAKERIES, [ev(GAZETTE, '2025-04-10', 'Orrin Foods did not open the new bakeries in Pellow, and the plan was scrapped.')], '2025-09-01');
    expect(v).toMatchObject({ outcome: 'false', on_time: null });
  });

  it('a figure the source denies is not a delivery', () => {
    const v = judgeClaim(BAKERIES, [ev(GAZETTE, '2025-04-10', 'Orrin Foods had not opened the 3 new bakeries in Pellow by March 2025.')], '2025-09-01');
    expect(v.opinions.find((o) => o.judge === 'figures')?.outcome).toBe('unresolvable');
    expect(v.outcome).toBe('false');
    expect(judgeClaim(LOAVES, [ev(GAZETTE, '2024-05-01', 'Orrin Foods baked 12,000 loaves a day in 2023, not 18,000.')], '2025-01-01').outcome).toBe('false');
  });

  it('on time or late from the date the source gives', () => {
    const onTime = judgeClaim(AUDIT, [ev(GAZETTE, '2024-06-12', 'Orrin Foods published its flour sourcing audit on 11 June 2024.')], '2024-12-01');
    expect(onTime).toMatchObject({ outcome: 'true', on_time: true });
    const late = judgeClaim(AUDIT, [ev(GAZETTE, '2024-09-02', 'Orrin Foods published its flour sourcing audit on 30 August 2024.')], '2024-12-01');
    expect(late).toMatchObject({ outcome: 'true', on_time: false });
  });

  it('delayed and not yet done: open (a promise kept late is kept); delayed but done: kept late', () => {
    expect(judgeClaim(AUDIT, [ev(GAZETTE, '2024-07-15', 'Orrin Foods has delayed its flour sourcing audit until 2025.')], '2024-12-01').outcome).toBe('unresolvable');
    const late = judgeClaim(AUDIT, [ev(GAZETTE, '2024-10-15', 'Orrin Foods published its flour sourcing audit in October 2024 after it was delayed twice.')], '2024-12-01');
    expect(late).toMatchObject({ outcome: 'true', on_time: false });
  });

  it('a source from before the promise was made cannot show it kept', () => {
    const v = judgeClaim(AUDIT, [ev(GAZETTE, '2023-12-01', 'Orrin Foods published its flour sourcing audit on 30 November 2023.')], '2024-12-01');
    expect(v.outcome).toBe('unresolvable');
    expect(v.rationale).toContain('It fell due on 2024-06-30');
  });

  it('without a date it falls due two years after it was made', () => {
    expect([dueDate({ claim_type: 'promise', deadline: null, said_on: '2024-02-10' }), dueDate({ claim_type: 'factual', deadline: null, said_on: '2024-02-10' })]).toEqual(['2026-02-09', null]);
  });
});

describe('predictions', () => {
  it('pending until due even when the evidence already points one way', () => {
    const v = judgeClaim(FLOUR, [ev(GAZETTE, '2024-06-01', 'Flour prices in Pellow fell by 11% in the first half of 2024.')], '2024-06-15');
    expect(v.outcome).toBe('pending');
  });

  it('came about: true; the opposite happened: false, by both judges', () => {
    expect(judgeClaim(FLOUR, [ev('Office for Pellow Statistics', '2025-01-15', 'Flour prices in Pellow fell by 10.1% over 2024.')], '2025-03-01').outcome).toBe('true');
    const wrong = judgeClaim(FLOUR, [ev('Office for Pellow Statistics', '2025-01-15', 'Flour prices in Pellow rose by 4% over 2024.')], '2025-03-01');
    expect(wrong).toMatchObject({ outcome: 'false', judges_disagree: false });
    expect(wrong.opinions.map((o) => o.outcome)).toEqual(['false', 'false']);
  });

  it('evidence later than six months after the due date does not count', () => {
    const v = judgeClaim(FLOUR, [ev('Office for Pellow Statistics', '2025-08-01', 'Flour prices in Pellow fell by 10% over 2024.')], '2025-09-01');
    expect(v.outcome).toBe('unresolvable');
  });
});

describe('guidance', () => {
  it('supported by an authority giving the same advice', () => {
    expect(judgeClaim(STORE, [ev(AGENCY, '2023-05-01', 'Store bread in a cool, dry place and eat it within three days.')], '2024-06-01').outcome).toBe('true');
    expect(judgeClaim(DOUGH, [ev(AGENCY, '2023-05-01', 'Nobody should eat raw dough or batter, which can carry harmful bacteria.')], '2024-06-01').outcome).toBe('true');
  });

  it('false when the authority advises the opposite', () => {
    expect(judgeClaim(STORE, [ev(AGENCY, '2023-05-01', 'Do not store bread in a cool, dry place; freeze it instead.')], '2024-06-01').outcome).toBe('false');
  });

  it('a newspaper is not an authority for the guidance test', () => {
    const v = judgeClaim(STORE, [ev(GAZETTE, '2023-05-01', 'Store bread in a cool, dry place and eat it within three days.')], '2024-06-01');
    expect(v.outcome).toBe('unresolvable');
    expect(v.rationale).toMatch(/Not counted for guidance: 1 item/);
  });
});

describe('two judges and the combination rule', () => {
  const op = (judge: string, outcome: Outcome): JudgeOpinion => ({ judge, outcome, on_time: null, reason: '' });

  it('an abstaining judge does not disagree: the other one\'s outcome stands', () => {
    expect(combine([op('figures', 'mostly_true'), op('wording', 'unresolvable')])).toMatchObject({ outcome: 'mostly_true', judges_disagree: false });
    expect(combine([op('figures', 'pending'), op('wording', 'true')])).toMatchObject({ outcome: 'true', judges_disagree: false });
    expect(combine([op('figures', 'pending'), op('wording', 'pending')])).toMatchObject({ outcome: 'pending', judges_disagree: false });
    expect(combine([op('figures', 'unresolvable'), op('wording', 'unresolvable')])).toMatchObject({ outcome: 'unresolvable', judges_disagree: false });
  });

  it('resolved judges who differ disagree; the outcome nearer mixed wins, opposite sides leave it unresolvable', () => {
    expect(combine([op('figures', 'true'), op('wording', 'mostly_true')])).toMatchObject({ outcome: 'mostly_true', judges_disagree: true });
    expect(combine([op('figures', 'false'), op('wording', 'mixed')])).toMatchObject({ outcome: 'mixed', judges_disagree: true });
    expect(combine([op('figures', 'true'), op('wording', 'false')])).toMatchObject({ outcome: 'unresolvable', judges_disagree: true });
    expect(combine([op('figures', 'mostly_true'), op('wording', 'mostly_false')])).toMatchObject({ outcome: 'unresolvable', judges_disagree: true });
  });

  it('end to end: figures that hold, worded as misleading, leave it unresolvable with the judges disagreeing', () => {
    const v = judgeClaim(LOAVES, [ev(GAZETTE, '2024-05-01', 'Inspectors called the statement that Orrin Foods baked 18,000 loaves a day in 2023 misleading.')], '2025-01-01');
    expect(v.opinions.map((o) => [o.judge, o.outcome])).toEqual([['figures', 'true'], ['wording', 'false']]);
    expect(v).toMatchObject({ outcome: 'unresolvable', judges_disagree: true });
    expect(v.rationale).toMatch(/The judges disagree \(figures: true, wording: false\); they read it on opposite sides, so the evidence does not settle it/);
  });

  it('property: the rule is symmetric, flags exactly the resolved differences, and never strays further from mixed', () => {
    const outcomes = fc.constantFrom<Outcome>(...RESOLVED_OUTCOMES, 'unresolvable', 'pending');
    fc.assert(
      fc.property(outcomes, outcomes, (a, b) => {
        const ab = combine([op('figures', a), op('wording', b)]);
        const ba = combine([op('wording', b), op('figures', a)]);
        expect(ab.outcome).toBe(ba.outcome);
        expect(ab.judges_disagree).toBe(isResolved(a) && isResolved(b) && a !== b);
        if (isResolved(a) && isResolved(b)) {
          const pos = (o: Outcome) => RESOLVED_OUTCOMES.indexOf(o as (typeof RESOLVED_OUTCOMES)[number]) - 2;
          const opposite = pos(a) * pos(b) < 0;
          if (opposite) expect(ab.outcome).toBe('unresolvable');
          else expect(Math.abs(pos(ab.outcome))).toBeLessThanOrEqual(Math.min(Math.abs(pos(a)), Math.abs(pos(b))));
        }
      }),
    );
  });
});

describe('properties of judging', () => {
  const pool: EvidenceItem[] = [
    ev(GAZETTE, '2024-05-01', 'Orrin Foods baked 18,200 loaves a day in 2023.'),
    ev(GAZETTE, '2024-11-20', 'Orrin Foods opened 3 new bakeries in Pellow in November 2024.'),
    ev(GAZETTE, '2024-06-12', 'Orrin Foods published its flour sourcing audit on 11 June 2024.'),
    ev(AGENCY, '2023-05-01', 'Store bread in a cool, dry place and eat it within three days.'),
    ev('Office for Pellow Statistics', '2025-01-15', 'Flour prices in Pellow rose by 4% over 2024.'),
    ev(GAZETTE, '2023-06-01', 'The Harwick mill, owned by Orrin Foods, opened in May 2023.'),
    ev(AGENCY, '2023-05-01', 'Nobody should eat raw dough or batter.'),
    ev(GAZETTE, '2025-04-10', 'Orrin Foods did not open the new bakeries in Pellow, and the plan was scrapped.'),
  ];
  const anyClaim = fc.constantFrom(...claims);
  const anyDay = fc.integer({ min: 0, max: 4 * 365 }).map((d) => new Date(Date.UTC(2023, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));

  it('never resolves a claim without independent evidence', () => {
    fc.assert(
      fc.property(anyClaim, fc.subarray(pool), anyDay, (c, items, today) => {
        const ownOnly = items.map((e) => ({ ...e, independent_of_subject: false }));
        expect(isResolved(judgeClaim(c, ownOnly, today).outcome)).toBe(false);
      }),
    );
  });

  it('a promise or prediction before its due date, with no evidence, is pending', () => {
    const forward = claims.filter((c) => c.claim_type === 'promise' || c.claim_type === 'prediction');
    fc.assert(
      fc.property(fc.constantFrom(...forward), fc.integer({ min: 0, max: 2000 }), (c, back) => {
        const due = dueDate(c) as string;
        const today = new Date(Date.parse(`${due}T00:00:00Z`) - (back + 1) * 86_400_000).toISOString().slice(0, 10);
        expect(judgeClaim(c, [], today).outcome).toBe('pending');
      }),
    );
  });

  it('is deterministic and does not depend on the order of the evidence', () => {
    fc.assert(
      fc.property(anyClaim, fc.shuffledSubarray(pool), anyDay, (c, items, today) => {
        const once = judgeClaim(c, items, today);
        expect(judgeClaim(c, [...items].reverse(), today)).toEqual(once);
        expect(judgeClaim(c, items, today)).toEqual(once);
      }),
    );
  });

  it('only the outcome scale, with on_time only for resolved promises', () => {
    fc.assert(
      fc.property(anyClaim, fc.subarray(pool), anyDay, (c, items, today) => {
        const v = judgeClaim(c, items, today);
        if (v.on_time !== null) expect(c.claim_type === 'promise' && isResolved(v.outcome) && v.outcome !== 'false').toBe(true);
        expect(v.opinions).toHaveLength(2);
        expect(v.rationale.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('sample isolation in the evidence stage', () => {
  it('a sample document is never selected as evidence for a real subject, and is for a sample one', async () => {
    const { selectEvidence } = await import('./evidence.ts');
    const doc = { url: 'https://gazette.example/orrin', title: 'Loaves', publisher: 'Pellow Gazette', published: '2024-05-01', speakers: [], text: 'Orrin Foods baked 18,200 loaves a day in 2023, an inspection found.', sample: true };
    const base = { subject_id: 'sub_x', name: 'Orrin Foods', kind: 'organisation' as const, aliases: ['Orrin'], description: null, public_figure: true, offices: [], serving_politician: false, urls: ['https://orrin-foods.example'], handles: [], demo: false };
    expect(selectEvidence(LOAVES, { ...base, sample: false }, [doc], 5)).toEqual([]);
    expect(selectEvidence(LOAVES, { ...base, sample: true, demo: true }, [doc], 5)).toEqual([]);
    expect(selectEvidence(LOAVES, { ...base, sample: true }, [doc], 5).map((e) => e.url)).toEqual([doc.url]);
  });
});
