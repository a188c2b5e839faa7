import { parse } from './parse.ts';
import { remember, stem } from './judge-text.ts';

// The verbs of a sentence, as the wording judge reads them: each verb-like word's stem, with whether it is
// negated or said of the future (a modal, "to", "going to"), read back to the start of its clause; and phrases
// that report an opening or a start in other words ("saw its first patients", "went live").

export type Term = { text: string; normal: string; tags: string[]; post?: string };
const NEGATORS = new Set(['nobody', 'none', 'neither', 'nor', 'never', 'not', 'no']);

// The same evidence sentences are read for claim after claim; tagging is the costly part.
const termCache = new Map<string, Term[]>();
export function termsOf(sentence: string): Term[] {
  return termCache.get(sentence) ?? remember(termCache, sentence, (parse(sentence).json() as Array<{ terms: Term[] }>).flatMap((s) => s.terms));
}

/** Each verb-like word with whether it is negated or in the future, read back to the start of its clause. */
type VerbUse = { stem: string; negative: boolean; future: boolean };
const NOMINAL = ['Noun', 'Possessive', 'Adjective', 'Value', 'Determiner'];
const isNominal = (t: Term | undefined) => !!t && t.tags.some((g) => NOMINAL.includes(g)) && !t.tags.includes('Pronoun');

export function verbUses(sentence: string): VerbUse[] {
  const terms = termsOf(sentence);
  const out: VerbUse[] = [];
  const verbal = terms.map((t) => (t.tags.includes('Verb') || (t.tags.includes('Adjective') && /(ed|en|open)$/i.test(t.text))) && !t.tags.some((g) => g === 'Auxiliary' || g === 'Modal' || g === 'Copula'));
  terms.forEach((t, i) => {
    if (!verbal[i]) return;
    // Inside a noun phrase beside another verb ("publish our flour sourcing audit", "4,000 lead service pipes") it is a modifier.
    const next = terms[i + 1];
    if (isNominal(terms[i - 1]) && next?.tags.includes('Noun') && !next.tags.some((g) => g === 'Pronoun' || g === 'Possessive') && verbal.some((v, j) => v && j !== i)) return;
    let negative = false;
    let future = false;
    for (let j = i - 1; j >= Math.max(0, i - 5); j--) {
      const p = terms[j];
      if (!p || /[,;:]/.test(p.post ?? '')) break;
      if (p.tags.includes('Negative') || NEGATORS.has(p.normal) || p.normal === 'no one') negative = true;
      // A modal ("promised that every branch would open", "could open") speaks of the deed, and does not report it done.
      if (['will', 'shall', "won't", "'ll", 'would', "wouldn't", 'could', 'might', 'may', 'should', 'must'].includes(p.normal) || p.normal.endsWith("'ll") || (p.normal === 'going' && terms[j + 1]?.normal === 'to')) future = true;
      if (p.normal === 'yet' && terms[j + 1]?.normal === 'to') negative = true;
      // "had planned to recruit", "received money to open": an intention, not the deed.
      if (j === i - 1 && p.normal === 'to') future = true;
    }
    out.push({ stem: stem(t.normal.replace(/[^\p{L}'-]/gu, '')), negative, future });
  });
  // Phrases that report an opening or a start in other words ("saw its first patients", "went live").
  const opened = OPENED.exec(sentence);
  if (opened) {
    const negative = /\b(not|never|none|no|nothing|nobody|yet to)\b[^,;]{0,25}$/i.test(sentence.slice(0, opened.index)) || /n['’]t\s*$/i.test(sentence.slice(0, opened.index));
    for (const v of ['open', 'launch', 'start', 'begin', 'operate']) out.push({ stem: stem(v), negative, future: false });
  }
  return out;
}

const OPENED = /\b(?:took|answered|handled)\s+(?:its|their)\s+first\s+(?:\d+\s+)?(?:call|calls|emergency|patient|order|booking|flight|train|service)\b|\b(?:saw|welcomed|served|received|admitted|treated|carried)\s+(?:its|their)\s+first\s+(?:patients|customers|passengers|visitors|students|pupils|shoppers|guests|users|readers|tenants|residents|fans|supporters)|\bopened\s+(?:its|their)\s+doors\b|\bwent\s+live\b|\bcame\s+into\s+(?:service|force|operation|use)\b|\bentered\s+service\b|\b(?:began|started)\s+(?:operating|operations|trading|service)\b|\bswitched\s+on\b/i;
