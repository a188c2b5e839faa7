import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkUserUrl, webFetchProvider, type NoDocument } from '../core/providers/web/fetcher.ts';
import { FetchRefusedError, safeFetch, type LookupAll, type SafeFetchOptions } from '../core/providers/web/safe-fetch.ts';

// Real HTTP servers on loopback. 127.0.0.1 is allow-listed, as an operator
// would list an intranet; 127.0.0.2 (a "secret" inside service on the same
// port) is not, and must never see a connection.

type Server = { port: number; hits: string[]; connections: number; close: () => Promise<void> };

async function serve(host: string, port: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const sockets = new Set<Socket>();
  const s: Server = { port: 0, hits: [], connections: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    s.hits.push(req.url ?? '');
    handler(req, res);
  });
  server.on('connection', (socket) => {
    s.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  s.port = (server.address() as AddressInfo).port;
  s.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return s;
}

/** A DNS of our own: each name answers from its list, call after call (the last answer repeats). */
function dnsTable(table: Record<string, string[][]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (host: string) => {
    const answers = table[host];
    const n = calls.filter((c) => c === host).length;
    calls.push(host);
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return (answers[Math.min(n, answers.length - 1)] ?? []).map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };
  return Object.assign(lookup, { calls });
}

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Council cuts bus fares | Riverside Gazette</title>
<meta property="og:site_name" content="Riverside Gazette"><meta property="article:published_time" content="2024-03-05T23:30:00-05:00">
<script>document.write('SCRIPT-RAN')</script></head><body>
<nav><a href="/">Home</a> <a href="/sport">Sport</a> <a href="/weather">Weather</a></nav>
<article><h1>Council cuts bus fares</h1><time datetime="2023-01-01">old date</time>
<p>The council voted on Tuesday to cut the price of a single bus fare from £2.50 to £1.80, the first reduction in a decade.</p><p>"This is about making the city work for everyone," said the council leader, Maria Okafor, after the vote.</p>
<p>Opposition members said the cut would cost   about £4 million a year
and questioned where the money would come from, warning that other services could suffer as a result of the decision.</p>
<p>The new fares take effect in April and will be reviewed after twelve months, according to the transport committee's report published on Monday.</p>
</article><footer>Copyright Riverside Gazette</footer></body></html>`;

let main: Server;
let secret: Server;
let secretPort: number;
const redirect = (res: ServerResponse, to: string, status = 302) => res.writeHead(status, { location: to }).end();

beforeAll(async () => {
  main = await serve('127.0.0.1', 0, (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const ua = req.headers['user-agent'] ?? '';
    if (path === '/article') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
    if (path === '/ua') return res.writeHead(200, { 'content-type': 'text/plain' }).end(ua);
    if (path === '/host') return res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.host);
    if (path === '/to-metadata') return redirect(res, 'http://169.254.169.254/latest/meta-data/iam/');
    if (path === '/to-secret') return redirect(res, `http://127.0.0.2:${secretPort}/admin`, 307);
    if (path === '/to-localhost') return redirect(res, 'http://localhost/');
    if (path === '/to-file') return redirect(res, 'file:///etc/passwd', 301);
    if (path === '/to-inside-name') return redirect(res, `http://inside.example:${main.port}/article`);
    if (path === '/hop') return redirect(res, '/to-metadata', 308); // a chain whose second hop goes inside
    if (path.startsWith('/chain/')) {
      const n = Number(path.slice(7));
      return n > 0 ? redirect(res, `/chain/${n - 1}`) : res.writeHead(200, { 'content-type': 'text/plain' }).end('end of chain');
    }
    if (path === '/rel/a/b') return redirect(res, '../final?x=1');
    if (path === '/rel/final') return res.writeHead(200, { 'content-type': 'text/plain' }).end('relative redirect followed');
    if (path === '/again') return redirect(res, '/article'); // same host name, resolved again
    if (path === '/silent') return; // accepts, never answers
    if (path === '/stall-body') return res.writeHead(200, { 'content-type': 'text/html' }).write('<p>a start');
    if (path === '/json') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}');
    if (path === '/png') return res.writeHead(200, { 'content-type': 'image/png' }).end('\x89PNG');
    if (path === '/untyped') return res.end('no type');
    if (path === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
    if (path === '/cp1252') {
      return res.writeHead(200, { 'content-type': 'text/plain; charset=windows-1252' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94, 0x20, 0x80]));
    }
    if (path === '/latin1-meta') {
      const html = Buffer.concat([Buffer.from('<html><head><meta charset="iso-8859-1"><title>M\xfcnchen</title></head><body><p>Gr\xfc\xdfe aus M\xfcnchen.</p></body></html>', 'latin1')]);
      return res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    }
    if (path === '/declared-huge') return res.writeHead(200, { 'content-type': 'text/html', 'content-length': '50000000' }).write('<p>start');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
  });
  secretPort = main.port;
  secret = await serve('127.0.0.2', secretPort, (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('SECRET'));
});

afterAll(async () => {
  await main?.close();
  await secret?.close();
});

const lookup = () => dnsTable({ 'news.example': [['127.0.0.1']], 'inside.example': [['10.0.0.7']], 'mixed.example': [['127.0.0.1', '169.254.169.254']] });
const options = (over: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  timeoutMs: 5000, maxBytes: 1_000_000, maxRedirects: 3, allowCidrs: ['127.0.0.1/32'], lookup: lookup(), ...over,
});
const at = (path: string) => `http://news.example:${main.port}${path}`;

async function refusal(url: string, over: Partial<SafeFetchOptions> = {}): Promise<FetchRefusedError> {
  const err = await safeFetch(url, options(over)).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(FetchRefusedError);
  return err as FetchRefusedError;
}

describe('safeFetch and the web fetch provider', () => {
  it('fetches an article through a pinned name and reads title, publisher, date and text', async () => {
    const got: NoDocument[] = [];
    const provider = webFetchProvider({ timeoutMs: 5000, maxBytes: 1_000_000, maxRedirects: 3, allowCidrs: ['127.0.0.1/32'] }, { lookup: lookup(), onNoDocument: (w) => got.push(w) });
    const doc = await provider.fetch(at('/article'));
    expect(got).toEqual([]);
    expect(doc).toMatchObject({ url: at('/article'), publisher: 'Riverside Gazette', published: '2024-03-05', speakers: [] });
    expect(doc!.title).toContain('Council cuts bus fares');
    const paragraphs = doc!.text.split('\n\n');
    expect(paragraphs).toContain('The council voted on Tuesday to cut the price of a single bus fare from £2.50 to £1.80, the first reduction in a decade.');
    // Adjacent <p>s stay separate paragraphs; whitespace inside one collapses.
    expect(paragraphs).toContain('"This is about making the city work for everyone," said the council leader, Maria Okafor, after the vote.');
    expect(doc!.text).toContain('would cost about £4 million a year and questioned');
    expect(doc!.text).not.toMatch(/Sport|Weather|SCRIPT-RAN|document\.write/);
  });

  it('sends the name, not the pinned address, as Host, and a descriptive User-Agent', async () => {
    expect((await safeFetch(at('/host'), options())).body).toBe(`news.example:${main.port}`);
    const page = await safeFetch(at('/ua'), options({ userAgent: 'ReliabilityScoringService/0.1 (+https://r.example/methodology/)' }));
    expect(page).toMatchObject({ status: 200, contentType: 'text/plain', body: 'ReliabilityScoringService/0.1 (+https://r.example/methodology/)' });
    expect((await safeFetch(at('/ua'), options())).body).toMatch(/^ReliabilityScoringService\/0\.1 \(\+/);
  });

  it.each([
    ['/to-metadata', 'blocked-address'],
    ['/to-secret', 'blocked-address'],
    ['/to-localhost', 'blocked-url'],
    ['/to-file', 'blocked-url'],
    ['/to-inside-name', 'blocked-address'],
    ['/hop', 'blocked-address'],
  ])('refuses the redirect %s (%s) and never reaches inside', async (path, reason) => {
    const before = secret.connections;
    expect((await refusal(at(path))).reason).toBe(reason);
    expect(secret.connections).toBe(before);
  });

  it('refuses a name when any of its addresses is refused', async () => {
    expect((await refusal(`http://mixed.example:${main.port}/article`)).reason).toBe('blocked-address');
  });

  it('follows at most maxRedirects, and exactly that many', async () => {
    const before = main.hits.length;
    expect((await refusal(at('/chain/4'))).reason).toBe('too-many-redirects');
    expect(main.hits.length - before).toBe(4); // the first request and three redirects, not a fifth
    expect((await safeFetch(at('/chain/3'), options())).body).toBe('end of chain');
    expect((await refusal(at('/chain/1'), { maxRedirects: 0 })).reason).toBe('too-many-redirects');
  });

  it('resolves a relative Location against the hop that sent it', async () => {
    const page = await safeFetch(at('/rel/a/b'), options());
    expect(page).toMatchObject({ url: at('/rel/final?x=1'), body: 'relative redirect followed' });
  });

  it('connects only to the address it vetted when DNS rebinds to an inside one', async () => {
    // First answer allowed, every later one the secret service on the same port.
    const rebinding = dnsTable({ 'rebind.example': [['127.0.0.1'], ['127.0.0.2']] });
    const before = secret.connections;
    const page = await safeFetch(`http://rebind.example:${main.port}/article`, options({ lookup: rebinding }));
    expect(page.body).toContain('Council cuts bus fares');
    expect(rebinding.calls).toEqual(['rebind.example']); // resolved once; the connection asked nobody
    // A redirect to the same name is a new hop: resolved again, and now refused.
    expect((await refusal(`http://rebind.example:${main.port}/again`, { lookup: rebinding })).reason).toBe('blocked-address');
    expect(secret.connections).toBe(before);
    expect(secret.hits).toEqual([]);
  });

  it.each(['/silent', '/stall-body'])('gives up on %s at about timeoutMs', async (path) => {
    const started = Date.now();
    expect((await refusal(at(path), { timeoutMs: 300 })).reason).toBe('timeout');
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2000);
  });

  it('stops reading a chunked body past maxBytes, long before the server is done', async () => {
    const total = 64 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const done = new Promise<void>((resolve) => (closed = resolve));
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const big = await serve('127.0.0.1', 0, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }); // no Content-Length: chunked
      res.on('close', closed);
      const pump = () => {
        while (written < total && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    try {
      const err = await refusal(`http://127.0.0.1:${big.port}/`, { maxBytes: 64 * 1024 });
      expect(err.reason).toBe('too-large');
      await done;
      expect(written).toBeLessThan(total / 4);
    } finally {
      await big.close();
    }
  });

  it('refuses an over-large Content-Length before reading the body', async () => {
    const started = Date.now();
    // The server sends a few bytes and stalls: only the header can have decided.
    expect((await refusal(at('/declared-huge'), { timeoutMs: 3000 })).reason).toBe('too-large');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each(['/json', '/png', '/untyped'])('refuses the content type of %s', async (path) => {
    expect((await refusal(at(path))).reason).toBe('unsupported-content-type');
  });

  it('refuses an error status', async () => {
    const err = await refusal(at('/missing'));
    expect(err.reason).toBe('http-status');
    expect(err.message).toContain('404');
  });

  it('decodes the charset of the header, or of a <meta> when the header has none', async () => {
    expect((await safeFetch(at('/cp1252'), options())).body).toBe('café “q” €');
    const provider = webFetchProvider({ timeoutMs: 5000, maxBytes: 1_000_000, maxRedirects: 3, allowCidrs: ['127.0.0.1/32'] }, { lookup: lookup() });
    const doc = await provider.fetch(at('/latin1-meta'));
    expect(doc).toMatchObject({ title: 'München', text: 'Grüße aus München.', publisher: 'news.example', published: null });
  });

  it('keeps a URL query out of refusal messages', async () => {
    const err = await refusal(`http://169.254.169.254/latest?token=s3cr3t`);
    expect(err.reason).toBe('blocked-address');
    expect(err.message).not.toContain('s3cr3t');
  });

  it('gives null, not an error, for what it may not fetch, and says why', async () => {
    const why: NoDocument[] = [];
    // An allow list that does not cover 127.0.0.1: the name's port is settled after DNS, and its address refused.
    const provider = webFetchProvider({ timeoutMs: 2000, maxBytes: 1_000_000, maxRedirects: 3, allowCidrs: ['10.99.0.0/16'] }, { lookup: lookup(), onNoDocument: (w) => why.push(w) });
    expect(await provider.fetch('http://169.254.169.254/latest/meta-data/')).toBeNull();
    expect(await provider.fetch('file:///etc/passwd')).toBeNull();
    expect(await provider.fetch(at('/article'))).toBeNull();
    expect(await provider.fetch('http://nowhere.example/')).toBeNull();
    expect(why.map((w) => w.reason)).toEqual(['blocked-address', 'blocked-url', 'blocked-address', 'network']);
  });

  it('checks a user-sent URL by form alone, without fetching', () => {
    const cfg = { allowCidrs: [] as string[] };
    expect(checkUserUrl('https://example.com/story?id=3', cfg)).toBeNull();
    expect(checkUserUrl('http://[::ffff:169.254.169.254]/', cfg)).toMatchObject({ reason: 'blocked-address' });
    expect(checkUserUrl('http://metadata.google.internal/', cfg)?.reason).toBe('blocked-url');
    expect(checkUserUrl('ftp://example.com/', cfg)?.message).toMatch(/scheme/);
  });
});
