import { describe, expect, it } from 'vitest';
import { extractClaims } from './extract.ts';

// Definite statements of a record in words are claims, though they name no figure, date or other party; views
// and aims worded the same way are not. Invented subjects throughout.

const subject = { name: 'Fenmoor Water', kind: 'organisation' as const, aliases: [], urls: ['https://fenmoor-water.example'] };
const quotesOf = (text: string) =>
  extractClaims({ url: 'https://fenmoor-water.example/news/1', title: 'News', publisher: 'Fenmoor Water', published: '2025-03-06', speakers: ['Fenmoor Water'], text }, subject).map((c) => c.quote);

describe('a record stated in words', () => {
  it.each([
    'No customer funds were lost.',
    'Every treatment works in the county now has a backup generator.',
    'We have paid compensation to every single eligible customer.',
    'All of our meter readings are taken by hand.',
    'Our bills are lower than those of any other water company in the region.',
    'Our leakage last year was below the national average.',
    'More than half of our pipes were laid after 1990.',
    'The reservoir project has come in on budget.',
    'The company has never been fined by the regulator.',
  ])('takes "%s" as a claim', (sentence) => {
    expect(quotesOf(sentence)).toEqual([sentence]);
  });

  it('takes a future deed reported with its time as a claim', () => {
    const quotes = quotesOf('Ada Finch, chief executive of Fenmoor Water, spoke at the launch. She said the company would publish a drought plan before the end of the summer.');
    expect(quotes).toContain('She said the company would publish a drought plan before the end of the summer.');
  });

  it.each([
    'We believe clean rivers have never mattered more.',
    'I have never been prouder of this team.',
    'We want every customer to feel that Fenmoor is their water company.',
    'It has been a fantastic summer, and the team deserves every bit of credit.',
    'I think we have the most beautiful reservoirs in the country.',
  ])('leaves "%s" out', (sentence) => {
    expect(quotesOf(sentence)).toEqual([]);
  });
});
