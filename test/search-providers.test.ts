import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../core/providers/http.ts';
import { braveSearch } from '../core/providers/web/brave.ts';
import { searxngSearch } from '../core/providers/web/searxng.ts';
import { startBraveServer, startSearxngServer, type BraveWebResult, type FakeServer, type SearxResult } from './helpers/web-servers.ts';

/**
 * The web search adapters against loopback servers speaking Brave's and
 * SearXNG's documented JSON. Publishers, pages and people are invented.
 */

const TOKEN = 'BSA-test-token-7f3a9c';
const fast = { backoffMs: 10, timeoutMs: 1_000, attempts: 3 };

const braveResults: BraveWebResult[] = [
  {
    title: 'Harbour levy claim does not add up, auditors say', url: 'https://www.valleyherald.example/news/harbour-levy-audit',
    description: 'Auditors for the Westmarch council said the figure quoted by <strong>Orla Penhallow</strong> counted the levy twice.',
    page_age: '2024-03-04T09:15:00', age: 'March 4, 2024',
    profile: { name: 'The Valley Herald', url: 'https://www.valleyherald.example/', long_name: 'valleyherald.example', img: 'https://imgs.search.brave.com/x.png' },
    meta_url: { scheme: 'https', netloc: 'www.valleyherald.example', hostname: 'www.valleyherald.example', path: '› news › harbour-levy-audit' },
  },
  {
    title: 'Council minutes, 12 February 2024', url: 'https://westmarch.example/minutes/2024-02-12',
    description: 'Item 7: harbour levy.', age: 'February 14, 2024',
    meta_url: { scheme: 'https', netloc: 'westmarch.example', hostname: 'www.westmarch.example', path: '› minutes' },
  },
  { title: 'Harbour levy explained', url: 'https://levywatch.example/explainer', description: 'What the levy pays for.', age: '3 days ago' },
  { title: 'Levy figures, a timeline', url: 'https://www.coastalbrief.example/levy-timeline', description: 'Dates and sums.', page_age: '2023-11-30T00:00:00' },
];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('Brave Search', () => {
  const brave = (s: FakeServer, tuning = fast) => braveSearch({ provider: 'brave', baseUrl: s.url, apiKey: TOKEN }, tuning);

  it('maps web results to hits: publisher, date, rank by position', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    const hits = await brave(server).search('harbour levy Penhallow', { limit: 10 });
    expect(hits).toEqual([
      { url: 'https://www.valleyherald.example/news/harbour-levy-audit', title: 'Harbour levy claim does not add up, auditors say', publisher: 'The Valley Herald', published: '2024-03-04', rank: 1 },
      { url: 'https://westmarch.example/minutes/2024-02-12', title: 'Council minutes, 12 February 2024', publisher: 'westmarch.example', published: '2024-02-14', rank: 1 / 2 },
      { url: 'https://levywatch.example/explainer', title: 'Harbour levy explained', publisher: 'levywatch.example', published: null, rank: 1 / 3 },
      { url: 'https://www.coastalbrief.example/levy-timeline', title: 'Levy figures, a timeline', publisher: 'coastalbrief.example', published: '2023-11-30', rank: 1 / 4 },
    ]);
  });

  it('sends the token in X-Subscription-Token, never in the URL, and asks for JSON', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    await brave(server).search('harbour levy', { limit: 3 });
    const req = server.requests[0]!;
    expect(req.path).toBe('/res/v1/web/search');
    expect(req.headers['x-subscription-token']).toBe(TOKEN);
    expect(req.headers.accept).toBe('application/json');
    expect(req.query).toEqual({ q: 'harbour levy', count: '3' });
    expect(JSON.stringify(req.query)).not.toContain(TOKEN);
  });

  it('honours the limit and leaves out excluded pages, asking for enough to make up for them', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    const hits = await brave(server).search('harbour levy', { limit: 2, excludeUrls: ['https://WWW.valleyherald.example/news/harbour-levy-audit/'] });
    expect(hits.map((h) => h.url)).toEqual(['https://westmarch.example/minutes/2024-02-12', 'https://levywatch.example/explainer']);
    expect(server.requests[0]!.query.count).toBe('3');
  });

  it('asks for no more than Brave allows (20)', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    expect(await brave(server).search('harbour levy', { limit: 50 })).toHaveLength(4);
    expect(server.requests[0]!.query.count).toBe('20');
  });

  it('an answer without web results is no hits', async () => {
    server = await startBraveServer({ token: TOKEN, results: [] });
    server.script({ json: { type: 'search', query: { original: 'x' }, mixed: { type: 'mixed', main: [] } } });
    expect(await brave(server).search('x', { limit: 5 })).toEqual([]);
  });

  it('waits out a 429 with Retry-After, then answers', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    server.script({ status: 429, headers: { 'retry-after': '1' }, json: { type: 'ErrorResponse', error: { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' } } });
    expect(await brave(server).search('harbour levy', { limit: 1 })).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('tries a 500 again, and gives up after the attempts on a persistent one', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    server.script({ status: 500 });
    expect(await brave(server).search('harbour levy', { limit: 1 })).toHaveLength(1);
    server.script({ status: 500 }, { status: 500 }, { status: 500 });
    const err = await failure(brave(server).search('harbour levy', { limit: 1 }));
    expect(err).toMatchObject({ provider: 'brave', upstreamStatus: 500, attempts: 3 });
    expect(server.requests).toHaveLength(5);
  });

  it('reports a timeout and a malformed answer', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    server.script({ delayMs: 3_000, json: {} }, { delayMs: 3_000, json: {} });
    expect((await failure(brave(server, { ...fast, timeoutMs: 150, attempts: 2 }).search('a', { limit: 1 }))).failure).toBe('timeout');
    server.script({ body: '<html>upstream error</html>' });
    expect((await failure(brave(server).search('a', { limit: 1 }))).failure).toBe('malformed');
  });

  it('does not follow a redirect with the token on board', async () => {
    server = await startBraveServer({ token: TOKEN, results: braveResults });
    const elsewhere = await startBraveServer({ token: TOKEN, results: braveResults });
    try {
      server.script({ status: 302, headers: { location: `${elsewhere.url}/res/v1/web/search?q=x` } });
      const err = await failure(brave(server).search('harbour levy', { limit: 1 }));
      expect(err.upstreamStatus).toBe(302);
      expect(server.requests).toHaveLength(1);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('a wrong token is refused at once, and the message names Brave\'s code, not the token', async () => {
    server = await startBraveServer({ token: 'the-right-one', results: braveResults });
    const err = await failure(brave(server).search('harbour levy', { limit: 1 }));
    expect(server.requests).toHaveLength(1);
    expect(err.upstreamStatus).toBe(422);
    expect(err.message).toContain('SUBSCRIPTION_TOKEN_INVALID');
    expect(err.message).not.toContain(TOKEN);
  });
});

const searxResults: SearxResult[] = [
  { url: 'https://www.tidewaterpost.example/2024/05/quay-rebuild-costs', title: 'Quay rebuild costs rise again', content: 'The rebuild now costs more than the council said.', publishedDate: '2024-05-02T00:00:00', engine: 'bing', engines: ['bing', 'duckduckgo'], score: 4.5, category: 'general' },
  { url: 'https://quaywatch.example/costs', title: 'Quay costs, line by line', content: 'A table of contracts.', publishedDate: null, engine: 'duckduckgo', score: 2.25 },
  { url: 'https://journals.example/quay', title: 'Harbour works and public budgets', content: 'A study.', publishedDate: '2023-09-01 00:00:00', engine: 'crossref', publisher: 'Journal of Coastal Policy', score: 1 },
];

describe('SearXNG', () => {
  const searx = (s: FakeServer, tuning = fast) => searxngSearch({ provider: 'searxng', baseUrl: s.url, apiKey: undefined }, tuning);

  it('maps results to hits, ranked by SearXNG\'s score', async () => {
    server = await startSearxngServer({ results: searxResults });
    const hits = await searx(server).search('quay rebuild costs', { limit: 10 });
    expect(hits).toEqual([
      { url: 'https://www.tidewaterpost.example/2024/05/quay-rebuild-costs', title: 'Quay rebuild costs rise again', publisher: 'tidewaterpost.example', published: '2024-05-02', rank: 4.5 },
      { url: 'https://quaywatch.example/costs', title: 'Quay costs, line by line', publisher: 'quaywatch.example', published: null, rank: 2.25 },
      { url: 'https://journals.example/quay', title: 'Harbour works and public budgets', publisher: 'Journal of Coastal Policy', published: '2023-09-01', rank: 1 },
    ]);
    expect(server.requests[0]!.path).toBe('/search');
    expect(server.requests[0]!.query).toEqual({ q: 'quay rebuild costs', format: 'json' });
  });

  it('honours the limit and the excluded pages', async () => {
    server = await startSearxngServer({ results: searxResults });
    const hits = await searx(server).search('quay', { limit: 1, excludeUrls: ['https://www.tidewaterpost.example/2024/05/quay-rebuild-costs#top'] });
    expect(hits.map((h) => h.url)).toEqual(['https://quaywatch.example/costs']);
  });

  it('tries a 502 again; an instance without the JSON format (403) is refused at once', async () => {
    server = await startSearxngServer({ results: searxResults });
    server.script({ status: 502, body: 'Bad Gateway' });
    expect(await searx(server).search('quay', { limit: 2 })).toHaveLength(2);
    server.script({ status: 403, body: 'Forbidden' });
    const err = await failure(searx(server).search('quay', { limit: 2 }));
    expect(err.upstreamStatus).toBe(403);
    expect(server.requests).toHaveLength(3);
  });

  it('reports a malformed answer', async () => {
    server = await startSearxngServer({ results: searxResults });
    server.script({ json: { query: 'quay', results: 'none' } });
    expect((await failure(searx(server).search('quay', { limit: 2 }))).failure).toBe('malformed');
  });
});
