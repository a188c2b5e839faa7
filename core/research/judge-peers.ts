import { cellAt, columnHeading, isTableRow } from './table-figures.ts';
import { PER_MANY } from './quantities.ts';
import { claimTerms, contentStems, overlap, words } from './judge-text.ts';
import { namesIn } from './grounding.ts';
import { periodYears } from './periods.ts';
import type { Finding, JudgeInput, UsableItem } from './judge-types.ts';

// Claims that rank the subject among its peers by a measure ("the second-largest contractor by output",
// "built more new mast sites than any other operator", "one of the three forces with the lowest crime
// rate", "the best-selling daily newspaper in the county"), read against a table that lists the peers:
// the column whose heading names the claim's measure is sorted, and the subject's place in it is the
// answer. A place among the rows of another region (a cell the claim names, "in North Vale") is taken
// among those rows only; rows that sum or average the others ("All members", "National average") are not
// peers. A tie at the place claimed, a measure no single heading names, or a table without the subject
// settles nothing.

export type PeerCondition = { within: number; exact: boolean; descending: boolean; change: boolean; text: string };

const NTH: Record<string, number> = { second: 2, third: 3, fourth: 4, fifth: 5, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5 };
const COUNT: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, six: 6, ten: 10 };
const HIGH = 'largest|biggest|highest|most|busiest|best-selling|top-selling|greatest';
const LOW = 'lowest|smallest|fewest|least|cheapest';
const MORE = 'more|higher|bigger|larger|greater|faster';
const LESS = 'fewer|lower|smaller|less|slower|cheaper';
// A change the claim compares ("grew output faster than", "cut costs more than").
const CHANGED = /\b(?:grew|grown|grow|rose|risen|rise|increased|fell|fallen|cut|reduced|improved)\b/i;

const ONE_OF = new RegExp(String.raw`\bone of the\s+(\d|two|three|four|five|six|ten)\b[^.;]{0,40}?\b(${HIGH}|${LOW})\b`);
const NTH_MOST = new RegExp(String.raw`\bthe\s+(?:(second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+)?(${HIGH}|${LOW})\s+(?!of\b|in\s+(?:its|our|their)\b|ever\b|since\b|on\s+record\b)[\p{L}-]+`, 'u');
const THAN_ANY = new RegExp(String.raw`\b(${MORE}|${LESS})\b[^.;]{0,60}\bthan\s+(?:(?:at|in|for|of|by|among)\s+)?(?:any|every)\s+other\b`);
const IS_HIGH = new RegExp(`^(?:${HIGH})$`);
const IS_MORE = new RegExp(`^(?:${MORE})$`);

/** The place among peers a claim states, or null when it ranks no one by a measure. */
export function peerCondition(quote: string): PeerCondition | null {
  const q = quote.toLowerCase();
  let m: RegExpExecArray | null;
  const change = CHANGED.test(q);
  if ((m = ONE_OF.exec(q))) {
    const n = /\d/.test(m[1]!) ? Number(m[1]) : COUNT[m[1]!]!;
    return { within: n, exact: false, descending: IS_HIGH.test(m[2]!), change, text: `among the ${n} ${m[2]}` };
  }
  if ((m = NTH_MOST.exec(q))) {
    // ("the most recent", "the highest ever": not a place among peers.)
    if (/\b(?:ever|on record|in (?:its|our|their) history|since)\b/.test(q) || /^the\s+most\s+(?:recent|likely|important)\b/.test(m[0])) return null;
    const n = m[1] ? NTH[m[1]]! : 1;
    return { within: n, exact: true, descending: IS_HIGH.test(m[2]!), change, text: n === 1 ? `the ${m[2]}` : `${m[1]} ${m[2]}` };
  }
  if ((m = THAN_ANY.exec(q))) {
    return { within: 1, exact: true, descending: IS_MORE.test(m[1]!), change, text: `${m[1]} than any other` };
  }
  if ((m = /\bno other\b[^.;]{0,60}\bas\s+(many|much|high|large|few|low|little)\b/.exec(q))) {
    return { within: 1, exact: true, descending: /^(?:many|much|high|large)$/.test(m[1]!), change, text: 'more than any other' };
  }
  return null;
}

// Rows that sum or average the others.
const AGGREGATE = /\b(?:all|total|totals|average|mean|median|national|overall|sector|industry|england|region|combined)\b/i;

/** The column whose heading names the claim's measure, alone: null on a tie or when none does. */
function measureColumn(heads: readonly string[], rows: readonly string[], input: JudgeInput, change: boolean): number | null {
  const ct = claimTerms(input.claim);
  // A rate ("the lowest crime rate", "complaints per 100,000") is ranked by a column of rates, a count by counts.
  const rate = RATE.test(input.claim.quote);
  const years = claimYears(input.claim.quote, input.claim.said_on);
  let best = { j: -1, score: 0, tied: false };
  for (let j = 1; j < heads.length; j++) {
    const isChange = /\b(?:change|growth|increase|decrease)\b|[+±]/i.test(heads[j]!);
    if (isChange !== change || RATE.test(columnHeading(heads, j)) !== rate) continue;
    // A column of names or words measures nothing.
    if (rows.filter((r) => /\d/.test(r.split('|')[j] ?? '')).length * 2 < rows.length) continue;
    // A column of another year measures something else.
    const own = [...periodYears(columnHeading(heads, j))];
    if (own.length && years.length && !own.some((y) => years.includes(y.slice(0, 4)))) continue;
    const { score: share, shared } = overlap(ct, columnHeading(heads, j));
    if (shared.filter((w) => !ct.names.has(w)).length === 0) continue;
    // Between headings that share as much of the claim, the one that says least besides ("Output 2024" over
    // "Public-sector share of output").
    const score = share + 0.001 * (shared.length / Math.max(1, contentStems(columnHeading(heads, j).replace(/\([^)]*\)|(?:19|20)\d\d/g, ' ')).size));
    if (score > best.score) best = { j, score, tied: false };
    else if (score === best.score) best.tied = true;
  }
  return best.j > 0 && !best.tied ? best.j : null;
}

// A rate: "rate" itself, or "per" so many of something (quantities.ts).
const RATE = new RegExp(String.raw`\brates?\b|${PER_MANY.source}`, 'i');

/** The years a claim is about: those it names, or "last year" and "this year" from when it was said. */
function claimYears(quote: string, saidOn: string): string[] {
  const named = [...periodYears(quote)].map((y) => y.slice(0, 4));
  if (named.length) return named;
  const year = Number(saidOn.slice(0, 4));
  if (/\blast year\b/i.test(quote)) return [String(year - 1)];
  if (/\bthis year\b/i.test(quote)) return [String(year)];
  return [];
}

/** The row's label: its first cell with letters (a first column may hold the place). */
const labelOf = (row: string) => row.split('|').find((c) => /\p{L}/u.test(c)) ?? '';

/** Whether a row's label names the one ranked (every word of the label is a word of one of its names). */
function labels(row: string, names: readonly string[][]): boolean {
  const label = words(labelOf(row));
  if (label.length === 0) return false;
  return names.some((n) => n.length > 0 && label[0] === n[0] && label.every((w) => n.includes(w) || /^(?:plc|ltd|limited|the|&)$/.test(w)));
}

function placeIn(item: UsableItem, input: JudgeInput, cond: PeerCondition, names: readonly string[][], places: readonly string[]): { pos: number; size: number; heading: string; row: string } | null {
  const header = item.table_header!;
  const heads = header.split('|');
  let rows = item.sentences.filter(isTableRow).filter((r) => !AGGREGATE.test(labelOf(r)));
  const j = measureColumn(heads, rows, input, cond.change);
  if (j === null) return null;
  // "in North Vale": the rows of that place, when the table has a column of places.
  for (const p of places) {
    const of = rows.filter((r) => r.split('|').some((c) => c.trim().toLowerCase() === p));
    if (of.length > 0 && of.length < rows.length) rows = of;
  }
  const values = rows.map((row) => ({ row, v: cellAt(row, header, j)?.value ?? null })).filter((x): x is { row: string; v: number } => x.v !== null);
  if (values.length < 3) return null;
  const own = values.filter((x) => labels(x.row, names));
  if (own.length !== 1) return null;
  const mine = own[0]!;
  const better = values.filter((x) => (cond.descending ? x.v > mine.v : x.v < mine.v)).length;
  const level = values.filter((x) => x !== mine && x.v === mine.v).length;
  // A tie that straddles the place claimed leaves it open.
  if (level > 0 && better < cond.within && better + level + 1 > cond.within) return null;
  return { pos: better + 1, size: values.length, heading: columnHeading(heads, j).replace(/\s+/g, ' ').trim(), row: mine.row };
}

/** The peers judge: null when the claim ranks no one by a measure or no table settles it. */
export function peersFinding(input: JudgeInput): Finding | null {
  const cond = peerCondition(input.claim.quote);
  if (!cond) return null;
  const self = input.claim.speaker.toLowerCase();
  const named = namesIn(input.claim.quote).filter((n) => !n.initial || n.text.includes(' ')).map((n) => words(n.text)).filter((w) => w.length > 0);
  // Who is ranked: another the claim names that labels a row ("Kestrel Park School's results"), else the
  // speaker, by any of its names; a name that stands in other cells ("in Upper Fen") says among which rows.
  const speaker = [words(self), ...(input.actors?.names ?? [])];
  const tables = input.items.filter((i) => i.independent_of_subject && i.table_header).sort((a, b) => (b.published ?? '').localeCompare(a.published ?? ''));
  for (const item of tables) {
    const rows = item.sentences.filter(isTableRow);
    const others = named.filter((n) => !speaker.some((sp) => n.every((w) => sp.includes(w))));
    const labelling = others.filter((n) => rows.some((r) => labels(r, [n])));
    const names = labelling.length === 1 ? [labelling[0]!] : labelling.length === 0 ? speaker : [];
    if (names.length === 0) continue;
    const places = others.filter((n) => !labelling.includes(n)).map((n) => n.join(' '));
    const place = placeIn(item, input, cond, names, places);
    if (!place) continue;
    const held = cond.exact && cond.within > 1 ? place.pos === cond.within : place.pos <= cond.within;
    const outcome = held ? 'true' : 'false';
    return {
      outcome,
      reason: `${item.publisher} (${item.published}) ranks it ${place.pos} of ${place.size} by "${place.heading}", ${held ? '' : 'not '}${cond.text} as claimed, so ${outcome}.`,
      basis: [{ item, sentence: place.row }],
    };
  }
  return null;
}
