// Numbers written in words ("twelve", "three hundred and fifty", "two point seven") and the fractions a
// reader takes as shares ("a third", "three quarters"), as the figures reader (quantities.ts) reads them.

export const SMALL: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14,
  fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
export const FRACTIONS: Record<string, number> = {
  'a fifth': 20, 'one fifth': 20, 'a quarter': 25, 'one quarter': 25, 'a third': 100 / 3, 'one third': 100 / 3, 'a half': 50, half: 50, 'one half': 50,
  'two thirds': 200 / 3, 'two-thirds': 200 / 3, 'three quarters': 75, 'three-quarters': 75, 'two fifths': 40, 'three fifths': 60, 'four fifths': 80, 'a tenth': 10, 'one tenth': 10,
};

/** A number in words as a value, or null when a word is not one of them. */
export function wordNumber(s: string): number | null {
  const [whole, decimals] = s.toLowerCase().split(/\s+point\s+/);
  if (decimals !== undefined) {
    const n = wordNumber(whole!);
    const ds = decimals.split(/\s+/).map((w) => (w === 'zero' || w === 'nought' ? 0 : SMALL[w]));
    if (n === null || ds.some((d) => d === undefined || d > 9)) return null;
    return Number(`${n}.${ds.join('')}`);
  }
  // "nine and a half" (before a scale: "nine and a half thousand").
  const half = /\s+and\s+a\s+half$/i.exec(s);
  if (half) {
    const n = wordNumber(s.slice(0, half.index));
    return n === null ? null : n + 0.5;
  }
  let total = 0;
  let current = 0;
  for (const w of s.toLowerCase().split(/[\s-]+/)) {
    if (w === 'a') { current = current || 1; continue; } // "a hundred", "a thousand"
    if (w === 'and') continue; // "three hundred and fifty"
    const v = SMALL[w];
    if (v === undefined) return null;
    if (v === 100) current = (current || 1) * 100;
    else current += v;
  }
  total += current;
  return total;
}
