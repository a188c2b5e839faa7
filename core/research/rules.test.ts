import { describe, expect, it } from 'vitest';
import { affiliationsOf, isIndependent, isOwnPublication, mayBeEvidence, onSite } from './rules.ts';

describe('the method rules on who a document belongs to', () => {
  it('a site covers its path on segment boundaries, www and scheme aside', () => {
    expect(onSite('https://www.a.example/news/1', 'a.example/news')).toBe(true);
    expect(onSite('https://a.example/newsroom/1', 'https://a.example/news')).toBe(false);
    expect(onSite('not a url', 'https://a.example')).toBe(false);
  });

  it('a person is not independent of the organisation they lead, nor of their own publications', () => {
    const person = { name: 'Helen Ashcombe', kind: 'person', aliases: ['Dr Helen Ashcombe'], urls: [], description: 'SAMPLE DATA (invented): chief executive of Severnmoor Water since 2021.' };
    expect(affiliationsOf(person.description)).toEqual(['Severnmoor Water']);
    expect(isIndependent({ url: 'https://severnmoor.example/a', publisher: 'Severnmoor Water' }, person)).toBe(false);
    expect(isIndependent({ url: 'https://gazette.example/a', publisher: 'Ashvale Gazette' }, person)).toBe(true);
    // Her organisation's press release is not independent of her, but it is not her own voice either.
    expect(isOwnPublication({ url: 'https://severnmoor.example/a', publisher: 'Severnmoor Water' }, person)).toBe(false);
    expect(isOwnPublication({ url: 'https://x.example/a', publisher: 'DR HELEN ASHCOMBE' }, person)).toBe(true);
  });

  it('invented sample documents judge only invented sample subjects, never a real one or a demo-set claim', () => {
    const sampleDoc = { sample: true };
    expect(mayBeEvidence(sampleDoc, { sample: true, demo: false })).toBe(true);
    expect(mayBeEvidence(sampleDoc, { sample: false, demo: false })).toBe(false);
    expect(mayBeEvidence(sampleDoc, { sample: true, demo: true })).toBe(false);
    expect(mayBeEvidence(sampleDoc, {})).toBe(false);
    expect(mayBeEvidence({}, { sample: false })).toBe(true);
  });
});
