import { stem } from './word-forms.ts';
import { sentenceTexts } from './parse.ts';

export { stem };
import type { CandidateClaim } from './types.ts';

// Plain reading of short texts shared by the evidence stage and the judges: words
// reduced to comparable stems, the claim's terms, sentences located exactly in a
// document, dates, and whether a publisher is an authority. Deterministic and
// model-free, so the same claim and documents always give the same evidence and
// verdict.

const STOP = new Set(
  ('a an the and or but nor of in on at to for by from with as into onto over under about after before between during until than then ' +
    'is are was were be been being am has have had do does did done will would shall should can could may might must ought ' +
    'it its this that these those there here we our ours us i my me you your he him his she her they their them who whom whose which what when where why how ' +
    'not no all any some more most less least much many few each every other such own same so too very just only also still even ' +
    'per cent percent year years up down out off again once while if unless because though although yet via against among across ' +
    'without within around upon toward towards behind beyond below above nearly almost roughly approximately never ever')
    .split(' '),
);
export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const NUMBER_WORD = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|third|thirds|quarter|quarters|fifth|fifths|tenth|tenths';

/** Words that frame a claim (who commits, forecasts or says) rather than say what it is about. */
const FRAMING = new Set(
  ('expect forecast predict pledge promise commit likely unlikely probably say said statement think believe hope aim plan intend ' +
    'remain track end today announce confirm claim set out told tell add note want know matter nobody people everyone ' +
    // Verbs that only state a level ("backlog stood at", "sales reached", "costs totalled").
    'stand total amount')
    .split(' ')
    .map((w) => stem(w)),
);
/** Lower-cased word tokens, apostrophes kept inside words ("don't"). */
export const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’.,][\p{L}\p{N}]+)*/gu) ?? [];

const isYear = (w: string) => /^(19|20)\d\d$/.test(w);
// (A figure with its scale, "2.68bn", "48k", "15m", is a figure, read as one, never a word a passage must share.)
export const isContent = (w: string) => w.length >= 3 && !STOP.has(w) && !/^\d[\d.,]*(?:bn|mn|tn|m|k|b|p|pc|pct|st|nd|rd|th)?$/.test(w) && !MONTHS.includes(w);

/** Stems of a text's content words (no stop words, numbers, months or years). */
export function contentStems(text: string): Set<string> {
  return new Set(words(text).filter(isContent).map(stem));
}

export function yearsIn(text: string): Set<string> {
  return new Set(text.match(/(?<!\d)(19|20)\d\d(?!\d)/g) ?? []);
}

/** Months named with their year ("June 2025", "10 July 2023"), as YYYY-MM. */
export function monthsIn(text: string): Set<string> {
  // "June 2025", "June 30, 2025" (the day is not the period).
  const re = new RegExp(`\\b(${MONTHS.join('|')})\\s+(?:\\d{1,2}(?:st|nd|rd|th)?,?\\s+)?((?:19|20)\\d\\d)\\b`, 'gi');
  return new Set([...text.matchAll(re)].map((m) => `${m[2]}-${String(MONTHS.indexOf((m[1] ?? '').toLowerCase()) + 1).padStart(2, '0')}`));
}

export type ClaimTerms = {
  terms: Map<string, number>;
  /** Stems of names (entities and the speaker): shared names alone do not make a passage about the claim. */
  names: Set<string>;
  years: Set<string>;
  numbers: string[];
  /** Months the claim names ("at June 30", "in December"): a passage naming the same month is anchored by it. */
  months?: Set<string>;
};

/**
 * What a passage must share with a claim to bear on it: the stems of its entities
 * (weight 2), keywords and other content words (weight 1), less the words that
 * only frame it ("we expect", "we pledge"); its years; and its figures' numerals.
 */
export function claimTerms(claim: Pick<CandidateClaim, 'quote' | 'entities' | 'keywords' | 'figures' | 'speaker'>): ClaimTerms {
  const terms = new Map<string, number>();
  // The speaker's name is shared by everything written about it; the others a claim names (a club, a centre) anchor a passage.
  const names = new Set([claim.speaker].flatMap((e) => words(e)).map(stem));
  const add = (w: string, weight: number) => {
    if (!isContent(w)) return;
    const s = stem(w);
    if (FRAMING.has(s)) return;
    terms.set(s, Math.max(terms.get(s) ?? 0, weight));
  };
  for (const e of claim.entities) for (const w of words(e)) add(w, 2);
  // Numbers in words are figures, read as figures ("two in five", "nearly three million"), not words a passage
  // must share; a span of time that defines a measure ("within four hours") stays.
  const figureWords = new Set(words(claim.quote.replace(new RegExp(`\\b(?:${NUMBER_WORD})(?:[\\s-]+(?:${NUMBER_WORD}|in|of|and|point|zero|nought))*\\b(?!\\s+(?:hours?|days?|weeks?|months?|minutes?|years?)\\b)`, 'gi'), (m) => `\u0000${m}\u0000`).split('\u0000').filter((_, i) => i % 2 === 1).join(' ')));
  // A trailing clause that elaborates (", giving families a place to learn", ", with hot meals") weighs half: a
  // source that reports the main clause bears on the claim though it says nothing of the gloss.
  const tail = TAIL.exec(claim.quote);
  const tailWords = new Set(tail ? words(claim.quote.slice(tail.index)) : []);
  const mainWords = new Set(words(tail ? claim.quote.slice(0, tail.index) : claim.quote));
  const mainStems = new Set([...mainWords].map(stem));
  for (const k of claim.keywords) if (!figureWords.has(k.toLowerCase())) add(k.toLowerCase(), tail && !mainStems.has(stem(k)) ? 0.5 : 1);
  for (const w of words(claim.quote)) if (!figureWords.has(w)) add(w, tailWords.has(w) && !mainWords.has(w) ? 0.5 : 1);
  const numbers = claim.figures.map((f) => f.text.match(/\d[\d,.]*\d|\d/)?.[0]).filter((n): n is string => !!n && !isYear(n));
  // A decimal said in words ("two point seven per cent") is looked for in digits.
  for (const m of claim.quote.matchAll(new RegExp(`\\b(?:${NUMBER_WORD})\\s+point(?:\\s+(?:zero|nought|one|two|three|four|five|six|seven|eight|nine))+\\b`, 'gi'))) {
    const [whole, decimals] = m[0].toLowerCase().split(/\s+point\s+/);
    const digit = (w: string) => ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].indexOf(w === 'nought' ? 'zero' : w);
    const n = digit(whole!);
    const ds = decimals!.split(/\s+/).map(digit);
    if (n >= 0 && ds.every((d) => d >= 0)) numbers.push(`${n}.${ds.join('')}`);
  }
  const months = new Set(words(claim.quote).filter((w) => MONTHS.includes(w)));
  return { terms, names, years: yearsIn(claim.quote), numbers: [...new Set(numbers)], months };
}

/** An elaborating clause after a comma: a participle, "with", "which", "so that". */
export const TAIL = /,\s+(?:giving|allowing|helping|making|bringing|offering|providing|letting|meaning|creating|with|which|so that|so)\b/i;

/** Words of change up or down, one family for relevance. */
const CHANGE = new Set('rise increase grow climb jump surge fall drop decline decrease reduce shrink slip slump halve double'.split(' ').map((w) => stem(w)));
export const isChangeWord = (w: string): boolean => CHANGE.has(stem(w));

/**
 * Share of the claim's terms (by weight) a passage contains; the terms it shares;
 * and its anchors: shared words other than names, plus shared years and numerals.
 */
export function overlap(ct: ClaimTerms, passage: string): { score: number; shared: string[]; anchors: number } {
  const stems = contentStems(passage);
  // A change either way of the same thing speaks to the claim ("Complaints fell by 12%" against "Complaints
  // rose by 7%"): the judges then read which way; for relevance one word of change meets another.
  if ([...stems].some((x) => CHANGE.has(x))) for (const x of CHANGE) if (ct.terms.has(x)) stems.add(x);
  const tokens = new Set(words(passage));
  let got = 0;
  let total = 0;
  let anchors = 0;
  const shared: string[] = [];
  for (const [t, w] of ct.terms) {
    total += w;
    if (!stems.has(t)) continue;
    got += w;
    shared.push(t);
    if (!ct.names.has(t)) anchors += 1;
  }
  for (const x of [...ct.years, ...ct.numbers, ...(ct.months ?? [])]) {
    total += 1;
    if (!tokens.has(x)) continue;
    got += 1;
    anchors += 1;
  }
  return { score: total === 0 ? 0 : got / total, shared, anchors };
}

export type Span = { start: number; end: number; line: number };

/**
 * The sentences of a text (compromise splits them), each located exactly so that
 * any run of them is a verbatim substring. Lines are split first: a sentence never
 * runs across a paragraph or transcript turn.
 */
export function sentenceSpans(text: string): Span[] {
  const known = spanCache.get(text);
  if (known) return known;
  const out: Span[] = [];
  let lineStart = 0;
  let line = 0;
  for (const raw of text.split('\n')) {
    const from = lineStart;
    lineStart += raw.length + 1;
    if (!raw.trim()) continue;
    line += 1;
    let cursor = 0;
    // Sentence splitting is compromise's tokenizer alone: the same splits as a full parse, without tagging (7x faster).
    for (const s of sentenceTexts(raw)) {
      const t = s.trim();
      const at = raw.indexOf(t, cursor);
      if (!t || at < 0) continue;
      out.push({ start: from + at, end: from + at + t.length, line });
      cursor = at + t.length;
    }
  }
  remember(spanCache, text, out);
  return out;
}

// The same documents come back for claim after claim of one subject; splitting them
// is the costly part, so the last few hundred splits are kept (a bounded memo, oldest out first).
const spanCache = new Map<string, Span[]>();
export function remember<K, V>(cache: Map<K, V>, key: K, value: V, max = 5000): V {
  if (cache.size >= max) cache.delete(cache.keys().next().value as K);
  cache.set(key, value);
  return value;
}

export const addDays = (isoDate: string, days: number): string =>
  new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const pad = (n: number) => String(n).padStart(2, '0');
const monthEnd = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * The last day of each date a sentence names: "28 May 2025" is that day, "May 2025"
 * the month's last day, a bare year its 31 December. Used to tell when a promise was
 * carried out.
 */
export function dateEnds(text: string): string[] {
  const out: string[] = [];
  const month = MONTHS.join('|');
  let rest = text;
  // Longest forms first; each match is blanked so "May 2025" in "28 May 2025" is not read twice.
  const take = (re: RegExp, toIso: (m: RegExpExecArray) => string) => {
    for (const m of rest.matchAll(re)) {
      out.push(toIso(m));
      rest = rest.slice(0, m.index) + ' '.repeat(m[0].length) + rest.slice(m.index + m[0].length);
    }
  };
  take(new RegExp(`\\b(\\d{1,2})\\s+(${month})\\s+((?:19|20)\\d\\d)\\b`, 'gi'), (m) => `${m[3]}-${pad(MONTHS.indexOf((m[2] ?? '').toLowerCase()) + 1)}-${pad(Number(m[1]))}`);
  take(new RegExp(`\\b(${month})\\s+(\\d{1,2}),?\\s+((?:19|20)\\d\\d)\\b`, 'gi'), (m) => `${m[3]}-${pad(MONTHS.indexOf((m[1] ?? '').toLowerCase()) + 1)}-${pad(Number(m[2]))}`);
  take(new RegExp(`\\b(${month})\\s+((?:19|20)\\d\\d)\\b`, 'gi'), (m) => {
    const mo = MONTHS.indexOf((m[1] ?? '').toLowerCase()) + 1;
    return `${m[2]}-${pad(mo)}-${pad(monthEnd(Number(m[2]), mo))}`;
  });
  take(/(?<![\d.,£$€])((?:19|20)\d\d)(?![\d%]|\s*(?:million|billion|thousand|per ?cent))/gi, (m) => `${m[1]}-12-31`);
  return out.sort();
}

// Bodies whose word on public health, safety or regulation the guidance test accepts.
const AUTHORITY = /\b(health|board|office|regulator|regulatory|ombudsman|council|authority|agency|commission|ministry|department|inspectorate|police|university|institute|nhs|government|repository|journal|college|society|standards)\b/i;

/** Whether a publisher is an authoritative body in the sense of the guidance test. */
export const isAuthority = (publisher: string): boolean => AUTHORITY.test(publisher);

/** A short verbatim fragment of a passage for a rationale: the whole of it, or its start cut at a word. */
export function fragment(text: string, max = 160): string {
  const t = text.trim().replace(/[.!]+$/, '');
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  return cut.slice(0, Math.max(cut.lastIndexOf(' '), 40)).replace(/[,;:]$/, '');
}

// (Also "three weeks after the 1 June date it had promised", "two months behind its target".)
const LATE = /\b(late|later than|behind schedule|overdue|after the deadline|delayed|postponed)\b|\bafter (?:the |its |their |our )?(?:[\p{L}'’]+\s+){0,2}(?:target|deadline|due date|promised date|planned date)\b|\b(?:days?|weeks?|months?|years?)\s+(?:after|behind)\s+(?:the|its|their|our)\s+(?:[\p{L}\d'’]+\s+){0,3}(?:date|target|deadline|schedule|plan)\b/iu;
// A deed reported as happening at publication: "opened its doors today", "on Monday", "this week".
const AT_PUBLICATION = /\b(?:today|yesterday|this week|this morning|last night|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i;
const ON_TIME = /\b(on time|on schedule|ahead of schedule|ahead of time|before the deadline|by the deadline)\b/i;

/**
 * Whether a passage that reports a promise carried out shows it done by the
 * deadline: its words first ("on time", "later than promised"), then the latest
 * date it names (a date after the passage's publication is a plan, not a deed),
 * then its publication date when that is no later than the deadline. Null when
 * nothing tells.
 */
export function onTime(sentence: string, published: string | null, deadline: string): boolean | null {
  if (LATE.test(sentence)) return false;
  if (ON_TIME.test(sentence)) return true;
  // (A date a span runs from, "open for the first time since October 2023", is not when the deed was done.)
  const dated = sentence.replace(new RegExp(`\\bsince\\s+(?:(?:the\\s+)?(?:start|end|autumn|spring|summer|winter)\\s+of\\s+)?(?:\\d{1,2}\\s+)?(?:(?:${MONTHS.join('|')})\\s+)?(?:19|20)\\d\\d`, 'gi'), ' ');
  const done = dateEnds(dated).filter((d) => !published || d <= addDays(published, 31)).at(-1);
  if (done) return done <= deadline;
  if (published && AT_PUBLICATION.test(sentence)) return addDays(published, -7) <= deadline;
  return published !== null && published <= deadline ? true : null;
}
