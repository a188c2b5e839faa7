import { describe, expect, it } from 'vitest';
import { parseClaimReview } from './claimreview.ts';

// Invented fact checks in schema.org ClaimReview form.
const review = (over: Record<string, unknown> = {}) => ({
  '@context': 'https://schema.org',
  '@type': 'ClaimReview',
  datePublished: '2024-03-10',
  url: 'https://pellow-factcheck.example/checks/ferry-passengers',
  author: { '@type': 'Organization', name: 'Pellow Fact Check' },
  claimReviewed: 'The Pellow ferry carried 41,000 passengers in June.',
  itemReviewed: {
    '@type': 'Claim',
    author: { '@type': 'Person', name: 'Orla Vantreece' },
    datePublished: '2024-03-01',
    appearance: { '@type': 'CreativeWork', url: 'https://pellow-radio.example/2024/03/01/interview' },
  },
  reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1, alternateName: 'Mostly True' },
  ...over,
});

describe('parseClaimReview', () => {
  it('one object: subject from itemReviewed.author, quote from claimReviewed, the claim\'s own date, where it appeared', () => {
    const r = parseClaimReview(JSON.stringify(review()));
    expect(r.problems).toEqual([]);
    expect(r.rows).toEqual([{
      dataset: 'claimreview', source_id: 'https://pellow-factcheck.example/checks/ferry-passengers',
      subject: { name: 'Orla Vantreece', kind: 'person' }, quote: 'The Pellow ferry carried 41,000 passengers in June.',
      date: '2024-03-01', date_basis: 'stated', source_url: 'https://pellow-radio.example/2024/03/01/interview',
      reference_url: 'https://pellow-factcheck.example/checks/ferry-passengers',
      publisher_rating: 'Mostly True', published_outcome: 'mostly_true', forecast_probability: null,
    }]);
  });

  it('an array, an @graph, and JSON Lines (objects or arrays per line) are all read; bad lines are reported by number', () => {
    const a = review({ url: 'https://pellow-factcheck.example/a' });
    const b = review({ url: 'https://pellow-factcheck.example/b', reviewRating: { ratingValue: 1, alternateName: 'Pants on Fire' } });
    const c = review({ url: 'https://pellow-factcheck.example/c' });
    expect(parseClaimReview(JSON.stringify([a, b])).rows.map((x) => x.published_outcome)).toEqual(['mostly_true', 'false']);
    expect(parseClaimReview(JSON.stringify({ '@context': 'https://schema.org', '@graph': [a, b] })).rows).toHaveLength(2);
    const lines = parseClaimReview(`${JSON.stringify(a)}\n\n{oops\n${JSON.stringify([b, c])}\n`);
    expect(lines.rows.map((x) => x.reference_url)).toEqual(['https://pellow-factcheck.example/a', 'https://pellow-factcheck.example/b', 'https://pellow-factcheck.example/c']);
    expect(lines.problems).toEqual([{ line: 3, message: expect.stringMatching(/not valid JSON/) }]);
  });

  it('the numeric rating decides when the text is not one of ours; unusable ratings are unrated', () => {
    const r = parseClaimReview(JSON.stringify([
      review({ url: 'https://x.example/1', reviewRating: { ratingValue: '2', bestRating: '5', worstRating: '1', alternateName: 'Misleading' } }),
      review({ url: 'https://x.example/2', reviewRating: { alternateName: 'Unproven' } }),
      review({ url: 'https://x.example/3', reviewRating: { ratingValue: 7, bestRating: 7, worstRating: 1 } }),
    ]));
    expect(r.rows.map((x) => [x.publisher_rating, x.published_outcome])).toEqual([['Misleading', 'mostly_false'], ['Unproven', null], ['7', 'true']]);
  });

  it('organisations by @type; the review\'s date when the claim is undated; an appearance that is the review itself is not a source', () => {
    const r = parseClaimReview(JSON.stringify(review({
      itemReviewed: { author: { '@type': 'GovernmentOrganization', name: 'Pellow Harbour Board' }, appearance: 'https://pellow-factcheck.example/checks/ferry-passengers' },
    })));
    expect(r.rows[0]).toMatchObject({ subject: { name: 'Pellow Harbour Board', kind: 'organisation' }, date: '2024-03-10', date_basis: 'latest_possible', source_url: null });
  });

  it('skips what cannot be a demo claim, saying why; --limit; a review given twice is one claim', () => {
    const r = parseClaimReview(JSON.stringify([
      review({ '@type': 'NewsArticle' }),
      review({ claimReviewed: '' }),
      review({ itemReviewed: { author: {} } }),
      review({ reviewRating: {} }),
      review({ datePublished: undefined, itemReviewed: { author: { name: 'Orla Vantreece' } } }),
      review(),
      review(),
      'not an object',
    ]));
    expect(r.rows).toHaveLength(1);
    expect(r.problems.map((p) => p.line)).toEqual([1, 2, 3, 4, 5, 7, 8]);
    expect(r.problems.map((p) => p.message).join('|')).toMatch(/not ClaimReview.*no claimReviewed.*subject is unknown.*no reviewRating.*no date.*given twice.*not an object/);
    const undated = parseClaimReview(JSON.stringify(review({ datePublished: undefined, itemReviewed: { author: { name: 'Orla Vantreece' } } })), { saidOn: '2020-05-05' });
    expect(undated.rows[0]).toMatchObject({ date: '2020-05-05', date_basis: 'latest_possible' });
    expect(parseClaimReview(JSON.stringify([review({ url: 'https://x.example/1' }), review({ url: 'https://x.example/2' })]), { limit: 1 }).rows).toHaveLength(1);
  });
});
