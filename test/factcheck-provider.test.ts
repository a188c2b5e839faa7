import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../core/providers/http.ts';
import { googleFactChecks } from '../core/providers/web/factcheck.ts';
import { startFactCheckServer, type FactCheckClaim, type FakeServer } from './helpers/web-servers.ts';

/**
 * Google Fact Check Tools claim search against a loopback server speaking its
 * documented JSON (claims[].claimReview[]) and its error body. The claims,
 * claimants and fact-checkers are invented.
 */

const KEY = 'AIzaSyTest-Key_0123456789abcdef';
const fast = { backoffMs: 10, timeoutMs: 1_000, attempts: 3 };

const claims: FactCheckClaim[] = [
  {
    text: 'The harbour levy raised four million last year',
    claimant: 'Orla Penhallow',
    claimDate: '2024-02-10T00:00:00Z',
    claimReview: [
      { publisher: { name: 'Coastal Fact Desk', site: 'coastalfactdesk.example' }, url: 'https://coastalfactdesk.example/checks/harbour-levy-four-million', title: 'No, the harbour levy did not raise four million', reviewDate: '2024-02-14T00:00:00Z', textualRating: 'False', languageCode: 'en' },
      { publisher: { site: 'levycheck.example' }, url: 'https://levycheck.example/2024/levy', reviewDate: '2024-02-20T00:00:00Z', textualRating: 'Mostly false', languageCode: 'en' },
      { publisher: { name: 'Unrated Notes' }, url: 'https://unrated.example/levy', languageCode: 'en' },
    ],
  },
  {
    text: 'Westmarch has the lowest harbour fees on the coast',
    claimReview: [
      { publisher: { name: 'Tidewater Verify', site: 'tidewaterverify.example' }, url: 'https://tidewaterverify.example/fees', title: 'Harbour fees compared', reviewDate: '2023-12-01T00:00:00Z', textualRating: 'Half true', languageCode: 'en' },
    ],
  },
];

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const provider = (s: FakeServer, tuning = fast) => googleFactChecks({ apiKey: KEY, baseUrl: s.url }, tuning);

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('Google Fact Check Tools', () => {
  it('gives one published fact-check per review, leaving out reviews without a rating', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    const found = await provider(server).search('harbour levy', { limit: 10 });
    expect(found).toEqual([
      {
        claim_text: 'The harbour levy raised four million last year', claimant: 'Orla Penhallow', claim_date: '2024-02-10',
        url: 'https://coastalfactdesk.example/checks/harbour-levy-four-million', title: 'No, the harbour levy did not raise four million',
        publisher: 'Coastal Fact Desk', reviewed_on: '2024-02-14', rating: 'False',
      },
      {
        claim_text: 'The harbour levy raised four million last year', claimant: 'Orla Penhallow', claim_date: '2024-02-10',
        url: 'https://levycheck.example/2024/levy', title: null, publisher: 'levycheck.example', reviewed_on: '2024-02-20', rating: 'Mostly false',
      },
      {
        claim_text: 'Westmarch has the lowest harbour fees on the coast', claimant: null, claim_date: null,
        url: 'https://tidewaterverify.example/fees', title: 'Harbour fees compared', publisher: 'Tidewater Verify', reviewed_on: '2023-12-01', rating: 'Half true',
      },
    ]);
  });

  it('sends the key, page size and language as Google documents them', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    await provider(server).search('harbour levy', { limit: 2 });
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1alpha1/claims:search');
    expect(req.query).toEqual({ query: 'harbour levy', key: KEY, pageSize: '2', languageCode: 'en' });
  });

  it('stops at the limit, counting reviews', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    expect((await provider(server).search('harbour levy', { limit: 1 })).map((f) => f.rating)).toEqual(['False']);
  });

  it('no match is an empty answer, not an error', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    expect(await provider(server).search('lighthouse keepers', { limit: 5 })).toEqual([]);
  });

  it('a wrong key: Google\'s error is reported at once, without the key or the query string', async () => {
    server = await startFactCheckServer({ key: 'another-key-entirely', claims });
    const err = await failure(provider(server).search('harbour levy', { limit: 5 }));
    expect(server.requests).toHaveLength(1);
    expect(err.upstreamStatus).toBe(400);
    expect(err.message).toContain('INVALID_ARGUMENT: API key not valid');
    expect(err.message).not.toContain(KEY);
    expect(err.message).not.toContain('key=');
    expect(err.message).not.toContain('harbour');
  });

  it('waits out a 429 with Retry-After and tries a 500 again', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    server.script(
      { status: 429, headers: { 'retry-after': '1' }, json: { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } } },
      { status: 500, json: { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } } },
    );
    expect(await provider(server).search('harbour levy', { limit: 1 })).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('gives up on a persistent 503 after the attempts, naming Google\'s status', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    const unavailable = { status: 503, json: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } } };
    server.script(unavailable, unavailable, unavailable);
    const err = await failure(provider(server).search('harbour levy', { limit: 1 }));
    expect(err).toMatchObject({ provider: 'google-factcheck', upstreamStatus: 503, attempts: 3 });
    expect(err.message).toContain('UNAVAILABLE');
    expect(err.message).not.toContain(KEY);
  });

  it('reports a timeout and a malformed answer, never with the key', async () => {
    server = await startFactCheckServer({ key: KEY, claims });
    server.script({ delayMs: 3_000, json: {} });
    const slow = await failure(provider(server, { ...fast, timeoutMs: 150, attempts: 1 }).search('harbour levy', { limit: 1 }));
    expect(slow.failure).toBe('timeout');
    server.script({ body: `{"claims": [ {"text": "cut off` });
    const broken = await failure(provider(server).search('harbour levy', { limit: 1 }));
    expect(broken.failure).toBe('malformed');
    for (const e of [slow, broken]) expect(e.message).not.toContain(KEY);
  });
});
