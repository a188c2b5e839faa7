import { describe, expect, it } from 'vitest';
import { checkGold, parseGold, type PackIndex } from './gold.ts';

// An invented pack of one subject and two documents.
const pack: PackIndex = {
  subjects: [{ name: 'Pellow Water', aliases: ['Pellow Water plc'], sample: true }],
  documents: [
    { url: 'https://pellow-water.example/a', speakers: ['Pellow Water'], text: 'We cut leakage by 9% in 2024. We will replace 400 km of mains by the end of 2026.', sample: true },
    { url: 'https://regulator.example/b', speakers: [], text: 'Pellow Water cut leakage by 8.5% in 2024.', sample: true },
  ],
};
const gold = (...lines: object[]) => parseGold([{ record: 'eval', today: '2025-06-30' }, ...lines].map((l) => JSON.stringify(l)).join('\n'));
const claim = (over: object) => ({ record: 'claim', subject: 'Pellow Water', url: 'https://pellow-water.example/a', quote: 'We cut leakage by 9% in 2024', claim_type: 'factual', outcome: 'mostly_true', ...over });

describe('checkGold', () => {
  it('finds nothing wrong in a consistent pair', () => {
    expect(checkGold(gold(claim({}), claim({ quote: 'We will replace 400 km of mains by the end of 2026', claim_type: 'promise', outcome: 'pending', due: '2026-12-31' })), pack)).toEqual([]);
  });

  it('names each kind of problem', () => {
    const problems = checkGold(gold(
      claim({ quote: 'We cut leakage by 10% in 2024' }),
      claim({ url: 'https://regulator.example/b', quote: 'Pellow Water cut leakage by 8.5% in 2024' }),
      claim({ url: 'https://nowhere.example/c' }),
      claim({ subject: 'Someone Else' }),
      claim({}), claim({}),
      claim({ quote: 'We will replace 400 km of mains by the end of 2026', claim_type: 'promise', outcome: 'pending' }),
    ), { ...pack, subjects: [{ ...pack.subjects[0]!, sample: false }] });
    const text = problems.join('\n');
    expect(text).toMatch(/not an exact substring/);
    expect(text).toMatch(/does not list "Pellow Water" among its speakers/);
    expect(text).toMatch(/nowhere\.example\/c is not in the pack/);
    expect(text).toMatch(/"Someone Else" is not in the pack/);
    expect(text).toMatch(/given twice/);
    expect(text).toMatch(/pending with no due date/);
    expect(text).toMatch(/not marked "sample": true/);
  });

  it('accepts an alias as the subject and a non-claim in any document', () => {
    expect(checkGold(gold(claim({ subject: 'Pellow Water plc' }), { record: 'non_claim', subject: 'Pellow Water', url: 'https://regulator.example/b', quote: 'Pellow Water cut leakage', why: 'others_words' }), pack)).toEqual([]);
  });
});
