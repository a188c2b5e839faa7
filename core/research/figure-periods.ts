import { MONTHS as MONTH_NAMES } from './judge-text.ts';
import type { Reading } from './quantities.ts';

// The periods the figures judge holds a claim's and a source's figures to: a month or a year named relative to the
// day a claim was made, a year not yet over, a period that ends after a date, and the latest year a figure is for.

/**
 * A statement of fact dated by a month with no year ("inflation was 2.7% in December", "backlog stood at
 * $2.6 billion at June 30") speaks of the latest such month up to the day it was said.
 */
export function datedByMonth(c: Reading, quote: string, saidOn: string): Reading {
  if (c.years.size > 0 || c.months.size > 0) return c;
  // "this year", "last year": the calendar year of the day it was said, or the one before.
  const relative = /\b(this|last)\s+year\b/i.exec(quote);
  // (Not when other periods are named beside it: "from 412 in April last year to 19 last month".)
  if (relative && !/\b(?:next|previous)\s+year|\byears?\s+(?:ago|earlier|before)\b|\bmonths?\b/i.test(quote) && !new RegExp(`\\b(?:${MONTH_NAMES.join('|')})\\b`, 'i').test(quote)) {
    const year = Number(saidOn.slice(0, 4)) - (relative[1]!.toLowerCase() === 'last' ? 1 : 0);
    return { ...c, years: new Set([String(year)]) };
  }
  // Relative years and several months ("from April last year to last month") are left to the words.
  if (/\b(?:last|next|this|previous|past)\s+(?:year|month)\b/i.test(quote) || MONTH_NAMES.filter((m) => new RegExp(`\\b${m}\\b`, 'i').test(quote)).length > 1) return c;
  const named = new RegExp(`\\b(?:in|at|on|for|during|by|of)\\s+(?:the\\s+end\\s+of\\s+)?(${MONTH_NAMES.join('|')})\\b(?!\\s*,?\\s*(?:19|20)\\d\\d)`, 'i').exec(quote);
  if (!named) return c;
  const month = MONTH_NAMES.indexOf(named[1]!.toLowerCase()) + 1;
  const [y, m] = [Number(saidOn.slice(0, 4)), Number(saidOn.slice(5, 7))];
  const year = month <= m ? y : y - 1;
  return { ...c, years: new Set([String(year)]), months: new Set([`${year}-${String(month).padStart(2, '0')}`]) };
}

/**
 * Whether a figure is for a calendar year that had not ended when a claim in the past tense was made
 * ("net debt ended the year at $1.06 billion" in 2025's results, against "we ended the year with…" said in
 * February 2025): only its own calendar years, with no month or quarter named.
 */
export function unfinishedYear(e: Reading, date: string): boolean {
  if (e.months.size > 0 || (e.part !== null && e.part !== 'end') || e.years.size === 0) return false;
  return [...e.years].every((y) => /^\d{4}$/.test(y) && `${y}-12-01` > date);
}

/** Whether a figure's period ends after a date (YYYY-MM-DD): its latest month, else its latest calendar year. */
export function laterThan(e: Reading, date: string): boolean {
  const month = date.slice(0, 7);
  if ([...e.months].some((m) => m > month)) return true;
  const year = Number(date.slice(0, 4));
  // (A split year, "2025/26", runs at least to the end of March of its second year.)
  return [...e.years].some((y) => (/^\d{4}$/.test(y) && Number(y) > year) || (/^\d{4}\//.test(y) && `${Number(y.slice(0, 4)) + 1}-03-31` > date));
}

/** The latest year a figure is for ("2024/25" counts as 2025), or 0. */
export const latestYear = (e: Reading): number => Math.max(0, ...[...e.years].map((y) => (y.includes('/') ? Number(y.slice(0, 4)) + 1 : Number(y))));

/**
 * Whether a source published on `published` is too early to report a claimed figure for a whole year the claim
 * names ("more than 1.5 million passengers in 2025", against a figure that names no period, published in March
 * 2025): it was published before every year the claim names was over. (A split year, "2024/25", is over at the end
 * of March of its second year at the earliest.)
 */
export function beforeClaimedYear(c: Reading, e: Reading, published: string): boolean {
  if (c.years.size === 0 || c.months.size > 0 || (c.part !== null && c.part !== 'end') || e.years.size > 0 || e.months.size > 0) return false;
  return [...c.years].every((y) => (/^\d{4}$/.test(y) ? `${y}-12-31` : /^\d{4}\//.test(y) ? `${Number(y.slice(0, 4)) + 1}-03-31` : '') > published);
}

