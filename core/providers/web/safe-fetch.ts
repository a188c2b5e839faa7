import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { Agent, fetch } from 'undici';
import { addressRefusal, ipLiteral, isAllowListed, isStandardPort, parseAllowList, urlPort, urlRefusal, type AllowList } from './address-guard.ts';

/**
 * Fetches one page from a URL nobody vouches for (a search result, a user's
 * `source_url`), so that it can never be turned against the inside: every hop
 * of a redirect chain is checked (URL form, every DNS answer), and the
 * connection goes to the very address that was checked. Resolving twice (once
 * to check, once to connect) would let a hostile name answer a public address
 * to the check and 127.0.0.1 to the connection (DNS rebinding); here the
 * connection's own lookup can only answer the vetted address. Time is capped
 * over the whole chain and size over the page (redirect bodies are never
 * read), so a slow or endless page costs little.
 */

export type FetchRefusalReason =
  | 'blocked-address'
  | 'blocked-url'
  | 'too-large'
  | 'timeout'
  | 'too-many-redirects'
  | 'unsupported-content-type'
  | 'http-status'
  /** The name did not resolve, or the connection failed: nothing hostile, just no page. */
  | 'network';

/**
 * Why a page was not fetched. Messages stay short and carry the URL without
 * its query (which may hold someone's token) and never any of the body, since
 * they end up in logs.
 */
export class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
  readonly reason: FetchRefusalReason;
  /** Origin and path of the URL refused (no query, no fragment). */
  readonly url: string;
  constructor(reason: FetchRefusalReason, detail: string, url?: URL) {
    const where = url ? `${url.origin}${url.pathname}` : '';
    super(`${reason}: ${detail}${where ? ` (${where})` : ''}`);
    this.reason = reason;
    this.url = where;
  }
}

/** DNS answers for a name: every address, as dns.promises.lookup(host, { all: true }) gives them. */
export type LookupAll = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export type SafeFetchOptions = {
  /** For the whole chain: DNS, connections, redirects and body. */
  timeoutMs: number;
  /** Decoded body bytes at most (after any Content-Encoding). */
  maxBytes: number;
  /** Redirects followed at most; one more is refused. */
  maxRedirects: number;
  /** Ranges that may be reached although not global (FETCH_ALLOW_CIDRS), on any port. */
  allowCidrs?: readonly string[];
  /** DNS, replaceable in tests; the system resolver by default. */
  lookup?: LookupAll;
  userAgent?: string;
  /** The caller's cancellation (a job shutting down); its reason is rethrown as is. */
  signal?: AbortSignal;
};

export type SafeFetchResult = {
  /** The final URL, after redirects. */
  url: string;
  status: number;
  /** The media type alone, lower case: text/html, application/xhtml+xml or text/plain. */
  contentType: string;
  body: string;
  /** Body size in bytes before decoding. */
  bytes: number;
};

export const DEFAULT_USER_AGENT = 'ReliabilityScoringService/0.1 (+methodology page)';

/** The user agent naming the service and where its method is published. */
export function userAgentFor(siteUrl: string | undefined): string {
  return siteUrl ? `ReliabilityScoringService/0.1 (+${siteUrl.replace(/\/+$/, '')}/methodology/)` : DEFAULT_USER_AGENT;
}

const ACCEPTED_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemLookup: LookupAll = (hostname) => dns.promises.lookup(hostname, { all: true });

export async function safeFetch(input: string, opts: SafeFetchOptions): Promise<SafeFetchResult> {
  const allow = parseAllowList(opts.allowCidrs ?? []);
  const timer = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timer, opts.signal]) : timer;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchRefusedError('blocked-url', 'not a valid URL');
  }
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await vet(url, allow, opts.lookup ?? systemLookup, signal);
      const agent = pinnedAgent(target);
      try {
        const res = await fetch(url, {
          // Redirects are followed here, not by undici, so each hop is vetted.
          redirect: 'manual',
          dispatcher: agent,
          signal,
          headers: { 'user-agent': opts.userAgent ?? DEFAULT_USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8' },
        });
        const location = res.headers.get('location');
        if (REDIRECTS.has(res.status) && location !== null) {
          await res.body?.cancel();
          if (redirects >= opts.maxRedirects) throw new FetchRefusedError('too-many-redirects', `more than ${opts.maxRedirects} redirects`, url);
          try {
            url = new URL(location, url); // relative Locations resolve against the hop that sent them
          } catch {
            throw new FetchRefusedError('blocked-url', 'redirect to an invalid URL', url);
          }
          continue;
        }
        return await readPage(res, url, opts.maxBytes);
      } finally {
        await agent.destroy().catch(() => {});
      }
    }
  } catch (err) {
    if (err instanceof FetchRefusedError) throw err;
    if (timer.aborted) throw new FetchRefusedError('timeout', `no complete answer within ${opts.timeoutMs} ms`, url);
    if (opts.signal?.aborted) throw opts.signal.reason;
    const code = (err as { cause?: { code?: unknown } }).cause?.code;
    throw new FetchRefusedError('network', typeof code === 'string' ? `connection failed (${code})` : 'connection failed', url);
  }
}

type Target = { address: string; family: 4 | 6 };

/** The URL-form check, then DNS, then every answer: the address to connect to, or a refusal. */
async function vet(url: URL, allow: AllowList, lookup: LookupAll, signal: AbortSignal): Promise<Target> {
  const refused = urlRefusal(url, allow);
  if (refused) throw new FetchRefusedError(refused.reason, refused.detail, url);
  const literal = ipLiteral(url);
  if (literal !== null) return { address: literal, family: net.isIPv6(literal) ? 6 : 4 };
  let answers: readonly { address: string; family: number }[];
  try {
    answers = await untilAborted(lookup(url.hostname), signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw new FetchRefusedError('network', 'host name did not resolve', url);
  }
  if (answers.length === 0) throw new FetchRefusedError('network', 'host name did not resolve', url);
  // Any refused answer refuses the name: the resolver may rotate, and a name
  // that ever points inside is not one to trust with the others.
  for (const a of answers) {
    const why = addressRefusal(a.address, allow);
    if (why) throw new FetchRefusedError('blocked-address', `host name resolves to an ${why.detail}`, url);
  }
  if (!isStandardPort(url) && !answers.every((a) => isAllowListed(a.address, allow))) {
    throw new FetchRefusedError('blocked-url', `port ${urlPort(url)} not fetched (80 and 443 only)`, url);
  }
  const first = answers[0]!;
  return { address: first.address, family: net.isIPv6(first.address) ? 6 : 4 };
}

/**
 * An agent for one hop whose every connection goes to the vetted address. The
 * URL keeps the host name, so the Host header and the TLS server name (SNI and
 * certificate check) are the name's; only the address lookup is pinned. Node
 * asks with `all: true` when it races address families, so both shapes of
 * answer are given.
 */
function pinnedAgent(target: Target): Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  return new Agent({ connect: { lookup }, connections: 1, pipelining: 0 });
}

/** DNS lookups cannot be cancelled; stop waiting for one when the deadline passes. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

type Fetched = Awaited<ReturnType<typeof fetch>>;

async function readPage(res: Fetched, url: URL, maxBytes: number): Promise<SafeFetchResult> {
  const refuse = async (reason: FetchRefusalReason, detail: string): Promise<never> => {
    await res.body?.cancel().catch(() => {});
    throw new FetchRefusedError(reason, detail, url);
  };
  if (res.status < 200 || res.status > 299) return refuse('http-status', `HTTP ${res.status}`);
  const header = res.headers.get('content-type') ?? '';
  const mime = header.split(';')[0]!.trim().toLowerCase();
  if (!ACCEPTED_TYPES.has(mime)) return refuse('unsupported-content-type', `content type ${mime === '' ? 'missing' : mime.slice(0, 80)}`);
  // A declared length over the cap is refused before a byte of body is read.
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return refuse('too-large', `over ${maxBytes} bytes`);

  const chunks: Uint8Array[] = [];
  let total = 0;
  if (res.body) {
    // Counted as it arrives (decoded), so a page without Content-Length, or a
    // compressed one that expands, stops at the cap instead of filling memory.
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new FetchRefusedError('too-large', `over ${maxBytes} bytes`, url);
      }
      chunks.push(value);
    }
  }
  const bytes = Buffer.concat(chunks, total);
  const body = decode(bytes, charsetOf(header, bytes, mime));
  return { url: url.href, status: res.status, contentType: mime, body, bytes: total };
}

/**
 * The body's encoding, by the HTML standard's order: a byte order mark, then the
 * Content-Type charset, then (for HTML) a <meta> charset in the first 1024
 * bytes, then UTF-8.
 */
export function charsetOf(contentType: string, bytes: Uint8Array, mime: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const param = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
  if (param && isKnownEncoding(param)) return param;
  if (mime !== 'text/plain') {
    const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
    const meta = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
    // A page that says it is UTF-16 in ASCII bytes cannot be: the standard reads it as UTF-8.
    if (meta && isKnownEncoding(meta)) return /^utf-16/i.test(meta) ? 'utf-8' : meta;
  }
  return 'utf-8';
}

function isKnownEncoding(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** Malformed bytes become U+FFFD rather than failing the page. */
function decode(bytes: Uint8Array, label: string): string {
  return new TextDecoder(label).decode(bytes);
}
