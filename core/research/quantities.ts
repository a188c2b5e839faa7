import { contentStems, isContent, monthsIn, stem, words } from './judge-text.ts';
import { namesIn } from './grounding.ts';
import { changeYears, partOfYear } from './periods.ts';
import { headerUnit, unitOf, type Unit } from './units.ts';
import { FRACTIONS, SMALL, wordNumber } from './number-words.ts';

// Figures as quantities (methodology, "Figures"): each number a sentence states,
// with its unit converted to one base (money in whole currency units, pence and
// cents as hundredths; lengths in metres; durations in minutes; shares in
// percent), its scale ("£18.4m", "48k", "1.2bn", "nearly three million"), what
// it measures (the words around it, and a table's column heading), its period,
// and how it is stated: a level or a change (signed: a fall is negative), a
// bound ("more than", "no more than", "at least"), a range ("4% to 6%",
// "between 4 and 6"), approximate from below ("nearly", "almost"), a target
// or forecast rather than an outcome, denied, or the total a count is out of
// ("742 of its 1,150 overflows": 1,150 is the denominator). Years, days of the
// month and ordinals ("22nd") are not figures.

export type { Unit };

export type Reading = {
  text: string;
  at: number;
  /** In the unit's base; signed for a change (a fall is negative). A range keeps both ends in low..high. */
  value: number;
  low: number;
  high: number;
  unit: Unit;
  kind: 'level' | 'change';
  threshold: 'above' | 'below' | null;
  /** Whether the bound admits the figure itself ("at least", "no more than"). */
  inclusive: boolean;
  /** "nearly", "almost", "just under": a little below the figure. */
  nearly: boolean;
  /** A figure named as a target, standard, plan or budget ("its target of 25,000"), not an outcome. */
  target: boolean;
  /** Said of the future or as advice. */
  forecast: boolean;
  /** Denied in its clause ("had not added the 14 carriages", "not £31 million"). */
  negated: boolean;
  /** A span of time that says when or how long a definition runs ("within four hours"), not how much. */
  duration: boolean;
  /** The total a count is out of ("of its 1,150"). */
  denominator: boolean;
  /** The level a change started from ("fell to 17.4% from 19.8%", "down from £2,941m", "compared with 9,040"). */
  base?: boolean;
  /** A level to be reached ("raise pay to $17": up; "cut leakage to 150": down), in a promise or forecast. */
  toLevel?: 'up' | 'down' | null;
  head: string | null;
  counted?: Set<string>;
  /** Read from a claim's words, not written as a figure ("prices fell": a change below nought). */
  implied?: boolean;
  context: Set<string>;
  /** The words of the figure's own clause, which break ties between figures of one sentence. */
  clause?: Set<string>;
  /** A rate per so many of something ("905 complaints per 100,000 accounts"): never the count itself. */
  rate?: boolean;
  years: Set<string>;
  months: Set<string>;
  /** Part of a year the figure is for: "q1".."q4", "h1", "h2", or null for a whole year or none said. */
  part: string | null;
};

const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9, trillion: 1e12, tn: 1e12 };
const MONTH = /^(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/;
const stems = (list: string) => new Set(list.split(' ').map(stem));
// ("top" is not among them: "the top rating of 5" names a level, and "topped £1bn" a bound.)
const UP = stems('rise rising increase grow climb up gain higher more double jump surge exceed raise boost lift hike');
const DOWN = stems('fall falling cut drop decline decrease reduce reduction lower down fewer less halve shrink shrank slip slump trim');
const TARGET = stems('target goal aim pledge promise plan planned forecast expect project ambition commit commitment standard budget budgeted benchmark requirement required threshold objective guidance guide cap limit trajectory');
const FORECAST = new Set(['will', 'would', 'shall', "'ll", 'likely', 'expect', 'expects', 'expected', 'forecast', 'forecasts', 'predict', 'predicts', 'could', 'might', 'should', 'projected', 'projects', 'project']);
const NEGATORS = new Set(['not', 'never', 'no', 'none', 'neither', 'nor', 'without', 'cannot']);
const QUALIFIERS = new Set(['about', 'around', 'roughly', 'approximately', 'some', 'estimated', 'an', 'a', 'only', 'the', 'just', 'nearly', 'almost', 'over', 'under']);
const NUMBER_WORDS = Object.keys(SMALL).join('|');
const FRACTION_WORDS = Object.keys(FRACTIONS).sort((a, b) => b.length - a.length).map((f) => f.replace(' ', '\\s+')).join('|');

const NUM = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const DIGIT_WORDS = 'zero|nought|one|two|three|four|five|six|seven|eight|nine';
// "two point seven": a decimal said in words.
// ("a thousand", "nine and a half thousand": "a" before a scale, and a half before one.)
const WORDNUM = String.raw`(?:${NUMBER_WORDS}|a(?=\s+(?:hundred|thousand|million|billion)\b))(?:(?:[\s-]+|\s+and\s+(?<=(?:hundred|thousand)\s+and\s+))(?:${NUMBER_WORDS}))*(?:\s+point(?:\s+(?:${DIGIT_WORDS}))+|\s+and\s+a\s+half(?=\s+(?:thousand|million|billion)\b))?`;
const FIGURE = new RegExp(
  [
    // 1 currency, 2 number, 3 scale, 4 unit
    String.raw`(?<![\p{L}\p{N}.,]|\d:)([£$€])?\s?(${NUM})(?:\s?(thousand|million|billion|trillion|bn|mn|tn|m|k|b)\b)?(?:\s?(%|per\s?cent\b|percent\b|percentage\s+points?\b|pp\b|points?\b|p\b|pence\b|cents?\b|km²|(?:sq|square)\s+(?:km|kilomet(?:re|er)s?|miles?)\b|hectares?\b|ha\b|acres?\b|°\s?C\b|degrees?(?:\s+(?:celsius|centigrade))?(?:\s?C\b)?|km\b|kilomet(?:re|er)s?\b|met(?:re|er)s?\b|miles?\b|seconds?\b|secs\b|minutes?\b|mins\b|hours?\b|hrs\b|(?:working\s+|business\s+|calendar\s+)?days?\b|weeks?\b|months?\b|years?\b))?(?![\p{L}]|\.\d)`,
    // 5 share: "one in five", "nine in ten", "1 in 4"
    String.raw`\b((?:${NUMBER_WORDS}|\d+)\s+(?:[\p{L}-]+\s+)?in\s+(?:every\s+)?(?:${NUMBER_WORDS}|\d+))\b`,
    // 6 fraction words
    String.raw`\b(${FRACTION_WORDS})\b(?!-)`,
    // 7 number words, 8 scale, 9 unit
    String.raw`\b(${WORDNUM})(?:\s+(thousand|million|billion))?(?:\s+(percentage\s+points?|per\s?cent|percent|pounds|dollars|euros|pence|cents|hectares|acres|degrees|km|kilomet(?:re|er)s|miles|minutes|hours|(?:working\s+|business\s+|calendar\s+)?days|weeks|months|years))?\b`,
  ].join('|'),
  'giu',
);


/**
 * The words of a figure's own clause; a clause that names nothing ("…, up 6.8%") carries on the one before it
 * ("Gross written premiums reached £3.03bn, up 6.8%": the premiums).
 */
function ownClause(sentence: string, clause: string, clauseStart: number, at: number, context: Set<string>): Set<string> {
  const words = new Set([...contentStems(clause)].filter((w) => context.has(w)));
  if (clauseStart <= 0 || !/^\s*(?:up|down)\s+(?:by\s+)?[£$€]?\s*$/i.test(sentence.slice(clauseStart + 1, at))) return words;
  const before = sentence.slice(0, clauseStart);
  const start = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf(':'), before.lastIndexOf('('), before.lastIndexOf('|'));
  return new Set([...contentStems(`${before.slice(start + 1)} ${clause}`)].filter((w) => context.has(w)));
}

export function direction(text: string): 1 | -1 | 0 {
  // "More than 400", "fewer than 3,000", "up to 5%": a bound on a level, not a change of it.
  const s = words(text.replace(/\b(?:more|less|fewer|higher|lower|greater)\s+than\b|\bup\s+to\b/gi, ' ')).map(stem);
  const up = s.some((x) => UP.has(x));
  const down = s.some((x) => DOWN.has(x));
  return up === down ? 0 : up ? 1 : -1;
}

const CHANGE_MODIFIERS = new Set(['the', 'a', 'an', 'further', 'another', 'additional', 'extra', 'maximum', 'full', 'estimated', 'between', 'total', 'average', 'record']);
// A figure followed by a noun of change, with at most one word between ("a 12% rise", "a 3% real-terms cut").
const CHANGE_NOUN = /^\s*(?:[\p{L}-]+\s+)?(?:rise|rises|increase|increases|fall|falls|drop|drops|decline|declines|decrease|decreases|reduction|reductions|cut|cuts|hike|hikes|jump|uplift)\b/iu;
// A noun of change, then a verb of being, then the figure ("the rise was", "reduction in risk is", "increase will be no higher than").
const COPULA_CHANGE = /\b(rise|increase|fall|drop|decline|decrease|reduction|cut|hike|jump|uplift)s?\b[^,;:]{0,40}?\b(?:is|was|were|are|will\s+be|would\s+be|has\s+been|had\s+been|came\s+to|amounted\s+to|totalled|totaled)\b(?:\s+(?:no|not)\s+(?:more|higher|greater|less|lower)\s+than|\s+(?:at\s+least|at\s+most|about|around|just|only|nearly|almost|over|under|below|above))?\s*$/i;

/** "per 100,000 accounts", "per head", "per 1,000 residents": a rate, not a count. */
export const PER_MANY = /\bper\s+(?:[\d,]+|head|capita|person|resident|hundred|thousand|million)\b/i;

/** Whether what follows a figure dates it to the year before the sentence's ("…, up from £1.31bn the year before"). */
const yearBefore = (after: string) => /^\s*(?:in\s+)?(?:the\s+(?:year|twelve\s+months)\s+before|the\s+previous\s+year|a\s+year\s+(?:earlier|before))\b/i.test(after);

/** "Nearly N", "just under N": from this share of N up to N (a careful reader's "nearly two in five" is 38%, not 36%). */
export const NEARLY = 0.95;

// Words after a figure that say nothing of what it counts.
const GENERIC = new Set(['per', 'cent', 'percent', 'end', 'year', 'years', 'month', 'months', 'total', 'number', 'figure', 'time', 'now', 'new', 'more', 'less', 'fewer', 'than', 'last', 'next', 'this', 'same', 'period', 'quarter', 'week', 'weeks', 'day', 'days', 'across', 'since']);

type Raw = Reading & { end: number };

/** The figures a sentence states. `header` is a table's column heading for a cell (its words and period join the cell's). */
export function readQuantities(sentence: string, header?: string): Reading[] {
  const out: Raw[] = [];
  // What a figure measures, in words: names are left out (every sentence about a body shares its name).
  const capitalised = new Set(namesIn(sentence).filter((n) => !(n.initial && !n.text.includes(' '))).flatMap((n) => words(n.text)).map(stem));
  // Words of change ("cut", "rose") say how a figure moved, not what it measures.
  const context = new Set([...contentStems(`${sentence} ${header ?? ''}`)].filter((w) => !capitalised.has(w) && !UP.has(w) && !DOWN.has(w)));
  const headerPercent = header !== undefined && /%|per ?cent|percent|share|proportion|rate\b/i.test(header);
  const headerMoney = header !== undefined && /[£$€]/.test(header);
  const headerChange = header !== undefined && /\bchange\b|increase|decrease|growth|\bfall\b|\brise\b/i.test(header);
  // A unit of measure a heading names in brackets ("Average security wait (min)", "Length (km)", "Area (ha)")
  // is the unit of the bare cells under it.
  const headerMeasure = headerUnit(header);
  for (const m of sentence.matchAll(FIGURE)) {
    const at = m.index;
    const end = at + m[0].length;
    const before = sentence.slice(0, at);
    const after = sentence.slice(end);
    let value: number;
    let unit: Unit;
    if (m[2] !== undefined) {
      const digits = m[2].replace(/,/g, '');
      const bare = !m[1] && !m[3] && !m[4];
      if (bare && /^(19|20)\d\d$/.test(digits) && !/[.,]/.test(m[2])) continue; // a year
      if (/^\s*(st|nd|rd|th)\b/i.test(after)) continue; // an ordinal
      if (bare && /^\s*[(\[]?$/.test(before) && /^[.)\]]\s+["“‘]?\p{Lu}/u.test(after)) continue; // a paragraph's number ("2. Over the course of the day…")
      if (/^[/–-]\d/.test(after) || /\d[/–-]$/.test(before)) { if (/^(19|20)\d\d$/.test(digits) || /^\d\d$/.test(digits)) continue; } // "2023-24"
      const prevWord = words(before).at(-1) ?? '';
      const nextWord = words(after).at(0) ?? '';
      if (bare && ((MONTH.test(prevWord) && /[\p{L}.]\s+$/u.test(before)) || (MONTH.test(nextWord) && /^\s+[\p{L}]/u.test(after)))) continue; // a day of the month ("December 12", "12 December"; not "31 December, 12 drivers")
      if (bare && /\bout of\s*$/i.test(before)) continue; // the scale of a score
      if (bare && Number(digits) <= 30 && !/,/.test(m[2]) && /\b(?:the|a|in|into|of)\s+(top|bottom)\s*$/i.test(before)) continue; // a band of places ("the top 4"), not a count
      if (bare && /^\s*(am|pm|a\.m|p\.m)\b/i.test(after)) continue; // a time of day
      if (bare && /\b(table|figure|chapter|section|page|q|h|no|number|registered charity)\s*$/i.test(before)) continue;
      // The base of a rate ("per 100,000 people") is part of the unit, not a figure.
      if (/\bper\s*$/i.test(before)) continue;
      // A label's number ("Scope 1 and 2", "Category 1", "Route 40"): a capitalised word just before a bare whole number.
      if (bare && !/[.,]/.test(m[2]) && (/\b\p{Lu}[\p{L}]+\s$/u.test(before) && !/\b(?:In|By|On|At|From|To|Since|Until|Of|About|Around|Over|Under|Nearly|Almost|Some|Just|Only|The|And|Than|With|For)\s$/.test(before)
        || /\b\p{Lu}[\p{L}]+\s\d+\s(?:and|or|&)\s$/u.test(before))) continue;
      // A number that names a grade, level or route, or is a number to call ("grade 4 or above", "band D", "ring 101"), counts nothing.
      if (bare && !/[.,]/.test(m[2]) && /\b(?:grades?|levels?|bands?|stages?|tiers?|categor(?:y|ies)|class|routes?|junctions?|platforms?|gates?|wards?|steps?|phases?|zones?|versions?|call|calling|ring|ringing|dial|dialling|dialing|phone|text|texting|rated|ratings?\s+of|aged|ages)\s$/i.test(before)) continue;
      if (bare && /\b(?:aged|ages)\s+\d+\s*(?:to|-|–|and)\s*$/i.test(before)) continue; // "aged 12 to 17": who, not how many
      // "the 10-minute standard", "a four-hour target", "the 18-week rule": a measure's name, not a figure.
      if (bare && /^-(?:second|minute|hour|day|week|month|year|mile|metre|kilometre)\b/i.test(after)) continue;
      if (bare && /^\s*:\s*\d/.test(after)) {
        // "8:41" under a heading of times, or beside the word minutes: minutes and seconds.
        const mmss = /^:([0-5]\d)(?!\d)/.exec(after);
        if (mmss && /^\d{1,3}$/.test(digits) && /\b(time|times|minutes?|mins|duration|wait)\b/i.test(`${header ?? ''} ${sentence}`)) {
          const v = Number(digits) + Number(mmss[1]) / 60;
          const endAt = end + mmss[0].length;
          out.push({
            at, end: endAt, text: sentence.slice(at, endAt).trim(), value: v, low: v, high: v, unit: 'duration', kind: 'level', threshold: null, inclusive: false, nearly: false,
            target: false, forecast: false, negated: false, duration: false, denominator: false, toLevel: null, head: null, context,
            clause: new Set(), years: changeYears('level', header ?? '', sentence), months: monthsIn(`${header ?? ''}`).size ? monthsIn(header ?? '') : monthsIn(sentence), part: partOfYear(header ?? '') ?? partOfYear(sentence),
          });
        }
        continue;
      }
      // "90p in every pound", "85 cents on the dollar": a share, in percent.
      if (/^(?:p|pence|cents?)$/i.test((m[4] ?? '').trim()) && /^\s*(?:in|of|out of|on)\s+(?:every|each|the)\s+(?:pound|£1|dollar|\$1|euro)/i.test(after)) {
        value = Number(digits);
        unit = 'percent';
      } else {
      const scale = SCALE[(m[3] ?? '').toLowerCase()] ?? 1;
      // "£18.4m" is money in millions; a bare "400m" stays a count in millions too.
      const u = unitOf(m[4], m[1]);
      value = Number(digits) * scale * u.factor;
      unit = u.unit;
      if (unit === 'count' && headerPercent) unit = 'percent';
      if (unit === 'count' && headerMoney) unit = 'money';
      if (unit === 'count' && headerMeasure && !m[3]) [unit, value] = [headerMeasure.unit, value * headerMeasure.factor];
      }
    } else if (m[5] !== undefined) {
      const parts = m[5].toLowerCase().split(/\s+/).filter((w) => w !== 'every');
      const a = /^\d+$/.test(parts[0]!) ? Number(parts[0]) : wordNumber(parts[0]!);
      const b = /^\d+$/.test(parts.at(-1)!) ? Number(parts.at(-1)) : wordNumber(parts.at(-1)!);
      if (!a || !b || a >= b) continue;
      value = (100 * a) / b;
      unit = 'percent';
    } else if (m[6] !== undefined) {
      const f = m[6].toLowerCase().replace(/\s+/g, ' ');
      const prev = words(before).at(-1) ?? '';
      if (f === 'half' && ['first', 'second', 'the', 'a', 'top', 'bottom'].includes(prev)) continue; // "the second half", "the top half"
      value = FRACTIONS[f] ?? 0;
      unit = 'percent';
    } else if (m[7] !== undefined) {
      const n = wordNumber(m[7]);
      if (n === null) continue;
      const prev = words(before).at(-1) ?? '';
      if (n === 1 && !m[8] && !m[9]) continue; // "one" is rarely a figure ("one of the", "no one")
      if (['top', 'bottom'].includes(prev)) continue; // a league position band, not a count
      // A time of day: "queuing at the barrier before seven", "open until nine tonight".
      if (n <= 12 && !m[8] && !m[9] && ['before', 'after', 'at', 'until', 'till', 'from', 'past', 'by'].includes(prev) && /^\s*(?:$|[,.;:!?)]|o['’]clock\b|(?:am|pm|tonight|this\s+(?:morning|evening)|in\s+the\s+(?:morning|evening))\b)/i.test(after)) continue;
      const u = unitOf(m[9], undefined);
      value = n * (SCALE[(m[8] ?? '').toLowerCase()] ?? 1) * u.factor;
      unit = u.unit;
    } else continue;

    // (The comma of a date, "June 30, 2025", does not end a clause.)
    const dateComma = (i: number) => i >= 0 && /^,\s*(?:19|20)\d\d\b/.test(before.slice(i)) && /\d\s*$/.test(before.slice(0, i));
    let comma = before.lastIndexOf(',');
    while (dateComma(comma)) comma = before.lastIndexOf(',', comma - 1);
    const clauseStart = Math.max(comma, before.lastIndexOf(';'), before.lastIndexOf(':'), before.lastIndexOf('('), before.lastIndexOf('|'));
    const prev = words(sentence.slice(clauseStart + 1, at));
    const nextWords = words(after.split(/[,;:|]/)[0] ?? '');
    const lead = [...prev];
    let nearly = false;
    let justOver = false;
    const strip = () => {
      for (;;) {
        const two = lead.slice(-2).join(' ');
        if (['just under', 'just below', 'a little under', 'slightly under', 'slightly below', 'little under'].includes(two)) { nearly = true; lead.splice(-2); continue; }
        if (['just over', 'just above', 'slightly over', 'slightly above', 'little over'].includes(two)) { justOver = true; lead.splice(-2); continue; }
        const w = lead.at(-1) ?? '';
        if (w === 'nearly' || w === 'almost') { nearly = true; lead.pop(); continue; }
        if (QUALIFIERS.has(w) && !['over', 'under'].includes(w)) { lead.pop(); continue; }
        break;
      }
    };
    strip();
    const p1 = lead.at(-1) ?? '';
    const p2 = lead.slice(-2).join(' ');
    const p3 = lead.slice(-3).join(' ');
    let threshold: Reading['threshold'] = null;
    let inclusive = false;
    if (['no more than', 'not more than', 'no higher than', 'not exceed', 'no greater than'].includes(p3) || ['at most', 'up to', 'maximum of', 'max of'].includes(p2)) [threshold, inclusive] = ['below', true];
    else if (['no fewer than', 'no less than', 'not less than', 'a minimum of'].includes(p3) || ['at least', 'minimum of'].includes(p2)) [threshold, inclusive] = ['above', true];
    else if (['less than', 'fewer than', 'lower than'].includes(p2) || ['below', 'under'].includes(p1)) threshold = 'below';
    else if (['more than', 'greater than', 'higher than', 'in excess of', 'upwards of'].includes(p2) || ['above', 'exceed', 'exceeds', 'exceeded', 'exceeding', 'over', 'beyond', 'top', 'tops', 'topping', 'surpass', 'pass', 'passed'].includes(p1)) threshold = 'above';
    if (justOver && !threshold) threshold = 'above';
    // "never had a rating lower than five", "did not fall below 90%": a denied bound is the opposite bound,
    // met at the figure itself (unless the denial is the bound's own word: "no more than", "not less than").
    let boundDenied = false;
    const ownNegator = ['no more than', 'not more than', 'no higher than', 'not exceed', 'no greater than', 'no fewer than', 'no less than', 'not less than'].includes(p3);
    if (threshold !== null && !ownNegator) {
      const boundWords = ['less than', 'fewer than', 'lower than', 'more than', 'greater than', 'higher than', 'in excess of', 'upwards of', 'at least', 'at most', 'up to'].includes(p2) || ['in excess of'].includes(p3) ? 2 : 1;
      if (lead.slice(0, -boundWords).slice(-6).some((x) => NEGATORS.has(x) || /n['’]t$/.test(x))) {
        [threshold, inclusive, boundDenied] = [threshold === 'below' ? 'above' : 'below', !inclusive, true];
      }
    }
    const clauseDir = direction(sentence.slice(clauseStart + 1, at));
    const nextDir = direction(nextWords.slice(0, 1).join(' '));
    let sign = 0;
    // "by the maximum 4.99%", "by between 10% and 14%", "by a further 3%": the change's "by" a word or two back.
    const byAt = lead.slice(-3).lastIndexOf('by');
    const byBefore = byAt >= 0 && lead.slice(-3).slice(byAt + 1).every((w) => CHANGE_MODIFIERS.has(w));
    if ((p1 === 'by' || p1 === 'of' || byBefore) && clauseDir !== 0) sign = clauseDir;
    else if (/^(?:make|makes|made|making|take|takes|took|taking|account|accounts|accounted|add|adds|added) up$/.test(p2)) sign = 0; // "made up 41%": a share, not a rise
    else if (UP.has(stem(p1)) || DOWN.has(stem(p1))) sign = UP.has(stem(p1)) && !['top', 'tops', 'topping', 'exceed', 'exceeds', 'exceeded', 'exceeding'].includes(p1) ? 1 : DOWN.has(stem(p1)) ? -1 : 0;
    else if (nextDir !== 0 && /^\s*(up|down|higher|lower|more|less|fewer)\b/i.test(after)) sign = nextDir;
    // "a 12% rise", "a 4.99 per cent increase": the figure names the size of the change after it.
    else if (unit === 'percent' && CHANGE_NOUN.test(after)) sign = /^\s*(?:[\p{L}-]+\s+)?(?:fall|falls|drop|drops|decline|declines|decrease|decreases|reduction|reductions|cut|cuts)\b/iu.test(after) ? -1 : 1;
    // "The corresponding reduction in risk is 18%", "any rise … will be no higher than 2.7%": the change is the figure.
    else if (unit === 'percent' && COPULA_CHANGE.test(sentence.slice(clauseStart + 1, at))) sign = direction(COPULA_CHANGE.exec(sentence.slice(clauseStart + 1, at))![1]!) || 1;
    // "rise by no more than 5%": the direction before the bound applies.
    if (sign === 0 && threshold !== null && /\b(by)\s*$/i.test(sentence.slice(clauseStart + 1, at).replace(/\b(no more than|not more than|more than|less than|at least|at most|up to|over|under|nearly|almost|about|around)\s*$/i, '').trim() + ' ') ) sign = clauseDir;
    if (sign === 0 && headerChange) sign = /^[\s]*[−-]/.test(sentence.slice(Math.max(0, at - 2), at + 1)) || /^[\s]*[−-]/.test(m[0]) ? -1 : 1;
    if (/[−-]\s*$/.test(before) && headerChange) sign = -1;
    const kind: Reading['kind'] = sign === 0 ? 'level' : 'change';
    const signed = sign < 0 ? -value : value;
    const head = nextWords.find((w) => isContent(w) && !Object.keys(SCALE).includes(w) && !['per', 'cent', 'percent'].includes(w));
    // (A comma ends the clause unless it separates thousands, "2,640", or comes before a year, "June 30, 2025".)
    const clauseEndRel = after.search(/,(?!\d{3}(?!\d))(?!\s*(?:19|20)\d\d\b)|[;:)|]/);
    const clause = sentence.slice(clauseStart + 1, end + (clauseEndRel < 0 ? after.length : clauseEndRel));
    // A span of time is measured ("waited an average of 9 hours") only after words of measuring; otherwise it
    // says over what period or within what time a figure holds ("in the first six months", "within ten days").
    const durationDefinition = unit === 'duration' && header === undefined && !/\b(average|averaged|averaging|mean|median|wait|waited|waits|waiting|took|take|takes|lasted|lasting|delay|delayed|late by|of up to)\b[^,;]{0,80}$/i.test(sentence.slice(clauseStart + 1, at));
    const denominator = /\b(?:of|out of)\s+(?:its|their|our|the|his|her|all)?\s*$/i.test(before) && !/\b(?:total|average|sum|maximum|minimum|peak|high|low|record)\s+of\s*$/i.test(before)
      // ("£25 to each of the 61,300 affected customers": the whole, after a figure of another unit, is no denominator.)
      && !/\b(?:each|every\s+one|both|any|none|either|neither)\s+of\s+(?:its|their|our|the|his|her)?\s*$/i.test(before) && out.length > 0 && out.at(-1)?.unit === unit && at - (out.at(-1)?.end ?? 0) < 25;
    const toLevel = /\bto\s*(?:[£$€]\s?)?$/i.test(sentence.slice(clauseStart + 1, at)) && clauseDir !== 0 ? (clauseDir > 0 ? 'up' as const : 'down' as const) : null;
    const low = nearly ? signed * NEARLY : signed;
    const high = signed;
    out.push({
      at, end, text: m[0].trim(), value: signed,
      low: Math.min(low, high), high: Math.max(low, high),
      unit, kind, threshold, inclusive, nearly,
      // "received £2.4m to open 150 hubs", "had planned to recruit 85": a figure in a purpose or plan is not an outcome.
      target: lead.slice(-4).some((w) => TARGET.has(stem(w))) || /\b(target|goal|standard|commitment|plan|budget|ambition|aim)\s+(?:of|was|is|to)\s*$/i.test(before)
        || (/\bto\s+(?!(?:about|around|roughly|nearly|almost|just|some|over|under|more|less|fewer|between|at|an?|the)\b)[a-z]+(?:\s+(?:a|an|the|another|up|out|more|its|their|our))?\s+(?:[£$€]\s?)?$/i.test(sentence.slice(clauseStart + 1, at))
          // ("Storms forced us to cancel 212 sailings": what was made to happen happened.)
          && !/\b(?:forced|caused|compelled|obliged|led)\s+(?:[\p{L}'’-]+\s+){0,3}?to\s+[a-z]+(?:\s+(?:a|an|the|another|up|out|more|its|their|our))?\s+(?:[£$€]\s?)?$/iu.test(sentence.slice(clauseStart + 1, at))),
      // (or said of the future after it: "all 640 homes would be treated by March")
      forecast: prev.some((w) => FORECAST.has(w)) || /^[^,;.]{0,40}?\b(?:would|will|shall)\s+(?:be|have|need|take|get)\b/i.test(after),
      negated: !boundDenied && prev.some((w) => NEGATORS.has(w) || /n['’]t$/.test(w)),
      duration: durationDefinition,
      denominator,
      base: /\b(?:from|compared\s+with|compared\s+to|against)\s+(?:a\s+|the\s+)?(?:[£$€]\s?)?$/i.test(before),
      toLevel,
      head: head ? stem(head) : null,
      // What a count counts: the words of the noun phrase after it ("41 fire engines", "28 firefighters").
      counted: new Set(nextWords.slice(0, 6).filter((w) => isContent(w) && !Object.keys(SCALE).includes(w) && !GENERIC.has(w)).slice(0, 3).map(stem)),
      context,
      clause: ownClause(sentence, clause, clauseStart, at, context),
      rate: PER_MANY.test(after.split(/[,;:]/)[0]!.split(/\s+/).slice(0, 8).join(' ')),
      // The clause's own period, else the sentence's ("Fiscal 2024 revenue was $4.62 billion, up 8%"); the level a
      // change started from "the year before" is the year before it ("£1.46bn in 2022, up from £1.31bn the year before").
      years: yearBefore(after) ? new Set([...changeYears(kind, `${clause} ${header ?? ''}`, sentence)].filter((y) => /^\d{4}$/.test(y)).map((y) => String(Number(y) - 1))) : changeYears(kind, `${clause} ${header ?? ''}`, sentence),
      months: monthsIn(`${clause} ${header ?? ''}`).size ? monthsIn(`${clause} ${header ?? ''}`) : monthsIn(sentence),
      part: partOfYear(`${clause} ${header ?? ''}`) ?? partOfYear(sentence),
    });
  }
  // "halved", "doubled", "tripled": a change of -50%, +100%, +200% with no figure written.
  for (const m of sentence.matchAll(/\b(halv(?:e|ed|es|ing)|doubl(?:e|ed|es|ing)|tripl(?:e|ed|es|ing))\b/gi)) {
    const w = m[1]!.toLowerCase();
    const value = w.startsWith('halv') ? -50 : w.startsWith('doubl') ? 100 : 200;
    const at = m.index;
    if (out.some((r) => r.at <= at && at < r.end)) continue;
    const before = sentence.slice(0, at);
    const prev = words(before);
    out.push({
      at, end: at + m[0].length, text: m[0], value, low: value, high: value, unit: 'percent', kind: 'change', threshold: null, inclusive: false, nearly: false,
      target: prev.slice(-4).some((x) => TARGET.has(stem(x))) || /\bto\s*$/i.test(before), forecast: prev.some((x) => FORECAST.has(x)),
      negated: prev.slice(-4).some((x) => NEGATORS.has(x) || /n['’]t$/.test(x)), duration: false, denominator: false, toLevel: null, head: null,
      context, years: changeYears('change', sentence, sentence), months: monthsIn(sentence), part: partOfYear(sentence),
    });
  }
  // "8 minutes 12 seconds", "1 hour and 5 minutes": one span of time, in minutes.
  for (let i = out.length - 1; i > 0; i--) {
    const a = out[i - 1]!;
    const b = out[i]!;
    if (a.unit !== 'duration' || b.unit !== 'duration' || a.kind !== b.kind || !/^\s*(?:and\s+)?$/.test(sentence.slice(a.end, b.at))) continue;
    if (Math.abs(b.value) >= Math.abs(a.value)) continue;
    Object.assign(a, { end: b.end, text: sentence.slice(a.at, b.end).trim(), value: a.value + b.value, low: a.low + b.low, high: a.high + b.high });
    out.splice(i, 1);
  }
  // Ranges: "6 to 9 percent", "between £1.2bn and £1.3bn", "4-6%": one figure from low to high.
  for (let i = out.length - 1; i > 0; i--) {
    const a = out[i - 1]!;
    const b = out[i]!;
    const gap = sentence.slice(a.end, b.at);
    if (!/^\s*(to|and|-|–|—)\s*$/.test(gap)) continue;
    if (gap.trim() === 'and' && !/\bbetween\s+(?:[£$€]\s?)?$/i.test(sentence.slice(0, a.at).replace(/\s*$/, ' ').slice(-12))) continue;
    if (a.unit !== b.unit && a.unit !== 'count') continue;
    const unitRatio = a.unit === 'count' && b.unit !== 'count' ? unitScale(a, b) : 1;
    const lo = Math.abs(a.value) * unitRatio;
    const hi = Math.abs(b.value);
    if (lo >= hi) continue;
    const sign = a.kind === 'change' ? Math.sign(a.value) : b.kind === 'change' ? Math.sign(b.value) : 1;
    Object.assign(b, {
      at: a.at, text: sentence.slice(a.at, b.end).trim(), kind: a.kind === 'change' || b.kind === 'change' ? 'change' : 'level',
      value: sign * (lo + hi) / 2, low: sign < 0 ? -hi : lo, high: sign < 0 ? -lo : hi,
      threshold: null, target: a.target || b.target, forecast: a.forecast || b.forecast, negated: a.negated || b.negated, nearly: false,
    });
    out.splice(i - 1, 1);
  }
  return out.map(({ end: _end, ...r }) => r);
}

/** "4 to 6%": the first end is written without the unit (and a money range's first end without its scale: "£1.2 to £1.3bn"). */
function unitScale(a: Reading, b: Reading): number {
  if (b.unit === 'percent' || b.unit === 'points') return 1;
  const ratio = Math.abs(b.value) / Math.max(Math.abs(a.value), 1e-9);
  return ratio > 100 ? 10 ** Math.round(Math.log10(ratio)) : 1;
}
