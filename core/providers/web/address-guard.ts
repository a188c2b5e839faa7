import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * What the fetcher may reach. URLs come from web search results and from
 * users, so every one is hostile until shown otherwise: a page must never make
 * the service call its own database, the cloud metadata endpoint
 * (169.254.169.254) or anything else on the inside. The rule is an allow rule:
 * only global unicast addresses pass; everything else is refused, unless an
 * operator has listed the range in FETCH_ALLOW_CIDRS (an intranet, or a test's
 * loopback server).
 *
 * Checked twice over: the URL's form before any DNS (scheme, credentials, names
 * that are internal by definition, IP literals), then every address the name
 * resolves to (safe-fetch.ts), since a public name may point anywhere.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/** Parsed FETCH_ALLOW_CIDRS. */
export type AllowList = readonly Cidr[];

/** Why a URL or address may not be fetched; `detail` is short and names no secret. */
export type GuardRefusal = { reason: 'blocked-url' | 'blocked-address'; detail: string };

/** Throws on a malformed range: config.ts checks the shape, this the numbers. */
export function parseAllowList(cidrs: readonly string[]): AllowList {
  return cidrs.map((c) => {
    const slash = c.lastIndexOf('/');
    const text = c.slice(0, slash);
    const bits = Number(c.slice(slash + 1));
    // The address is read as addresses are below (so "::1.2.3.4" means what a socket takes it to mean).
    const addr = slash > 0 ? parseAddress(text) : null;
    // An IPv4 range written as ::ffff:a.b.c.d/1xx is kept as IPv4, matching the
    // IPv4 addresses it names (addresses are unmapped the same way).
    const prefix = addr?.kind() === 'ipv4' && net.isIPv6(text) ? bits - 96 : bits;
    const max = addr?.kind() === 'ipv4' ? 32 : 128;
    if (!addr || !Number.isInteger(prefix) || prefix < 0 || prefix > max) throw new Error(`not an address range: ${c}`);
    return [addr, prefix] as Cidr;
  });
}

function allowListed(addr: Address, allow: AllowList): boolean {
  return allow.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * Why an address is not global unicast, or null when it is. ipaddr.js names the
 * special-purpose ranges (IANA registries): for IPv4 everything it does not call
 * 'unicast' is refused (private, loopback, link-local, CGNAT, 0/8, broadcast,
 * multicast, benchmarking, documentation, 240/4, AS112, AMT).
 */
function notGlobal(addr: Address): string | null {
  if (addr.kind() === 'ipv4') {
    const range = (addr as ipaddr.IPv4).range();
    return range === 'unicast' ? null : range;
  }
  const a = addr as ipaddr.IPv6;
  const p = a.parts;
  const range = a.range();
  // Forms that carry an IPv4 address are judged by it: a translator or tunnel
  // would deliver the packet to that address, so ::ffff:127.0.0.1 is loopback.
  const inner = (kind: string, hi: number, lo: number): string | null => {
    const why = notGlobal(v4(hi, lo));
    return why ? `${kind} of ${why}` : null;
  };
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return inner(range, p[6]!, p[7]!);
    case '6to4': // 2002:AABB:CCDD::/48 carries AABBCCDD
      return inner(range, p[1]!, p[2]!);
    case 'teredo': {
      // 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC: the server, and the client
      // XOR 0xffff; refuse when either is inside.
      return inner('teredo server', p[2]!, p[3]!) ?? inner('teredo client', p[6]! ^ 0xffff, p[7]! ^ 0xffff);
    }
    case 'rfc6052':
      // The well-known NAT64 prefix 64:ff9b::/96 carries the address in its last
      // 32 bits. The local-use 64:ff9b:1::/48 (RFC 8215) leads into a private
      // translator with a layout we cannot know: refused.
      if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return inner('nat64', p[6]!, p[7]!);
      return 'nat64-local';
    case 'unicast':
      break;
    default:
      return range; // loopback, unspecified, linkLocal, uniqueLocal, multicast, reserved (2001:db8::/32, 3fff::/20), benchmarking…
  }
  // IPv4-compatible ::a.b.c.d (deprecated by RFC 4291) is not routed anywhere
  // any more; a stack that still honours it would reach the IPv4 address inside,
  // so it is refused outright rather than judged (nothing legitimate uses it).
  if (p.slice(0, 6).every((x) => x === 0)) return 'ipv4Compatible';
  // Global unicast is 2000::/3; the rest of ipaddr's 'unicast' is unassigned
  // (IANA reserved) space, which no public site uses.
  if ((p[0]! & 0xe000) !== 0x2000) return 'unassigned';
  return null;
}

/** Parses a textual address; IPv4-mapped IPv6 becomes the IPv4 it maps. Null when not an address. */
function parseAddress(ip: string): Address | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = net.isIP(bare); // only standard forms: ipaddr also reads 0x7f.1, which DNS never answers
  if (family === 4) return ipaddr.parse(bare);
  if (family !== 6) return null;
  // IPv6 goes through WHATWG's parser, which writes it in plain hex, before
  // ipaddr sees it: ipaddr 2.5 reads a dotted tail as IPv4-mapped whatever the
  // prefix ("::8.8.8.8" becomes ::ffff:8.8.8.8, though it is ::808:808), and a
  // guard must judge the address the socket would use. Zone ids ("fe80::1%eth0")
  // do not parse there and are refused with the rest.
  let hex: string;
  try {
    hex = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  return ipaddr.process(hex);
}

/** Whether the fetcher may connect to this address: null when it may, else why not. The allow list overrides. */
export function addressRefusal(ip: string, allow: AllowList): GuardRefusal | null {
  const addr = parseAddress(ip);
  if (!addr) return { reason: 'blocked-address', detail: 'not an IP address' };
  if (allowListed(addr, allow)) return null;
  const why = notGlobal(addr);
  return why ? { reason: 'blocked-address', detail: `address in a refused range (${why})` } : null;
}

/** Whether an address passes by the operator's allow list (and so may use any port). */
export function isAllowListed(ip: string, allow: AllowList): boolean {
  const addr = parseAddress(ip);
  return addr !== null && allowListed(addr, allow);
}

/**
 * Names that are internal by definition, refused before any DNS: a resolver's
 * search list or /etc/hosts may send them anywhere inside. Suffixes match the
 * name itself and every name under it. `internal` covers
 * metadata.google.internal; `localhost` is RFC 6761; `local` is mDNS; the others
 * are the special-use or customary private names.
 */
const INTERNAL_SUFFIXES = ['localhost', 'localdomain', 'internal', 'local', 'home.arpa', 'lan', 'intranet', 'corp', 'home', 'private'];

function hostnameRefusal(host: string): string | null {
  // WHATWG URL keeps a trailing dot ("localhost."), which DNS treats as the same name.
  const name = host.replace(/\.+$/, '').toLowerCase();
  if (name === '') return 'empty host name';
  if (INTERNAL_SUFFIXES.some((s) => name === s || name.endsWith(`.${s}`))) return 'internal host name';
  // A single-label name ("http://db/") is completed by the resolver's search
  // list into an inside name; public sites always have a dot.
  if (!name.includes('.')) return 'single-label host name';
  return null;
}

/** The ports any address may be fetched on. */
const STANDARD_PORTS = new Set([80, 443]);

/** The URL's port, with the scheme's default filled in. */
export function urlPort(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

export function isStandardPort(url: URL): boolean {
  return STANDARD_PORTS.has(urlPort(url));
}

/** The URL's host as an IP literal (brackets removed), or null when it is a name. */
export function ipLiteral(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return net.isIP(host) ? host : null;
}

/**
 * The URL-form check, done before any DNS: null when the URL may go on to be
 * resolved and fetched, else why not. Parsing is WHATWG URL's, which already
 * turns the tricks of old parsers into plain IP literals (http://2130706433/,
 * http://0x7f.1/, http://017700000001/ are all 127.0.0.1), so the literal check
 * below sees the address a connection would use.
 *
 * Ports: any address may be fetched on 80 and 443; other ports only on an
 * allow-listed address. Public web pages live on the standard ports, and a free
 * port choice would let a hostile page probe inside services (SMTP, Redis,
 * an admin console) on a host we otherwise reach. For a host name the rule can
 * only be settled after DNS (safe-fetch.ts); here a non-standard port is refused
 * at once only when there is no allow list at all, since then no address can
 * qualify.
 */
export function urlRefusal(input: string | URL, allow: AllowList): GuardRefusal | null {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : input;
  } catch {
    return { reason: 'blocked-url', detail: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { reason: 'blocked-url', detail: `scheme ${url.protocol} not fetched (http and https only)` };
  if (url.username !== '' || url.password !== '') return { reason: 'blocked-url', detail: 'credentials in the URL' };
  const literal = ipLiteral(url);
  if (literal !== null) {
    const refused = addressRefusal(literal, allow);
    if (refused) return refused;
    if (!isStandardPort(url) && !isAllowListed(literal, allow)) return { reason: 'blocked-url', detail: `port ${urlPort(url)} not fetched (80 and 443 only)` };
    return null;
  }
  const badName = hostnameRefusal(url.hostname);
  if (badName) return { reason: 'blocked-url', detail: badName };
  if (!isStandardPort(url) && allow.length === 0) return { reason: 'blocked-url', detail: `port ${urlPort(url)} not fetched (80 and 443 only)` };
  return null;
}
