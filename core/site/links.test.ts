import { describe, expect, it } from 'vitest';
import { httpUrl } from './links.ts';

describe('httpUrl', () => {
  it('keeps absolute http(s) URLs, normalised', () => {
    expect(httpUrl('https://stats.example/a b?q=1#x')).toBe('https://stats.example/a%20b?q=1#x');
    expect(httpUrl('HTTP://Example.org')).toBe('http://example.org/');
    expect(httpUrl('https://evil.example/"><script>')).toBe('https://evil.example/%22%3E%3Cscript%3E');
  });

  it('refuses every other scheme, relative or malformed URLs, credentials and absurd lengths', () => {
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<script>', 'vbscript:x', 'file:///etc/passwd', 'ftp://a.example/', '/relative', '//host.example/x', 'not a url', '', null, undefined, 'https://user:pw@a.example/', `https://a.example/${'x'.repeat(2001)}`]) {
      expect(httpUrl(bad), String(bad)).toBeNull();
    }
  });
});
