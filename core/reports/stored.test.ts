import { describe, expect, it } from 'vitest';
import { asciiJson } from './stored.ts';

describe('asciiJson', () => {
  it('writes every character past U+007F as its JSON escape, and JSON reads the same value back', () => {
    const value = { quote: 'Fares rise to £2 — “from May” 🚌', 'clé': ['naïve', 'already \\u00e9scaped \\\\u00e9', '\u2028'] };
    const text = JSON.stringify(value);
    const ascii = asciiJson(text);
    expect(ascii).toMatch(/^[\x00-\x7f]*$/);
    expect(ascii).toContain('\\u00a32 \\u2014 \\u201cfrom May\\u201d \\ud83d\\ude8c');
    expect(JSON.parse(ascii)).toEqual(value);
  });

  it('leaves ASCII JSON as it is', () => {
    const text = JSON.stringify({ a: 'plain "text" \\u00e9 \n' });
    expect(asciiJson(text)).toBe(text);
    expect(asciiJson(asciiJson(JSON.stringify({ b: 'é' })))).toBe('{"b":"\\u00e9"}');
  });
});
