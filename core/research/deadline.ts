import nlp from 'compromise';
import datesPlugin from 'compromise-dates';
import * as chrono from 'chrono-node';
import { parse } from './parse.ts';
import { periodsIn } from './periods.ts';

nlp.plugin(datesPlugin);

type TermJson = { text: string; normal: string; root?: string; tags: string[] };

// When a promise, prediction or outlook falls due: the latest date a sentence names as its deadline
// ("by June 2025", "Q3 2025", "the 2024/25 season", "this winter"), read with chrono-node and
// compromise-dates and the project's own periods (methodology, "Classify").

const DAY_MS = 86_400_000;
const iso = (d: Date): string => d.toISOString().slice(0, 10);
const dayBefore = (isoDate: string): string => iso(new Date(Date.parse(`${isoDate}T00:00:00Z`) - DAY_MS));
const endOfMonth = (y: number, m: number): string => iso(new Date(Date.UTC(y, m, 0)));
// Words that may stand before a bare year and still belong to its period ("the end of 2026").
const PERIOD_WORDS = new Set(['the', 'end', 'of', 'first', 'second', 'third', 'fourth', 'final', 'last', 'quarter', 'half', 'spring', 'summer', 'autumn', 'fall', 'winter', 'early', 'late', 'mid']);
const AUXILIARIES = new Set(['will', 'to', 'may', 'might', 'could', 'would', 'should', 'can', 'shall', 'must']);

interface Found { start: number; end: number; date: string; due: boolean }
// A date after one of these is a due date ("by June 2025"); others ("this winter") only set the scene.
const DUE_WORDS = new Set(['by', 'before', 'until', 'till', 'within', 'through', 'throughout', 'in', 'during', 'over', 'end']);
const isDue = (sentence: string, index: number, text: string): boolean =>
  DUE_WORDS.has(wordsBefore(sentence, index).at(-1) ?? '') || DUE_WORDS.has(text.trim().split(/\s+/)[0]?.toLowerCase() ?? '');

function wordsBefore(sentence: string, index: number): string[] {
  return sentence.slice(0, index).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

/** Exact dates, month-and-year and durations ("within two years") via chrono. */
function chronoDates(sentence: string, ref: string): Found[] {
  const out: Found[] = [];
  for (const r of chrono.parse(sentence, new Date(`${ref}T12:00:00Z`))) {
    // A time of day ("Evening", "tonight") is no deadline, least of all inside a name ("the Dunholme Evening Star").
    if (!r.start.isCertain('day') && !r.start.isCertain('weekday') && !r.start.isCertain('month') && !r.start.isCertain('year') && !/\b(?:tomorrow|week|month|year|weekend)\b/i.test(r.text)) continue;
    const d = r.start.date();
    // "within two years" counts from said_on; "this year" or "next year" is a whole calendar period.
    const duration = /(days?|weeks?|months?|years?)\s*$/i.test(r.text) && /\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|\d+)\b/i.test(r.text);
    let date: string;
    if (r.start.isCertain('day') || duration) date = iso(d);
    else if (r.start.isCertain('month')) date = endOfMonth(d.getUTCFullYear(), d.getUTCMonth() + 1);
    else date = `${d.getUTCFullYear()}-12-31`;
    const before = wordsBefore(sentence, r.index).at(-1) === 'before';
    if (before && !r.start.isCertain('day') && !duration) date = dayBefore(iso(d));
    out.push({ start: r.index, end: r.index + r.text.length, date, due: isDue(sentence, r.index, r.text) });
  }
  return out;
}

/** Named periods chrono misses ("by the end of 2026", "summer 2027"), via compromise-dates. */
function compromiseDates(sentence: string, ref: string): Found[] {
  const out: Found[] = [];
  const phrases = (nlp(sentence) as any).dates({ today: ref, timezone: 'UTC' }).json({ offset: true }) as Array<{ text: string; offset: { start: number; length: number } }>;
  for (const p of phrases) {
    const words = p.text.trim().replace(/[.,;:!?]+$/, '').split(/\s+/);
    // compromise-dates reads "by March" as "before March"; re-read the period without its preposition.
    while (words.length > 1 && /^(by|before|until|till|in|during|through|throughout|from|on|at|within)$/i.test(words[0] ?? '')) words.shift();
    const prev = wordsBefore(sentence, p.offset.start).at(-1) ?? '';
    if (words.length === 1 && AUXILIARIES.has(prev)) continue; // "will fall": a verb, not autumn
    // "this season" with no season named is a sporting or trading season (documentPeriod), not the weather's;
    // "next season", the one after it (periods.ts).
    if (/\bseason\b/i.test(p.text) && !/\b(?:spring|summer|autumn|fall|winter|next)\b/i.test(p.text)) continue;
    if (words.length === 1 && /^(?:daily|weekly|monthly|yearly|annual|annually|nightly|hourly|morning|afternoon|evening|night|tonight|noon|midnight)$/i.test(words[0] ?? '')) continue; // how often, or a time of day: not when
    const period = (nlp(words.join(' ')) as any).dates({ today: ref, timezone: 'UTC' }).json()[0]?.dates;
    if (!period?.end) continue;
    const date = /^before$/i.test(p.text.trim().split(/\s+/)[0] ?? '') && !words.includes('end') ? dayBefore(period.start.slice(0, 10)) : period.end.slice(0, 10);
    out.push({ start: p.offset.start, end: p.offset.start + p.offset.length, date, due: isDue(sentence, p.offset.start, p.text) });
  }
  return out;
}

/** Bare years that neither parser placed ("rise by 8% by 2025"). */
function bareYears(sentence: string, taken: Found[]): Found[] {
  const out: Found[] = [];
  for (const m of parse(sentence).match('/(19|20)[0-9]{2}$/').json({ offset: true }) as Array<{ terms: TermJson[]; offset: { start: number; length: number } }>) {
    const year = Number(m.terms[0]?.normal.slice(-4));
    const start = m.offset.start;
    if (taken.some((f) => start >= f.start && start < f.end)) continue;
    if (/\d,\d|[%£$€]/.test(m.terms[0]?.text ?? '')) continue;
    const before = wordsBefore(sentence, start);
    const period: string[] = [];
    while (before.length && PERIOD_WORDS.has(before.at(-1) ?? '')) period.unshift(before.pop() ?? '');
    let date = `${year}-12-31`;
    if (period.includes('mid')) date = `${year}-06-30`;
    else if (before.at(-1) === 'before' && period.length === 0) date = `${year - 1}-12-31`;
    out.push({ start, end: start + m.offset.length, date, due: period.includes('end') || DUE_WORDS.has(before.at(-1) ?? '') });
  }
  return out;
}

/**
 * When a promise or prediction falls due: the latest date the sentence names after
 * said_on. "By March 2026" gives the whole of March (2026-03-31); "before 2028" the
 * day before 2028 begins; "within two years" two years after said_on.
 */
const deadlineCache = new Map<string, string | null>();
export function findDeadline(sentence: string, said_on?: string): string | null {
  const ref = said_on ?? iso(new Date());
  const key = `${ref}\n${sentence}`;
  if (deadlineCache.has(key)) return deadlineCache.get(key)!;
  if (deadlineCache.size >= 5000) deadlineCache.delete(deadlineCache.keys().next().value as string);
  const found = readDeadline(sentence, ref, said_on);
  deadlineCache.set(key, found);
  return found;
}

function readDeadline(sentence: string, ref: string, said_on: string | undefined): string | null {
  const found: Found[] = periodsIn(sentence, ref).map((p) => ({ ...p, due: true }));
  found.push(...chronoDates(sentence, ref).filter((c) => !found.some((f) => c.start < f.end && f.start < c.end)));
  found.push(...compromiseDates(sentence, ref).filter((c) => !found.some((f) => c.start < f.end && f.start < c.end)));
  found.push(...bareYears(sentence, found));
  const ahead = found.filter((f) => (said_on ? f.date > said_on : true));
  const due = ahead.some((f) => f.due) ? ahead.filter((f) => f.due) : ahead;
  return due.map((f) => f.date).sort().at(-1) ?? null;
}

