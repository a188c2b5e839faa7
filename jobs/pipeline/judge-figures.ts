import { FIGURE_BANDS } from './criteria.ts';
import { contentStems, isContent, monthsIn, stem, words, yearsIn } from './judge-text.ts';
import type { JudgeInput, Finding } from './judge.ts';
import type { ResolvedOutcome } from '../../core/method/outcomes.ts';
import type { ClaimType } from './types.ts';

// The figures judge: reads the numbers in the claim and in each independent passage,
// pairs each claimed figure with the passage figure that measures the same thing
// (same unit, same kind, same year, shared words), and applies the fixed test's bands.
// For promises it reads how much was delivered against what was promised. It says
// nothing about claims or passages without comparable figures.

export type Reading = {
  text: string;
  /** Signed: a fall or cut is negative. A range keeps both ends in low..high. */
  value: number;
  low: number;
  high: number;
  unit: 'percent' | 'money' | 'count';
  kind: 'level' | 'change';
  threshold: 'above' | 'below' | null;
  /** A figure named as a target ("its target of 25,000"), not an outcome. */
  target: boolean;
  /** Said of the future or as advice ("likely to drop below 3%", "should drink 2 litres"). */
  forecast: boolean;
  /** Denied in its clause ("had not added the 14 carriages", "not £31 million"). */
  negated: boolean;
  /** A span of time ("six months"), which says when, not how much. */
  duration: boolean;
  head: string | null;
  context: Set<string>;
  years: Set<string>;
  months: Set<string>;
};

const WORD_VALUES: Record<string, [number, Reading['unit']]> = {
  'a fifth': [20, 'percent'], 'a quarter': [25, 'percent'], 'a third': [33.3, 'percent'], 'a half': [50, 'percent'], half: [50, 'percent'],
  one: [1, 'count'], two: [2, 'count'], three: [3, 'count'], four: [4, 'count'], five: [5, 'count'], six: [6, 'count'], seven: [7, 'count'],
  eight: [8, 'count'], nine: [9, 'count'], ten: [10, 'count'], eleven: [11, 'count'], twelve: [12, 'count'], twenty: [20, 'count'],
};
const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, billion: 1e9, bn: 1e9 };
const MONTH = /^(january|february|march|april|may|june|july|august|september|october|november|december)$/;
const stems = (list: string) => new Set(list.split(' ').map(stem));
const UP = stems('rise rising increase grow climb up gain higher more double jump surge');
const DOWN = stems('fall falling cut drop decline decrease reduce reduction lower down fewer less halve shrink shrank');
const QUALIFIERS = new Set(['about', 'around', 'roughly', 'nearly', 'almost', 'approximately', 'some', 'estimated', 'an', 'a', 'just', 'only', 'the']);
const TARGET = stems('target goal aim pledge promise plan forecast expect project ambition commit');
const FORECAST = new Set(['will', 'would', 'shall', "'ll", 'likely', 'expect', 'expects', 'expected', 'forecast', 'forecasts', 'predict', 'predicts', 'could', 'might', 'should', 'projected']);
const NEGATORS = new Set(['not', 'never', 'no', 'none', 'neither', 'nor', 'without', 'cannot']);
const DURATION = /^(seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?)$/;
const FIGURE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,\-])([£$€])?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s?(?:million|billion|thousand|bn|m|k)\b)?(\s?(?:%|per ?cent\b))?(?![\p{L}\-]|\.\d)` +
    String.raw`|\b(a fifth|a quarter|a third|a half|half|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\b(?![\-])`,
  'giu',
);

export function direction(text: string): 1 | -1 | 0 {
  const stems = words(text).map(stem);
  const up = stems.some((s) => UP.has(s));
  const down = stems.some((s) => DOWN.has(s));
  return up === down ? 0 : up ? 1 : -1;
}

/** The figures a sentence states, each with what it measures. Years, days of the month and ordinals are not figures. */
export function readFigures(sentence: string): Reading[] {
  const out: Array<Reading & { at: number; end: number }> = [];
  const context = contentStems(sentence);
  for (const m of sentence.matchAll(FIGURE)) {
    const at = m.index;
    const before = sentence.slice(0, at);
    const after = sentence.slice(at + m[0].length);
    const clauseStart = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf(':'), before.lastIndexOf('('));
    const clauseEndRel = after.search(/[,;:)]/);
    const clause = sentence.slice(clauseStart + 1, at + m[0].length + (clauseEndRel < 0 ? after.length : clauseEndRel));
    const prev = words(sentence.slice(clauseStart + 1, at));
    const next = words(after.split(/[,;:]/)[0] ?? '');
    let value: number;
    let unit: Reading['unit'];
    if (m[5]) {
      const w = m[5].toLowerCase();
      const known = WORD_VALUES[w];
      if (!known) continue;
      if (w === 'half' && ['first', 'second', 'the'].includes(prev.at(-1) ?? '')) continue;
      if (w === 'one' && next[0] === 'in') continue; // "one in four" is a share, left unread
      [value, unit] = known;
    } else {
      const digits = (m[2] ?? '').replace(/,/g, '');
      value = Number(digits) * (SCALE[(m[3] ?? '').trim().toLowerCase()] ?? 1);
      unit = m[4] ? 'percent' : m[1] ? 'money' : 'count';
      const bare = !m[1] && !m[3] && !m[4];
      if (bare && /^(19|20)\d\d$/.test(digits)) continue; // a year
      if (bare && (MONTH.test(prev.at(-1) ?? '') || MONTH.test(next[0] ?? ''))) continue; // a day of the month
      if (prev.slice(-2).join(' ') === 'out of') continue; // the scale of a score ("82 out of 100")
      if (/^\s*(st|nd|rd|th)\b/.test(after)) continue;
    }
    const lead = [...prev];
    while (lead.length && (QUALIFIERS.has(lead.at(-1) ?? '') || lead.slice(-2).join(' ') === 'up to')) lead.splice(lead.slice(-2).join(' ') === 'up to' ? -2 : -1);
    const p1 = lead.at(-1) ?? '';
    const p2 = lead.slice(-2).join(' ');
    const threshold = ['below', 'under'].includes(p1) || ['less than', 'fewer than'].includes(p2) ? 'below'
      : ['above', 'exceed', 'exceeds', 'exceeded', 'pass', 'passed', 'beyond', 'over'].includes(p1) || ['more than', 'at least'].includes(p2) ? 'above' : null;
    const clauseDir = direction(sentence.slice(clauseStart + 1, at));
    const nextDir = direction(next.slice(0, 1).join(' '));
    let sign = 0;
    if ((p1 === 'by' || p1 === 'of') && clauseDir !== 0) sign = clauseDir;
    else if (UP.has(stem(p1)) || DOWN.has(stem(p1))) sign = UP.has(stem(p1)) ? 1 : -1;
    else if (nextDir !== 0 && threshold === null) sign = nextDir;
    const kind: Reading['kind'] = sign === 0 ? 'level' : 'change';
    const signed = sign < 0 ? -value : value;
    const head = next.find((w) => isContent(w) && !['million', 'billion', 'thousand'].includes(w));
    out.push({
      at, end: at + m[0].length,
      text: m[0].trim(), value: signed, low: signed, high: signed, unit, kind, threshold,
      target: lead.slice(-3).some((w) => TARGET.has(stem(w))),
      forecast: prev.some((w) => FORECAST.has(w)),
      negated: prev.some((w) => NEGATORS.has(w) || /n['’]t$/.test(w)),
      duration: DURATION.test(next[0] ?? ''),
      head: head ? stem(head) : null,
      context, years: yearsIn(clause), months: monthsIn(clause),
    });
  }
  // "6 to 9 percent": the unit written once covers both ends of a range.
  for (let i = out.length - 1; i > 0; i--) {
    const a = out[i - 1];
    const b = out[i];
    if (!a || !b || a.unit !== 'count' || b.unit === 'count') continue;
    if (!/^\s*(to|and|-|–)\s*$/.test(sentence.slice(a.end, b.at))) continue;
    // The direction read before the range's first end applies to both ends.
    const sign = a.kind === 'change' ? Math.sign(a.value) : b.kind === 'change' ? Math.sign(b.value) : 1;
    const [lo, hi] = [Math.abs(a.value), Math.abs(b.value)].sort((x, y) => x - y) as [number, number];
    Object.assign(b, { kind: sign === 1 && a.kind === 'level' && b.kind === 'level' ? 'level' : 'change', value: sign * hi, low: sign < 0 ? -hi : lo, high: sign < 0 ? -lo : hi });
    out.splice(i - 1, 1);
  }
  return out.map(({ at: _at, end: _end, ...r }) => r);
}

const meets = (a: Set<string>, b: Set<string>) => a.size === 0 || b.size === 0 || [...a].some((y) => b.has(y));
/** Same period: years in common (or unstated), and months in common when both name one. */
const samePeriod = (c: Reading, e: Reading) => meets(c.years, e.years) && meets(c.months, e.months);

/** How well a passage figure measures the same thing as a claimed one; null when it cannot. */
export function matchScore(c: Reading, e: Reading, type: ClaimType): number | null {
  const forOutcome = type === 'promise' || type === 'prediction';
  // A target, a forecast or a denied figure in a passage is not an outcome (advice may be worded
  // either way), and a bound ("days above 30 degrees", "more than 500") is not a measurement.
  if (c.unit !== e.unit || e.target || e.negated || e.threshold !== null || (e.forecast && type !== 'guidance') || (forOutcome && (c.duration || e.duration))) return null;
  if (c.kind !== e.kind || !samePeriod(c, e)) return null;
  const [x, y] = [Math.abs(c.value), Math.abs(e.value)];
  if (x > 0 && y > 0 && Math.max(x, y) / Math.min(x, y) > 10) return null;
  let score = [...c.context].filter((w) => e.context.has(w)).length;
  if (c.head && c.head === e.head) score += 3;
  return score >= 2 ? score : null;
}

/** Relative distance of a claimed value from a reported one (or range), measured against the report. */
export function distance(claimed: number, e: Pick<Reading, 'low' | 'high'>): number {
  if (claimed >= e.low && claimed <= e.high) return 0;
  const off = (ref: number) => (ref === 0 ? (claimed === 0 ? 0 : Infinity) : Math.abs(claimed - ref) / Math.abs(ref));
  return Math.min(off(e.low), off(e.high));
}

export function band(d: number): ResolvedOutcome {
  for (const b of FIGURE_BANDS) if (d <= b.within) return b.outcome;
  return 'false';
}

/**
 * A promised figure against a delivered one: in full (allowing the 2% rounding
 * band) is true, 90% mostly_true, half mixed, anything less mostly_false, nothing
 * or the opposite of what was promised false.
 */
export function delivered(promised: number, got: number): ResolvedOutcome {
  const share = promised === 0 ? 0 : got / promised;
  if (share >= 1 - FIGURE_BANDS[0].within) return 'true';
  if (share >= 1 - FIGURE_BANDS[1].within) return 'mostly_true';
  if (share >= 0.5) return 'mixed';
  return share > 0 ? 'mostly_false' : 'false';
}

const pct = (d: number) => (d === 0 ? 'no' : d < 0.001 ? 'under 0.1%' : `${(Math.round(d * 1000) / 10).toString()}%`);

/** The outcome one claimed figure earns against the passage figure paired with it, and why. */
function figureOutcome(type: ClaimType, c: Reading, e: Reading): { outcome: ResolvedOutcome; why: string } {
  const against = `${c.text} against the reported ${e.text}`;
  if (c.threshold) {
    const met = c.threshold === 'above' ? e.high > c.value : e.low < c.value;
    if (met) return { outcome: 'true', why: `${against}: ${c.threshold} ${c.text} as claimed, so true` };
    const d = distance(c.value, e);
    return { outcome: band(d), why: `${against}: not ${c.threshold} it, ${pct(d)} off, so ${band(d)}` };
  }
  if (type === 'promise') {
    const o = delivered(c.value, e.high);
    return { outcome: o, why: `${e.text} delivered of the ${c.text} promised, so ${o}` };
  }
  const d = distance(c.value, e);
  if (type === 'guidance') {
    const o: ResolvedOutcome = d <= FIGURE_BANDS[0].within ? 'true' : 'mostly_true';
    return { outcome: o, why: `${against}: ${d <= FIGURE_BANDS[0].within ? 'the same figure' : 'different details'}, so ${o}` };
  }
  return { outcome: band(d), why: `${against}: ${pct(d)} apart, so ${band(d)}` };
}

const holds = (o: ResolvedOutcome) => o === 'true' || o === 'mostly_true';
const nearMixed = (a: ResolvedOutcome, b: ResolvedOutcome): ResolvedOutcome => {
  const order = ['true', 'mostly_true', 'mixed', 'mostly_false', 'false'] as const;
  const [i, j] = [order.indexOf(a), order.indexOf(b)];
  return Math.abs(i - 2) <= Math.abs(j - 2) ? a : b;
};

/** Several figures: all hold or all fail gives the one nearest mixed; some each way is mixed (the fixed test's rule). */
export function combineFigures(outcomes: readonly ResolvedOutcome[]): ResolvedOutcome | null {
  if (outcomes.length === 0) return null;
  const held = outcomes.filter(holds);
  if (held.length > 0 && held.length < outcomes.length) return 'mixed';
  return outcomes.reduce(nearMixed);
}

/** The figures judge. */
export function figuresJudge(input: JudgeInput): Finding {
  const { claim, items } = input;
  const claimed = readFigures(claim.quote);
  const results: Array<{ outcome: ResolvedOutcome; why: string; item: JudgeInput['items'][number]; sentence: string }> = [];
  for (const c of claimed) {
    let best: { score: number; e: Reading; item: JudgeInput['items'][number]; sentence: string } | null = null;
    for (const item of items) {
      for (const sentence of item.sentences) {
        for (const e of readFigures(sentence)) {
          const score = matchScore(c, e, claim.claim_type);
          if (score === null) continue;
          // Delivery is cumulative: for a promise, the latest report of it is the fullest.
          const better = !best || score > best.score || (score === best.score && claim.claim_type === 'promise' && (item.published ?? '') > (best.item.published ?? ''));
          if (better) best = { score, e, item, sentence };
        }
      }
    }
    if (best) results.push({ ...figureOutcome(claim.claim_type, c, best.e), item: best.item, sentence: best.sentence });
  }
  const outcome = combineFigures(results.map((r) => r.outcome));
  if (!outcome) {
    const why = claimed.length === 0 ? 'the claim states no figure it can compare' : 'no independent passage reports a figure that measures the same thing';
    return { outcome: 'unresolvable', reason: `No comparable figures: ${why}.`, basis: [] };
  }
  const reason = results.map((r) => `${r.why} (${r.item.publisher}, ${r.item.published ?? 'undated'})`).join('; ');
  return { outcome, reason: `${reason}.`, basis: results.map((r) => ({ item: r.item, sentence: r.sentence })) };
}
