import { direction } from './quantities.ts';
import { cellAt, isTableRow } from './table-figures.ts';
import { periodYears, partOfYear } from './periods.ts';
import { claimTerms, overlap } from './judge-text.ts';
import type { Finding, JudgeInput, UsableItem } from './judge-types.ts';

// Claims that a figure moved the same way in every period of a run ("food bank use has gone up every year
// since 2019", "the economy grew in each of the first three quarters of 2024", "unemployment will rise every
// quarter this year"), read against a table that gives the figure period by period: true when every step of
// the run goes the claimed way, false when one does not. Fewer than two steps settle nothing.

/** "every year", "each quarter", "in each of the first three quarters". */
export const SERIES = /\b(every|each)\s+(?:single\s+)?(year|quarter|month|week|season)\b|\bin each of the\b/i;

type Point = { year: number; part: number; value: number; change: boolean; row: string };

const PART_ORDER: Record<string, number> = { q1: 1, q2: 2, h1: 2, q3: 3, q4: 4, h2: 4 };

/** The run's bounds: from a base year ("since 2019"), within a year ("of 2024", "this year"), the first N quarters. */
function bounds(quote: string, saidOn: string): { from: number | null; year: number | null; firstParts: number | null } {
  const since = /\bsince\s+((?:19|20)\d\d)\b/i.exec(quote);
  const inYear = /\b(?:of|in|during)\s+((?:19|20)\d\d)\b/i.exec(quote.replace(/\bsince\s+(?:19|20)\d\d\b/gi, ''));
  const thisYear = /\bthis year\b/i.test(quote) ? Number(saidOn.slice(0, 4)) : null;
  const first = /\bfirst\s+(two|three|2|3)\s+quarters\b/i.exec(quote);
  return {
    from: since ? Number(since[1]) : null,
    year: inYear ? Number(inYear[1]) : thisYear,
    firstParts: first ? ({ two: 2, three: 3, '2': 2, '3': 3 } as Record<string, number>)[first[1]!.toLowerCase()]! : null,
  };
}

/** The column of a table whose heading shares most of the claim's words, and whether it holds changes. */
function columnOf(header: string, input: JudgeInput): { j: number; change: boolean } | null {
  const ct = claimTerms(input.claim);
  const heads = header.split('|');
  let best = { j: -1, score: 0 };
  for (let j = 1; j < heads.length; j++) {
    const s = overlap(ct, heads[j]!).score;
    if (s > best.score) best = { j, score: s };
  }
  if (best.j < 0) return null;
  return { j: best.j, change: /\b(?:change|growth|on (?:the )?previous|increase|decrease)\b/i.test(heads[best.j]!) };
}

function pointsOf(item: UsableItem, input: JudgeInput): Point[] {
  if (!item.table_header) return [];
  const col = columnOf(item.table_header, input);
  if (!col) return [];
  const out: Point[] = [];
  for (const row of item.sentences.filter(isTableRow)) {
    const cells = row.split('|');
    const label = cells[0] ?? '';
    const years = [...periodYears(label)];
    if (years.length !== 1) continue;
    const year = Number(years[0]!.slice(0, 4));
    const part = PART_ORDER[partOfYear(label) ?? ''] ?? 0;
    // Only the chosen column's cell: read it under its heading, nothing else in the row.
    const reading = cellAt(row, item.table_header, col.j);
    if (!reading) continue;
    out.push({ year, part, value: reading.value, change: col.change || reading.kind === 'change', row });
  }
  return out;
}

/** The series judge: null when the claim is not a run of periods or no table gives one. */
export function seriesFinding(input: JudgeInput): Finding | null {
  const { claim } = input;
  if (!SERIES.test(claim.quote)) return null;
  const dir = direction(claim.quote.replace(/\b(?:every|each)\b/gi, ''));
  if (dir === 0) return null;
  const negated = /\b(?:not|never|no)\b|n['’]t\b/i.test(claim.quote);
  const want = negated ? -dir : dir;
  const b = bounds(claim.quote, claim.said_on);
  for (const item of input.items) {
    if (!item.independent_of_subject) continue;
    let points = pointsOf(item, input)
      .filter((p) => (b.from === null || p.year >= b.from) && (b.year === null || p.year === b.year) && (b.firstParts === null || (p.part > 0 && p.part <= b.firstParts)))
      .sort((x, y) => x.year - y.year || x.part - y.part);
    // One point a period (a table may repeat a period in another section).
    points = points.filter((p, i) => i === 0 || p.year !== points[i - 1]!.year || p.part !== points[i - 1]!.part);
    const steps = points[0]?.change ? points.map((p) => ({ to: p, moved: Math.sign(p.value) })) : points.slice(1).map((p, i) => ({ to: p, moved: Math.sign(p.value - points[i]!.value) }));
    if (steps.length < 2) continue;
    const broken = steps.find((s) => s.moved !== want);
    const period = (p: Point) => `${p.year}${p.part ? ` (part ${p.part})` : ''}`;
    const basis = [{ item, sentence: (broken ?? steps.at(-1)!).to.row }];
    if (broken) {
      return { outcome: 'false', reason: `${item.publisher} (${item.published}) gives the figure period by period: it did not ${want > 0 ? 'rise' : 'fall'} in ${period(broken.to)}, so the run the claim describes was broken.`, basis };
    }
    return { outcome: 'true', reason: `${item.publisher} (${item.published}) gives the figure period by period: it ${want > 0 ? 'rose' : 'fell'} in each of the ${steps.length} periods the claim covers.`, basis };
  }
  return null;
}
