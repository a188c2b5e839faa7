import { yearsIn } from './judge-text.ts';

// Named periods that general date parsers do not read, each with the day it
// ends (methodology, "Due dates"): split years ("the 2024/25 season", "the
// 2025-26 financial year", "2023-24"), quarters ("Q3 2025", "the third
// quarter"), halves ("the second half of 2025"), seasons of the year ("this
// winter", "next summer", "spring 2025"), a month with no year after "by",
// "come" or "in the year to" (the next such month), and "the end of the year".
// A season is read in the northern hemisphere: winter is December to
// February, so "this winter" ends on the last day of the February after
// the statement.

export type Period = { start: number; end: number; date: string };

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const endOf = (y: number, m: number) => `${y}-${pad(m)}-${pad(lastDay(y, m))}`;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_RE = MONTHS.join('|');
const QUARTER_WORDS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, final: 4, last: 4 };

/** A split year's second calendar year: "2024/25" → 2025, "2024-2025" → 2025; null when it is not a year and the next. */
function splitYear(a: string, b: string): number | null {
  const first = Number(a);
  const second = b.length === 2 ? Math.floor(first / 100) * 100 + Number(b) : Number(b);
  return second === first + 1 ? second : null;
}

/**
 * When a season of the year named relative to a date ends: "this winter" said
 * in March 2025 is the winter of 2025/26, ending February 2026; said in January
 * 2025 it is the winter under way, ending February 2025.
 */
function seasonEnd(season: string, which: 'this' | 'next' | number, ref: string): string {
  const startMonth: Record<string, number> = { spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 };
  const sm = startMonth[season] ?? 1;
  // A season's start and end by the year it starts in (winter runs December to February).
  const span = (y: number) => ({ start: `${y}-${pad(sm)}-01`, end: sm === 12 ? endOf(y + 1, 2) : endOf(y, sm + 2) });
  if (typeof which === 'number') return season === 'winter' ? endOf(which + 1, 2) : span(which).end;
  const y = Number(ref.slice(0, 4));
  // "this winter": the one under way, else the next to start; "next winter": the next to start.
  for (const year of [y - 1, y, y + 1, y + 2]) {
    const sp = span(year);
    if (which === 'this' && sp.start <= ref && ref <= sp.end) return sp.end;
    if (sp.start > ref) return sp.end;
  }
  return span(y + 1).end;
}

export function periodsIn(sentence: string, ref: string): Period[] {
  const out: Period[] = [];
  const add = (m: RegExpMatchArray, date: string | null) => {
    if (!date || m.index === undefined) return;
    const start = m.index;
    const end = start + m[0].length;
    if (out.some((p) => start < p.end && p.start < end)) return;
    out.push({ start, end, date });
  };
  const refYear = Number(ref.slice(0, 4));
  const refMonth = Number(ref.slice(5, 7));

  // Split years: a season ends in May of its second year, a financial year (and a bare split year) in March.
  for (const m of sentence.matchAll(/\b((?:19|20)\d\d)\s*[/–-]\s*((?:19|20)?\d\d)\b(\s+(?:season|campaign|financial year|fiscal year|tax year|academic year|school year|winter|year))?/gi)) {
    const second = splitYear(m[1]!, m[2]!);
    if (second === null) continue;
    const what = (m[3] ?? '').trim().toLowerCase();
    const date = what === 'season' || what === 'campaign' ? endOf(second, 5)
      : what === 'academic year' || what === 'school year' ? endOf(second, 7)
        : what === 'winter' ? endOf(second, 2)
          : what === 'tax year' ? `${second}-04-05` : endOf(second, 3);
    add(m, date);
  }
  // A fiscal year named by its calendar year ("fiscal 2025", "FY2025", "fiscal year 2025") ends with that year.
  for (const m of sentence.matchAll(/\b(?:fiscal(?:\s+year)?|FY)\s*'?((?:19|20)?\d\d)\b/gi)) {
    const y = m[1]!.length === 2 ? 2000 + Number(m[1]) : Number(m[1]);
    add(m, `${y}-12-31`);
  }
  // Quarters: "Q3 2025", "Q3", "the third quarter of 2025", "the fourth quarter".
  for (const m of sentence.matchAll(/\bQ([1-4])(?:\s*(?:of\s+)?((?:19|20)\d\d)|\s*'?(\d\d)\b)?/g)) {
    const q = Number(m[1]);
    const year = m[2] ? Number(m[2]) : m[3] ? 2000 + Number(m[3]) : refMonth <= q * 3 ? refYear : refYear + 1;
    add(m, endOf(year, q * 3));
  }
  for (const m of sentence.matchAll(/\b(first|second|third|fourth|final|last)\s+quarter(?:\s+of\s+(?:the\s+year\s+|((?:19|20)\d\d)))?/gi)) {
    const q = QUARTER_WORDS[m[1]!.toLowerCase()]!;
    const year = m[2] ? Number(m[2]) : refMonth <= q * 3 ? refYear : refYear + 1;
    add(m, endOf(year, q * 3));
  }
  // Halves: "the second half of 2025", "the first half of the year", "H2 2025".
  for (const m of sentence.matchAll(/\b(?:(first|second)\s+half|H([12]))(?:\s+of\s+(?:the\s+year|((?:19|20)\d\d))|\s+((?:19|20)\d\d))?/gi)) {
    const h = m[1] ? (m[1].toLowerCase() === 'first' ? 1 : 2) : Number(m[2]);
    const y = m[3] ?? m[4];
    const year = y ? Number(y) : refMonth <= h * 6 ? refYear : refYear + 1;
    add(m, endOf(year, h * 6));
  }
  // Seasons of the year: "this winter", "next summer", "winter 2025", "the summer of 2026", "by spring".
  for (const m of sentence.matchAll(/\b(?:(this|next|coming|the coming)\s+)?(spring|summer|autumn|fall|winter)(?:\s+(?:of\s+)?((?:19|20)\d\d))?\b/gi)) {
    const season = m[2]!.toLowerCase();
    const which = m[1]?.toLowerCase();
    const before = sentence.slice(0, m.index).toLowerCase();
    // "will fall" is a verb; "flu season" and "summer's" are not periods to date.
    if (season === 'fall' && !which && !m[3]) continue;
    if (!which && !m[3] && !/\b(by|in|during|over|through|before|until|for|this|next|come|the)\s*$/.test(before)) continue;
    if (/\b(flu|football|racing|cricket|holiday|tourist)\s*$/.test(before)) continue;
    const date = m[3] ? seasonEnd(season, Number(m[3]), ref) : seasonEnd(season, which === 'next' ? 'next' : 'this', ref);
    add(m, date);
  }
  // A month with no year, after "by", "come", "until", "before", "in the year to", "next": the next such month.
  for (const m of sentence.matchAll(new RegExp(`\\b(by|come|until|till|before|in the year to|in the twelve months to|in the 12 months to|the year to|next|this)\\s+(?:the\\s+end\\s+of\\s+)?(${MONTH_RE})\\b(?!\\s*,?\\s*(?:19|20)\\d\\d)(?!\\s+\\d)`, 'gi'))) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    const word = m[1]!.toLowerCase();
    let year = month > refMonth ? refYear : refYear + 1;
    if (word === 'this' && month <= refMonth) year = refYear;
    if (word === 'next' && month > refMonth && month - refMonth < 2) year = refYear + 1;
    add(m, word === 'before' ? `${year}-${pad(month)}-01` : endOf(year, month));
  }
  // "will win the election in September", said in January: a month with no year after a future tense is the next such
  // month (in the past tense, "signed in February", it dates what was done, and is no deadline).
  for (const m of sentence.matchAll(new RegExp(`\\b(?:will|shall|['’]ll|going to|expects?|expected|set to|due to)\\b[^.;]*?\\b(in)\\s+(${MONTH_RE})\\b(?!\\s*,?\\s*(?:19|20)\\d\\d)(?!\\s+\\d)`, 'gi'))) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    const year = month >= refMonth ? refYear : refYear + 1;
    const [start, end] = [m.index + m[0].lastIndexOf(`${m[1]!} ${m[2]!}`), m.index + m[0].length];
    if (!out.some((p) => start < p.end && p.start < end)) out.push({ start, end, date: endOf(year, month) });
  }
  // "next season", with no season of the year named: the sporting season after the one under way, read as one that
  // ends in May (as documentPeriod reads "this season").
  for (const m of sentence.matchAll(/\bnext\s+season\b/gi)) add(m, endOf(refMonth >= 6 ? refYear + 2 : refYear + 1, 5));
  // "by the end of the year", "this year", "later this year", "all season" needs the document's season.
  for (const m of sentence.matchAll(/\b(?:by\s+)?the\s+end\s+of\s+(?:the|this)\s+year\b|\b(?:later\s+)?this\s+year\b/gi)) add(m, `${refYear}-12-31`);
  for (const m of sentence.matchAll(/\bnext\s+year\b/gi)) add(m, `${refYear + 1}-12-31`);
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The period a document is about, for claims in it that name none of their
 * own ("will finish in the top four", in a preview of the 2024/25 season):
 * the one split year or season its title and text name, ending after the
 * document was published; null when they name none, or several.
 */
export function documentPeriod(title: string, text: string, published: string): string | null {
  const ends = new Set<string>();
  for (const s of [title, ...text.split('\n')]) {
    for (const m of s.matchAll(/\b((?:19|20)\d\d)\s*[/–-]\s*((?:19|20)?\d\d)\s+(season|campaign|financial year|fiscal year)\b/gi)) {
      const second = splitYear(m[1]!, m[2]!);
      if (second === null) continue;
      const date = /season|campaign/i.test(m[3]!) ? endOf(second, 5) : endOf(second, 3);
      if (date > published) ends.add(date);
    }
  }
  if (ends.size === 0 && /\b(?:this|the|the new|the coming|all)\s+season\b|\bseason\s+(?:preview|opener|ticket|review)/i.test(`${title}\n${text}`.replace(/\b(flu|holiday|tourist|festive|winter|summer|spring|autumn|breeding|hunting)\s+season/gi, ''))) {
    // A season named by no year (a preview of "the season"): the one under way or about to start when it was
    // published, read as a season that ends in May (methodology, "Due dates").
    const y = Number(published.slice(0, 4));
    const m = Number(published.slice(5, 7));
    ends.add(endOf(m >= 6 ? y + 1 : y, 5));
  }
  if (ends.size === 0) {
    for (const m of `${title}\n${text}`.matchAll(/\b(?:fiscal(?:\s+year)?|FY)\s*((?:19|20)\d\d)\s+(?:outlook|guidance|forecast)|\b(?:outlook|guidance)\s+for\s+(?:fiscal\s+)?((?:19|20)\d\d)\b/gi)) {
      const date = `${m[1] ?? m[2]}-12-31`;
      if (date > published) ends.add(date);
    }
  }
  return ends.size === 1 ? [...ends][0]! : null;
}

// ---- the period a figure is for (quantities.ts) ---------------------------

/**
 * The years a text dates a figure to, as tokens: a calendar year ("2024"), or
 * a split year ("2023/24", also written "2023-24", "the 2023/24 financial
 * year" or "the year to March 2024"), which is a period of its own.
 */
export function periodYears(text: string): Set<string> {
  const out = new Set<string>();
  let rest = text;
  for (const m of text.matchAll(/\b((?:19|20)\d\d)\s*[/–-]\s*((?:19|20)?\d\d)\b/g)) {
    const a = Number(m[1]);
    const b = m[2]!.length === 2 ? Math.floor(a / 100) * 100 + Number(m[2]) : Number(m[2]);
    if (b !== a + 1) continue;
    out.add(`${a}/${String(b).slice(2)}`);
    rest = rest.replace(m[0], ' ');
  }
  for (const m of rest.matchAll(/\b(?:in\s+)?the\s+(?:year|twelve months|12 months)\s+to\s+(?:the\s+end\s+of\s+)?(?:\d{1,2}\s+)?(january|february|march|april|may|june)\s+((?:19|20)\d\d)\b/gi)) {
    const y = Number(m[2]);
    out.add(`${y - 1}/${String(y).slice(2)}`);
    rest = rest.replace(m[0], ' ');
  }
  for (const y of yearsIn(rest)) out.add(y);
  return out;
}

/**
 * The period a figure is for. A change is dated to its later period: the year
 * it is measured against ("8.6% more than in 2022", "up from 21% in 2021", "on
 * 2022") is its base, not its period.
 */
export function changeYears(kind: 'level' | 'change', clauseIn: string, sentenceIn: string): Set<string> {
  // "since 2018" opens a span the figure holds over; it is not the figure's period.
  const clause = clauseIn.replace(/\bsince\s+(?:the\s+)?(?:(?:19|20)\d\d(?:\s*[/–-]\s*\d{2,4})?)/gi, ' ');
  const sentence = sentenceIn.replace(/\bsince\s+(?:the\s+)?(?:(?:19|20)\d\d(?:\s*[/–-]\s*\d{2,4})?)/gi, ' ');
  const own = periodYears(clause).size ? periodYears(clause) : periodYears(sentence);
  if (kind !== 'change') return own;
  const base = new Set<string>();
  // (The base may stand in a table's heading: "Change on 2023 (%)".)
  for (const m of `${clause} ${sentence}`.matchAll(/\b(?:than|from|on|since|compared with|against|over)\s+(?:in\s+|the\s+)?((?:19|20)\d\d(?:\s*[/–-]\s*\d{2,4})?)/gi)) for (const y of periodYears(m[1]!)) base.add(y);
  const rest = new Set([...own].filter((y) => !base.has(y)));
  if (rest.size) return rest;
  const all = new Set([...periodYears(sentence)].filter((y) => !base.has(y)));
  if (all.size) return all;
  // A one-year change named only by its base ("Change on 2023") is the change over the year after it.
  const on = /\b(?:change|rise|fall|increase|decrease|growth)\s+on\s+((?:19|20)\d\d)\b/i.exec(`${clause} ${sentence}`);
  return on ? new Set([String(Number(on[1]) + 1)]) : all;
}

const SPAN_MONTHS: Record<string, number> = { three: 3, '3': 3, six: 6, '6': 6, nine: 9, '9': 9, twelve: 12, '12': 12 };
const MONTH_NUMBER: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const MONTHS_TO = /\b(?:(three|six|nine|twelve|3|6|9|12)[\s-]+months?|year)\s+(?:to|ended|ending|up\s+to)\s+(?:(?:the\s+)?(?:end\s+of\s+)?)?(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

/** The quarter or half a text names ("third-quarter revenue", "Q2", "the second half"), or null. */
export function partOfYear(text: string): string | null {
  const q = /\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]+quarter\b|\bQ([1-4])\b/i.exec(text);
  if (q) return `q${q[2] ?? { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4 }[q[1]!.toLowerCase() as 'first']}`;
  const h = /\b(first|second)[\s-]+half\b|\bH([12])\b/i.exec(text);
  if (h) return `h${h[2] ?? (h[1]!.toLowerCase() === 'first' ? 1 : 2)}`;
  // "the six months to 30 June 2025", "three months ended March", "the year to September": a span that ends in a
  // month. A quarter or half when it ends where one does; a year to a month other than December is a year of its own.
  const to = MONTHS_TO.exec(text);
  if (to) {
    const span = SPAN_MONTHS[(to[1] ?? 'twelve').toLowerCase()] ?? 12;
    const month = MONTH_NUMBER[to[2]!.slice(0, 3).toLowerCase()]!;
    if (span === 3 && month % 3 === 0) return `q${month / 3}`;
    if (span === 6 && month % 6 === 0) return `h${month / 6}`;
    if (span === 12 && month !== 12) return `y${month}`;
  }
  // "by the end of 2025", "at end-2025", "by December 2025": a level at the year's close, which the last
  // quarter's or the second half's figure reports as well as the year's.
  // ("end 2025 with 65,000 members", "ended the year at $1.06 billion", "at the close of 2025", "year-end")
  if (/\b(?:(?:by|at|before)\s+(?:the\s+)?end[\s-]+(?:of\s+)?|end(?:ed|ing|s)?\s+(?:of\s+)?|(?:by|at)\s+the\s+close\s+of\s+)(?:(?:19|20)\d\d|the\s+year)\b|\byear[\s-]end\b/i.test(text)) return 'end';
  return null;
}

/** Whether a claim's part of the year is answered by a figure for another part: the year's end by its last quarter or half. */
export function partMeets(claimed: string | null, reported: string | null): boolean {
  // A level at the year's close answers a claim about the year that names no part of it, and the reverse.
  if (reported === null || claimed === reported || (claimed === null && reported === 'end')) return true;
  // A year to a month ("the year to March 2025") answers a claim that names no part of a year (a financial year).
  if (claimed === null && reported.startsWith('y')) return true;
  // "higher by Q2 2026 than a year earlier" is answered by the year to June 2026.
  if (reported.startsWith('y') && claimed !== null && /^[qh]\d$/.test(claimed) && Number(reported.slice(1)) === Number(claimed.slice(1)) * (claimed[0] === 'q' ? 3 : 6)) return true;
  return claimed === 'end' && (reported === 'q4' || reported === 'h2');
}
