import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFactCheckServer, startFakeServer, type FakeServer } from './web-servers.ts';
import { openaiReply, startOpenAIServer, type FakeModelServer, type RecordedRequest, type Reply } from './model-servers.ts';

/**
 * A small simulated web for end-to-end runs of the hosted providers, all on
 * loopback and each part speaking its provider's documented wire format:
 * - pages: HTML articles (one invented subject's own releases, and
 *   independent reports about it), marked as samples;
 * - search: SearXNG's JSON API over those pages (a page matches when it holds
 *   two of the query's words, or the quoted name);
 * - fact-checks: Google Fact Check Tools `claims:search`;
 * - model: OpenAI chat completions, answering each stage by the purpose in the
 *   request's json_schema name, from the prompt it was sent: a stand-in for
 *   a model, deterministic so that tests can say what must come out.
 * `delayMs` makes every model answer that late (the concurrency benchmark).
 * `extraPages` adds pages to the web (the new-subject tests' subjects), so
 * that the pages other tests count on stay as they are unless asked.
 *
 * The model's identification answers go by the name (all invented): a ferry
 * company or a transit authority is an organisation; "Senator …" a serving
 * politician; "Dr …" a public figure; "Ms …" or "Mr …" a private person;
 * "Failing …" is answered HTTP 500 and "Silent …" never answered (a timeout);
 * any other name is not identified.
 */

export const SUBJECT = {
  name: 'Corvale Transit Authority',
  kind: 'organisation' as const,
  description: 'SAMPLE (invented) public transport operator, for hosted-provider tests.',
};

export type Page = { path: string; title: string; publisher: string; published: string; paragraphs: string[] };

const PAGES: Page[] = [
  {
    path: '/corvale/annual-2025', title: 'Annual report 2025 (sample)', publisher: SUBJECT.name, published: '2025-03-01',
    paragraphs: ['Corvale Transit Authority ran 4,200 buses in 2024.', 'Ridership rose 12% in 2024.', 'We will open 3 new depots by 2027.', 'Corvale Transit Authority hired 85 new drivers in 2024.', 'The network carried 61 million passengers in 2024.'],
  },
  {
    path: '/corvale/update-2025', title: 'Autumn update (sample)', publisher: SUBJECT.name, published: '2025-09-01',
    paragraphs: ['Corvale Transit Authority repaired 310 stations in 2025.', 'Thank you to every passenger.'],
  },
  {
    path: '/audit/review-2025', title: 'Audit of Corvale transit, 2024 (sample)', publisher: 'Corvale Audit Office', published: '2025-06-01',
    paragraphs: ['The audit office counted 4,200 buses in service at Corvale Transit Authority in 2024.', 'Ridership at Corvale Transit Authority rose 12% in 2024, the audit found.', 'Corvale Transit Authority hired 85 new drivers in 2024, the audit confirmed.', 'The Corvale network carried 61 million passengers in 2024, according to the audit.'],
  },
  {
    path: '/news/depots-2026', title: 'New depots open (sample)', publisher: 'Corvale Evening News', published: '2026-02-01',
    paragraphs: ['Corvale Transit Authority opened 3 new depots in January 2026, ahead of its 2027 deadline.'],
  },
];

const html = (p: Page) => `<!doctype html><html><head><meta charset="utf-8"><title>${p.title}</title>
<meta property="og:site_name" content="${p.publisher}"><meta property="article:published_time" content="${p.published}T09:00:00Z"></head>
<body><article><h1>${p.title}</h1>${p.paragraphs.map((t) => `<p>${t}</p>`).join('')}</article></body></html>`;

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
const numbersIn = (s: string) => s.match(/\d[\d,]*/g)?.map((n) => n.replace(/,/g, '')).filter((n) => !/^(19|20)\d\d$/.test(n)) ?? [];

export type SimulatedWeb = {
  pagesUrl: string;
  search: FakeServer;
  factChecks: FakeServer;
  model: FakeModelServer;
  /** Environment for the service: every provider pointed at the simulation. */
  env: Record<string, string>;
  /** The subject's own site (its `urls`). */
  ownSite: string;
  close(): Promise<void>;
};

/** The model's stand-in: answers each stage from what it was sent. */
function modelAnswer(req: RecordedRequest): unknown {
  const purpose: string = req.body?.response_format?.json_schema?.name ?? '';
  const user = (req.body?.messages as { role: string; content: string }[]).filter((m) => m.role === 'user')[0]?.content ?? '{}';
  const input = JSON.parse(user);
  if (purpose === 'extract') {
    const own = input.document.publisher === input.subject.name;
    if (!own) return { claims: [] };
    const claims = sentences(input.document.text).filter((s) => /\d/.test(s)).map((quote) => {
      const year = /by (\d{4})/.exec(quote)?.[1];
      return { quote, claim_type: /\bwill\b/.test(quote) ? 'promise' : 'factual', topic: 'transport', deadline: year ? `${year}-12-31` : null, attribution: 'own_document' };
    });
    // A re-worded quote, as models sometimes give: the pipeline must drop it.
    if (claims[0]) claims.push({ ...claims[0], quote: claims[0].quote.replace(/\d/, (d) => `about ${d}`) });
    return { claims };
  }
  if (purpose === 'criteria') {
    return { resolution_criteria: `True if an independent source reports the same figures as "${input.quote}" (${input.claim_type}); false if it reports others.` };
  }
  if (purpose === 'judge-a' || purpose === 'judge-b') {
    const wanted = numbersIn(input.claim.quote);
    const backing = (input.evidence as { n: number; independent_of_subject: boolean; passage: string }[]).filter((e) => e.independent_of_subject && wanted.length > 0 && wanted.every((n) => numbersIn(e.passage).includes(n)));
    if (backing.length === 0) return { outcome: 'unresolvable', on_time: null, reason: 'No independent item reports the figures.' };
    // Judge B is stricter with percentages: a known, deterministic disagreement.
    const outcome = purpose === 'judge-b' && input.claim.quote.includes('%') ? 'mostly_true' : 'true';
    const onTime = input.claim.claim_type === 'promise' ? true : null;
    return { outcome, on_time: onTime, reason: `Item ${backing[0]!.n} reports the same figures.` };
  }
  if (purpose === 'identify') {
    // Invented names: a ferry company, a serving senator, a scientist; anything else is unknown.
    const name = String(input.name);
    if (/ferry/i.test(name)) return { identified: true, kind: 'organisation', public_figure: true, serving_politician: false, description: 'SAMPLE (invented) ferry operator.' };
    if (/transit/i.test(name)) return { identified: true, kind: 'organisation', public_figure: true, serving_politician: false, description: 'SAMPLE (invented) public transport operator.' };
    if (/^senator /i.test(name)) return { identified: true, kind: 'person', public_figure: true, serving_politician: true, description: 'SAMPLE (invented) senator.' };
    if (/^dr /i.test(name)) return { identified: true, kind: 'person', public_figure: true, serving_politician: false, description: 'SAMPLE (invented) scientist.' };
    if (/^(ms|mr) /i.test(name)) return { identified: true, kind: 'person', public_figure: false, serving_politician: false, description: 'SAMPLE (invented) private individual.' };
    return { identified: false, kind: null, public_figure: false, serving_politician: false, description: null };
  }
  return { error: `unexpected purpose ${purpose}` };
}

/** The identification call for a "Failing …" name is answered 500, for a "Silent …" name never. */
function identifyFault(req: RecordedRequest): Reply | null {
  if (req.body?.response_format?.json_schema?.name !== 'identify') return null;
  const user = (req.body?.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '{}';
  const name = String(JSON.parse(user).name ?? '');
  if (/^failing /i.test(name)) return openaiReply.error(500, 'The server had an error while processing your request.');
  if (/^silent /i.test(name)) return { hang: true };
  return null;
}

export async function startSimulatedWeb(opts: { delayMs?: number; extraPages?: readonly Page[] } = {}): Promise<SimulatedWeb> {
  const all = [...PAGES, ...(opts.extraPages ?? [])];
  const pages = http.createServer((req, res) => {
    const page = all.find((p) => p.path === req.url);
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(page));
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const pagesUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  const texts = all.map((p) => ({ p, text: `${p.title} ${p.paragraphs.join(' ')}`.toLowerCase() }));

  const search = await startFakeServer((r) => {
    if (r.path !== '/search' || r.query.format !== 'json') return { status: 403, body: 'Forbidden' };
    const q = r.query.q ?? '';
    const phrase = /^"(.+)"$/.exec(q.trim())?.[1]?.toLowerCase();
    const terms = [...new Set(words(q).filter((w) => w !== 'or' && w.length > 2))];
    const hits = texts.filter(({ text }) => (phrase ? text.includes(phrase) : terms.filter((w) => text.includes(w)).length >= 2));
    const results = hits.map(({ p }, i) => ({ url: `${pagesUrl}${p.path}`, title: p.title, content: p.paragraphs[0], publishedDate: `${p.published}T00:00:00`, engine: 'simulated', engines: ['simulated'], score: 1 / (i + 1), category: 'general', positions: [i + 1], parsed_url: [], template: 'default.html' }));
    return { json: { query: q, number_of_results: results.length, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] } };
  });

  const factChecks = await startFactCheckServer({
    key: 'factcheck-test-key',
    claims: [{
      text: 'Corvale ridership rose 12% in 2024', claimant: SUBJECT.name, claimDate: '2025-03-01T00:00:00Z',
      claimReview: [{ publisher: { name: 'Sample Fact Desk', site: 'factdesk.example' }, url: 'https://factdesk.example/corvale-ridership', title: 'Did Corvale ridership rise 12%? (sample)', reviewDate: '2025-04-02T00:00:00Z', textualRating: 'Mostly true', languageCode: 'en' }],
    }],
  });

  const model = await startOpenAIServer();
  model.otherwise((req) => {
    const fault = identifyFault(req);
    if (fault) return fault;
    const script = openaiReply.answer(modelAnswer(req), { delayMs: opts.delayMs ?? 0, usage: { prompt_tokens: 400, completion_tokens: 60 } });
    return typeof script === 'function' ? script(req) : script;
  });

  return {
    pagesUrl, search, factChecks, model,
    ownSite: `${pagesUrl}/corvale`,
    env: {
      MODEL_PROVIDER: 'openai', MODEL_BASE_URL: model.url, MODEL_API_KEY: 'sk-simulated-test-key', MODEL_NAME: 'simulated-model',
      MODEL_PRICE_INPUT_PER_MTOK: '3', MODEL_PRICE_OUTPUT_PER_MTOK: '15',
      SEARCH_PROVIDER: 'searxng', SEARCH_BASE_URL: search.url,
      FACTCHECK_API_KEY: 'factcheck-test-key', FACTCHECK_BASE_URL: factChecks.url,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    },
    async close() {
      pages.closeAllConnections();
      await new Promise<void>((resolve) => pages.close(() => resolve()));
      await Promise.all([search.close(), factChecks.close(), model.close()]);
    },
  };
}
