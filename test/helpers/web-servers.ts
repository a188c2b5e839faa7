import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Loopback stand-ins for the hosted providers, on node:http, each speaking its
 * provider's documented wire format: Brave Search, SearXNG, Google Fact Check
 * Tools and the Wikidata (MediaWiki) API. Every request is recorded (path,
 * query, headers, time); faults are scripted per request with `script()`,
 * whose replies are used in order before the server's own answers:
 *
 *   const brave = await startBraveServer({ token: 'k', results: [...] });
 *   brave.script({ status: 429, headers: { 'retry-after': '1' } }, { status: 500 });
 *   // 1st request: 429, 2nd: 500, 3rd on: the documented answer.
 *   brave.requests[0].headers['x-subscription-token'] === 'k'
 *
 * A reply may be JSON (`json`), raw text (`body`: malformed answers) and late
 * (`delayMs`: timeouts). close() drops open connections, so a test never
 * waits on a reply that a client has given up on.
 */

export type RecordedRequest = { method: string; path: string; query: Record<string, string>; headers: http.IncomingHttpHeaders; at: number };

export type Reply = { status?: number; headers?: Record<string, string>; json?: unknown; body?: string; delayMs?: number };

export type Responder = (req: RecordedRequest) => Reply | Promise<Reply>;

export type FakeServer = {
  /** http://127.0.0.1:port, no trailing slash: a provider's base URL. */
  url: string;
  requests: RecordedRequest[];
  /** Replies for the next requests, one each, ahead of the server's own answers. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
};

export async function startFakeServer(respond: Responder): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://loopback');
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, at: Date.now() };
    requests.push(recorded);
    const send = (reply: Reply) => {
      if (res.destroyed) return;
      const body = reply.body ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      const type = reply.json === undefined ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8';
      res.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers });
      res.end(body);
    };
    Promise.resolve(queue.shift() ?? respond(recorded)).then((reply) => {
      if (!reply.delayMs) return send(reply);
      const t = setTimeout(() => {
        timers.delete(t);
        send(reply);
      }, reply.delayMs);
      timers.add(t);
    }, (err: unknown) => send({ status: 500, json: { error: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    close: () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// ---- Brave Search API: GET /res/v1/web/search, token in X-Subscription-Token.

export type BraveWebResult = {
  title: string; url: string; description?: string; page_age?: string; age?: string;
  profile?: { name: string; url?: string; long_name?: string; img?: string }; meta_url?: { scheme?: string; netloc?: string; hostname: string; path?: string };
};

const braveError = (code: string, detail: string) => ({ status: 422, json: { type: 'ErrorResponse', error: { id: 'c0ffee00-0000-4000-8000-000000000000', status: 422, code, detail, meta: {} }, time: 1_700_000_000 } });

export function startBraveServer(opts: { token: string; results: BraveWebResult[] }): Promise<FakeServer> {
  return startFakeServer((req) => {
    if (req.path !== '/res/v1/web/search') return { status: 404, json: { type: 'ErrorResponse', error: { status: 404, code: 'NOT_FOUND', detail: 'Not found' } } };
    const token = req.headers['x-subscription-token'];
    if (!token) return braveError('VALIDATION', 'Unable to validate request parameter(s)');
    if (token !== opts.token) return braveError('SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.');
    const count = Number(req.query.count ?? 20);
    if (!req.query.q || !(count >= 1 && count <= 20)) return braveError('VALIDATION', 'Unable to validate request parameter(s)');
    const results = opts.results.slice(0, count).map((r) => ({ type: 'search_result', subtype: 'generic', is_live: false, language: 'en', family_friendly: true, ...r }));
    return { json: { type: 'search', query: { original: req.query.q, more_results_available: opts.results.length > count }, mixed: { type: 'mixed', main: [] }, web: { type: 'search', results, family_friendly: true } } };
  });
}

// ---- SearXNG: GET /search?q=&format=json (403 unless the instance enables json).

export type SearxResult = { url: string; title: string; content?: string; publishedDate?: string | null; engine?: string; engines?: string[]; score?: number; category?: string; publisher?: string };

export function startSearxngServer(opts: { results: SearxResult[] }): Promise<FakeServer> {
  return startFakeServer((req) => {
    if (req.path !== '/search' && req.path !== '/') return { status: 404, body: 'Not Found' };
    if (req.query.format !== 'json') return { status: 403, body: 'Forbidden' };
    const results = opts.results.map((r) => ({ template: 'default.html', parsed_url: [], engines: [r.engine ?? 'duckduckgo'], positions: [1], category: 'general', publishedDate: null, ...r }));
    return { json: { query: req.query.q ?? '', number_of_results: 0, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] } };
  });
}

// ---- Google Fact Check Tools: GET /v1alpha1/claims:search?query=&key=&pageSize=&languageCode=.

export type FactCheckClaim = {
  text: string; claimant?: string; claimDate?: string;
  claimReview: { publisher: { name?: string; site?: string }; url: string; title?: string; reviewDate?: string; textualRating?: string; languageCode?: string }[];
};

const googleError = (code: number, status: string, message: string) => ({ status: code, json: { error: { code, message, status } } });

export function startFactCheckServer(opts: { key: string; claims: FactCheckClaim[] }): Promise<FakeServer> {
  return startFakeServer((req) => {
    if (req.path !== '/v1alpha1/claims:search') return googleError(404, 'NOT_FOUND', 'Requested entity was not found.');
    if (!req.query.key) return googleError(403, 'PERMISSION_DENIED', 'The request is missing a valid API key.');
    if (req.query.key !== opts.key) return googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.');
    if (!req.query.query) return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    // Google's matching is its own; here a claim matches when its text or claimant has any word of the query.
    const words = req.query.query.toLowerCase().split(/\W+/).filter((w) => w.length > 2);
    const matching = opts.claims.filter((c) => words.some((w) => `${c.text} ${c.claimant ?? ''}`.toLowerCase().includes(w)));
    const size = Number(req.query.pageSize ?? 10);
    const page = matching.slice(0, size);
    // No match is an empty object, as Google answers it.
    return { json: page.length === 0 ? {} : { claims: page, ...(matching.length > size ? { nextPageToken: 'CAo' } : {}) } };
  });
}

// ---- Wikidata: GET /w/api.php?action=wbsearchentities | wbgetentities | query&list=search.

type Term = { language: string; value: string };
export type WikidataEntity = {
  type?: 'item'; id: string; labels?: Record<string, Term>; descriptions?: Record<string, Term>; aliases?: Record<string, Term[]>;
  claims?: Record<string, unknown[]>; sitelinks?: Record<string, { site: string; title: string; badges: string[] }>;
};

const mwError = (code: string, info: string) => ({ json: { error: { code, info, '*': 'See https://www.wikidata.org/w/api.php for API usage.' }, servedby: 'mw-api-loopback' } });

export function startWikidataServer(opts: { entities: WikidataEntity[] }): Promise<FakeServer> {
  const byId = new Map(opts.entities.map((e) => [e.id, e]));
  const terms = (e: WikidataEntity) => [
    ...Object.values(e.labels ?? {}).map((t) => ({ type: 'label', ...t })),
    ...Object.values(e.aliases ?? {}).flat().map((t) => ({ type: 'alias', ...t })),
  ];
  return startFakeServer((req) => {
    if (req.path !== '/w/api.php') return { status: 404, body: 'Not Found' };
    if (req.query.format !== 'json') return { body: '<?xml version="1.0"?><api/>', headers: { 'content-type': 'text/xml' } };
    const q = req.query;
    if (q.action === 'wbsearchentities') {
      if (!q.search) return mwError('missingparam', 'The "search" parameter must be set.');
      const s = q.search.toLowerCase();
      const limit = Number(q.limit ?? 7);
      // Wikibase matches a prefix of a label or an alias, in any language.
      const hits = opts.entities.flatMap((e) => {
        const match = terms(e).find((t) => t.value.toLowerCase().startsWith(s));
        if (!match) return [];
        const label = e.labels?.en ?? e.labels?.mul;
        const description = e.descriptions?.en;
        return [{
          id: e.id, title: e.id, pageid: Number(e.id.slice(1)) + 100, concepturi: `http://www.wikidata.org/entity/${e.id}`, repository: 'wikidata',
          url: `//www.wikidata.org/wiki/${e.id}`, display: { label, ...(description ? { description } : {}) }, label: label?.value, description: description?.value,
          match: { type: match.type, language: match.language, text: match.value }, ...(match.type === 'alias' ? { aliases: [match.value] } : {}),
        }];
      });
      return { json: { searchinfo: { search: q.search }, search: hits.slice(0, limit), ...(hits.length > limit ? { 'search-continue': limit } : {}), success: 1 } };
    }
    if (q.action === 'wbgetentities') {
      const ids = (q.ids ?? '').split('|').filter(Boolean);
      if (ids.length === 0) return mwError('param-missing', 'Either provide the item "ids" or pairs of "sites" and "titles" for corresponding pages');
      if (ids.length > 50) return mwError('toomanyvalues', 'Too many values supplied for parameter "ids". The limit is 50.');
      const props = new Set((q.props ?? 'info|sitelinks|aliases|labels|descriptions|claims|datatype').split('|'));
      const langs = q.languages ? new Set(q.languages.split('|')) : null;
      const pick = <T>(m: Record<string, T> | undefined) => Object.fromEntries(Object.entries(m ?? {}).filter(([l]) => !langs || langs.has(l)));
      const entities = Object.fromEntries(ids.map((id) => {
        const e = byId.get(id);
        if (!e) return [id, { id, missing: '' }];
        return [id, {
          type: 'item', id,
          ...(props.has('labels') ? { labels: pick(e.labels) } : {}),
          ...(props.has('descriptions') ? { descriptions: pick(e.descriptions) } : {}),
          ...(props.has('aliases') ? { aliases: pick(e.aliases) } : {}),
          ...(props.has('claims') ? { claims: e.claims ?? {} } : {}),
          ...(props.has('sitelinks') ? { sitelinks: e.sitelinks ?? {} } : {}),
        }];
      }));
      return { json: { entities, success: 1 } };
    }
    if (q.action === 'query' && q.list === 'search') {
      // Only the haswbstatement:Pn=value|Pn=value form is understood here, matched exactly as CirrusSearch does.
      const wanted = /^haswbstatement:(.+)$/.exec(q.srsearch ?? '')?.[1]?.split('|').map((c) => c.split('=')) ?? [];
      const found = opts.entities.filter((e) => wanted.some(([p, v]) => (e.claims?.[p!] ?? []).some((s) => (s as { mainsnak?: { datavalue?: { value?: unknown } } }).mainsnak?.datavalue?.value === v)));
      const search = found.slice(0, Number(q.srlimit ?? 10)).map((e) => ({ ns: 0, title: e.id, pageid: Number(e.id.slice(1)) + 100, size: 1000, wordcount: 10, snippet: '', timestamp: '2024-01-01T00:00:00Z' }));
      return { json: { batchcomplete: '', query: { searchinfo: { totalhits: found.length }, search } } };
    }
    return mwError('badvalue', `Unrecognized value for parameter "action": ${q.action ?? ''}.`);
  });
}
