import { describe, expect, it } from 'vitest';
import { addressRefusal, isAllowListed, parseAllowList, urlRefusal } from './address-guard.ts';

const none = parseAllowList([]);

// Every address a hostile page or DNS answer might point the fetcher at. Each
// row names the range it stands for, so a regression says which one opened.
const hostileAddresses: [string, string][] = [
  ['10.0.0.1', 'private 10/8'],
  ['10.255.255.255', 'private 10/8, top'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.254', 'private 172.16/12, top'],
  ['192.168.1.1', 'private 192.168/16'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback, top of 127/8'],
  ['169.254.169.254', 'cloud metadata (link-local)'],
  ['169.254.0.1', 'link-local'],
  ['100.64.0.1', 'CGNAT 100.64/10'],
  ['100.127.255.254', 'CGNAT, top'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', '0/8 "this network"'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast (SSDP)'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.19.255.1', 'benchmarking, top'],
  ['240.0.0.1', 'reserved 240/4'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['::1', 'IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['fe80::1', 'IPv6 link-local'],
  ['febf:ffff::1', 'IPv6 link-local, top of fe80::/10'],
  ['fc00::1', 'unique-local fc00::/7'],
  ['fd12:3456:789a::1', 'unique-local fd00::/8'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['3fff::1', 'IPv6 documentation 3fff::/20'],
  ['2001:2::1', 'IPv6 benchmarking'],
  ['100::1', 'IPv6 discard'],
  ['4000::1', 'outside global unicast 2000::/3'],
  ['fd00:ec2::254', 'AWS IPv6 metadata (unique-local)'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 6145) loopback'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::8.8.8.8', 'IPv4-compatible (deprecated, refused whatever inside)'],
  ['64:ff9b::127.0.0.1', 'NAT64 of loopback'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['64:ff9b:1::808:808', 'local-use NAT64 64:ff9b:1::/48'],
  ['2002:7f00:1::1', '6to4 of loopback'],
  ['2002:a9fe:a9fe::1', '6to4 of metadata'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['2001:0:7f00:1::1', 'Teredo with a loopback server'],
  ['2001:0:808:808:0:0:f5ff:fffe', 'Teredo with client 10.0.0.1 (XOR-ed)'],
];

describe('addressRefusal', () => {
  it.each(hostileAddresses)('refuses %s (%s)', (ip) => {
    expect(addressRefusal(ip, none)).toMatchObject({ reason: 'blocked-address' });
  });

  it.each([
    ['8.8.8.8'],
    ['93.184.216.34'],
    ['1.1.1.1'],
    ['2606:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'], // mapped, judged by the public IPv4 inside
    ['64:ff9b::808:808'], // NAT64 of 8.8.8.8
    ['2002:808:808::1'], // 6to4 of 8.8.8.8
  ])('allows the public address %s', (ip) => {
    expect(addressRefusal(ip, none)).toBeNull();
  });

  it('refuses what is not an address at all (DNS answers are checked, not trusted)', () => {
    expect(addressRefusal('example.com', none)).toMatchObject({ reason: 'blocked-address' });
    expect(addressRefusal('0x7f.1', none)).toMatchObject({ reason: 'blocked-address' });
  });

  it('lets an allow list open a range, and only that range', () => {
    const allow = parseAllowList(['127.0.0.1/32', '10.20.0.0/16', 'fd00:1::/32']);
    expect(addressRefusal('127.0.0.1', allow)).toBeNull();
    expect(addressRefusal('::ffff:127.0.0.1', allow)).toBeNull(); // the same address, mapped
    expect(addressRefusal('127.0.0.2', allow)).not.toBeNull();
    expect(addressRefusal('10.20.3.4', allow)).toBeNull();
    expect(addressRefusal('10.21.0.1', allow)).not.toBeNull();
    expect(addressRefusal('fd00:1::5', allow)).toBeNull();
    expect(addressRefusal('fd00:2::5', allow)).not.toBeNull();
    expect(addressRefusal('169.254.169.254', allow)).not.toBeNull();
    expect(isAllowListed('10.20.3.4', allow)).toBe(true);
    expect(isAllowListed('8.8.8.8', allow)).toBe(false);
  });

  it('reads allow-list ranges as addresses are read, and rejects malformed ones', () => {
    // ipaddr.js alone would read ::127.0.0.1 as ::ffff:127.0.0.1; it is the IPv4-compatible ::7f00:1.
    expect(addressRefusal('127.0.0.1', parseAllowList(['::127.0.0.1/128']))).not.toBeNull();
    expect(addressRefusal('127.0.0.5', parseAllowList(['::ffff:127.0.0.0/120']))).toBeNull();
    for (const bad of ['10.0.0.0/33', '300.0.0.0/8', '10.0.0.0', '::ffff:0:0/64', 'fe80::/129']) expect(() => parseAllowList([bad]), bad).toThrow();
  });
});

// URLs refused on their form alone, before any DNS.
const hostileUrls: [string, 'blocked-url' | 'blocked-address'][] = [
  ['http://127.0.0.1/', 'blocked-address'],
  ['http://2130706433/', 'blocked-address'], // decimal 127.0.0.1
  ['http://0x7f000001/', 'blocked-address'], // hex
  ['http://0x7f.1/', 'blocked-address'], // hex, short form
  ['http://017700000001/', 'blocked-address'], // octal
  ['http://0177.0.0.1/', 'blocked-address'], // octal first part
  ['http://127.1/', 'blocked-address'], // two-part form
  ['http://0/', 'blocked-address'], // 0.0.0.0
  ['http://169.254.169.254/latest/meta-data/', 'blocked-address'],
  ['http://0xa9fea9fe/', 'blocked-address'], // metadata, in hex
  ['http://[::1]/', 'blocked-address'],
  ['http://[::ffff:127.0.0.1]/', 'blocked-address'],
  ['http://[::ffff:7f00:1]:8080/', 'blocked-address'],
  ['http://[fe80::1]/', 'blocked-address'],
  ['http://[fd00::1]/', 'blocked-address'],
  ['http://[64:ff9b::7f00:1]/', 'blocked-address'],
  ['http://localhost/', 'blocked-url'],
  ['http://localhost./', 'blocked-url'],
  ['http://LOCALHOST:80/', 'blocked-url'],
  ['http://api.localhost/', 'blocked-url'],
  ['http://metadata.google.internal/computeMetadata/v1/', 'blocked-url'],
  ['http://db.internal/', 'blocked-url'],
  ['http://printer.local/', 'blocked-url'],
  ['http://router.home.arpa/', 'blocked-url'],
  ['http://intranet/', 'blocked-url'], // single label, completed by the search list
  ['http://user:pass@example.com/', 'blocked-url'],
  ['http://user@example.com/', 'blocked-url'],
  ['file:///etc/passwd', 'blocked-url'],
  ['gopher://example.com:70/_stats', 'blocked-url'],
  ['ftp://example.com/', 'blocked-url'],
  ['data:text/html,<h1>hi</h1>', 'blocked-url'],
  ['javascript:alert(1)', 'blocked-url'],
  ['dict://example.com:11211/stats', 'blocked-url'],
  ['http://example.com:6379/', 'blocked-url'], // a non-standard port, no allow list
  ['http://8.8.8.8:22/', 'blocked-url'],
  ['not a url', 'blocked-url'],
];

describe('urlRefusal', () => {
  it.each(hostileUrls)('refuses %s as %s', (url, reason) => {
    expect(urlRefusal(url, none)).toMatchObject({ reason });
  });

  it.each([
    ['https://example.com/news/article?id=1'],
    ['http://example.com:443/'],
    ['http://8.8.8.8/'],
    ['https://[2606:4700::1111]/'],
    ['https://www.bbc.co.uk/news'],
  ])('lets %s go on to DNS', (url) => {
    expect(urlRefusal(url, none)).toBeNull();
  });

  it('allows any port, but only on an allow-listed address', () => {
    const allow = parseAllowList(['127.0.0.1/32']);
    expect(urlRefusal('http://127.0.0.1:54321/', allow)).toBeNull();
    expect(urlRefusal('http://127.0.0.2:54321/', allow)).toMatchObject({ reason: 'blocked-address' });
    expect(urlRefusal('http://8.8.8.8:8080/', allow)).toMatchObject({ reason: 'blocked-url' });
    // A name's port is settled after DNS when an allow list might apply.
    expect(urlRefusal('http://example.com:8080/', allow)).toBeNull();
    // The allow list opens addresses, not internal names.
    expect(urlRefusal('http://localhost:54321/', allow)).toMatchObject({ reason: 'blocked-url' });
  });
});
