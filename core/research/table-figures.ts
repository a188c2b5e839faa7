import { contentStems, yearsIn } from './judge-text.ts';
import { PER_MANY, readQuantities, type Reading } from './quantities.ts';

// Figures read from tables (a row under its column headings) and changes a source gives only as two
// levels: what the figures judge reads besides a sentence's own quantities (quantities.ts).

/** Table cells read as figures: a row with its column headings ("Severnmoor Water | £463 | £541 | +16.8%"). */
export function readTableRow(row: string, header: string): Reading[] {
  const cells = row.split('|');
  const heads = header.split('|');
  const out: Reading[] = [];
  let offset = 0;
  cells.forEach((cell, j) => {
    if (j > 0 && heads[j] !== undefined) {
      // A cell measures what its heading says, in a table whose other headings say what it is about.
      // A heading of one word ("Change", "%") is about the column before it ("Average bill 2026-27 | Change").
      const own = columnHeading(heads, j);
      const label = `${own} ${cells[0] ?? ''} ${heads[0] ?? ''}`;
      // A heading or row label that states a scale ("Revenue ($ million)", "(£m)", "(000s)") applies to the bare cells under it.
      const money = /[£$€]/.test(label);
      const scale = /\b(billions?|bn)\b/i.test(label) ? 1e9 : /\b(millions?|mn|m)\b\)?/i.test(label.replace(/[£$€]\s?/g, '')) && /[£$€(]/.test(label) ? 1e6 : /\b(thousands?|000s)\b/i.test(label) ? 1e3 : 1;
      for (const r of readQuantities(cell, label)) {
        const bare = !/[£$€%]|\b(million|billion|thousand|bn|m|k)\b/i.test(r.text);
        const scaled = bare && scale !== 1 ? { value: r.value * scale, low: r.low * scale, high: r.high * scale } : {};
        const unit = bare && money && r.unit === 'count' ? { unit: 'money' as const } : {};
        // What a cell counts is what its own heading names ("Smart meters installed").
        const counted = new Set([...contentStems(own)].filter((w) => !/^(?:million|billion|thousand|total|number|chang|per|cent|percent|rat|share)$/.test(w)));
        out.push({ ...r, ...scaled, ...unit, counted, clause: contentStems(own), rate: PER_MANY.test(own), base: undefined, at: r.at + offset });
      }
    }
    offset += cell.length + 1;
  });
  return out;
}

/** What column `j` measures: its heading, with the column before it when it says only that it is a change. */
export function columnHeading(heads: readonly string[], j: number): string {
  return ofColumnBefore(heads[j]!) && j > 1 ? `${heads[j]} ${heads[j - 1]}` : heads[j]!;
}

/** The figure of one cell of a row (column `j`), read under its heading; nothing else in the row. */
export function cellAt(row: string, header: string, j: number): Reading | null {
  const cells = row.split('|');
  const offset = cells.slice(0, j).join('|').length + 1;
  return readTableRow(row, header).find((r) => r.at >= offset && r.at < offset + (cells[j]?.length ?? 0)) ?? null;
}

/** A heading that says only that its column is a change ("Change", "Change on 2023 (%)", "% change"): of the column before. */
export function ofColumnBefore(heading: string): boolean {
  return /\bchange\b/i.test(heading) && [...contentStems(heading.replace(/\b(?:change|on|from|since|year|(?:19|20)\d\d(?:[/-]\d{2,4})?)\b|[%()]/gi, ' '))].length === 0;
}

/** The year written just after a figure ("15.6 million in 2023"), else null. */
function ownYear(sentence: string, r: Reading): string | null {
  const m = /^\s*(?:[\p{L}-]+\s+){0,3}?(?:in|during|for)\s+((?:19|20)\d\d)(?![\d/–-])/iu.exec(sentence.slice(r.at + r.text.length));
  return m ? m[1]! : null;
}

/** The base year of a change the claim dates "since 2019" (or "compared with 2019"), else null. */
export function sinceYear(quote: string): string | null {
  return /\b(?:since|compared with|from)\s+((?:19|20)\d\d)(?![\d/–-])/i.exec(quote)?.[1] ?? null;
}

export const isTableRow = (s: string) => (s.match(/\|/g) ?? []).length >= 1;

/**
 * Changes a source states only as two levels ("61 incidents in 2023, down from
 * 92 in 2022"; "rose from 967 to 1,102"; a table row with a column per year):
 * the relative change in percent, so that a claimed "cut by a third" can be
 * held to it. For a table, each year against the year before; the change is
 * dated to the later year.
 */
export function derivedChanges(sentence: string, header?: string, since?: string | null): Reading[] {
  const levels = (header && isTableRow(sentence) ? readTableRow(sentence, header) : readQuantities(sentence))
    .filter((r) => r.kind === 'level' && r.threshold === null && !r.target && !r.forecast && !r.denominator && r.low === r.high && r.unit !== 'percent' && r.unit !== 'points' && r.value !== 0);
  const out: Reading[] = [];
  const change = (from: Reading, to: Reading, years: Set<string>): Reading => {
    const v = (100 * (to.value - from.value)) / Math.abs(from.value);
    return { ...to, text: `${from.text} → ${to.text}`, value: v, low: v, high: v, unit: 'percent', kind: 'change', base: false, years, head: to.head ?? from.head };
  };
  if (header && isTableRow(sentence)) {
    const dated = levels.filter((r) => r.years.size === 1).map((r) => ({ r, y: Number([...r.years][0]) }));
    for (const a of dated) for (const b of dated) if ((b.y === a.y + 1 || (since && a.y === Number(since) && b.y > a.y)) && a.r.unit === b.r.unit) out.push(change(a.r, b.r, b.r.years));
    return out;
  }
  if (since) {
    // A change "since 2019" against levels dated in prose ("17.2 million in 2024, up from 15.6 million in 2023
    // and 12.0 million in 2019"): the base year's level against each later one, dated to the later year.
    const dated = levels.map((r) => ({ r, y: ownYear(sentence, r) })).filter((x): x is { r: Reading; y: string } => x.y !== null);
    const base = dated.find((x) => x.y === since);
    if (base) for (const x of dated) if (x !== base && x.y > since && x.r.unit === base.r.unit) out.push(change(base.r, x.r, new Set([x.y])));
  }
  for (let i = 0; i + 1 < levels.length; i++) {
    const a = levels[i]!;
    const b = levels[i + 1]!;
    if (a.unit !== b.unit) continue;
    const between = sentence.slice(a.at, b.at);
    // "from A to B": A came first.
    if (/\bfrom\s+[£$€]?\s?$/i.test(sentence.slice(0, a.at)) && /^\S+\s+(?:[\p{L}\s]{0,30})?\bto\s+[£$€]?\s?$/iu.test(between)) out.push(change(a, b, b.years.size ? b.years : a.years));
    // "B …, down from A" / "B, up from A": B is the newer.
    else if (/\b(?:down|up|rising|falling|increasing|decreasing|compared with|against)\s+from\s+[£$€]?\s?$|\b(?:down|up)\s+from\s+[£$€]?\s?$|\bfrom\s+[£$€]?\s?$/i.test(sentence.slice(0, b.at)) && /\b(?:down|up|compared with)\b/i.test(between)) {
      const years = new Set([...yearsIn(sentence.slice(a.at, b.at))]);
      out.push(change(b, a, years.size ? years : a.years));
    } else if (/\b(?:compared\s+(?:with|to)|against|versus|as\s+against)\s+[£$€]?\s?$/i.test(sentence.slice(0, b.at))) {
      // "52 cyclists were killed in 2024, compared with 65 in 2023": B is the older, when both are dated and B's
      // year is the earlier (compared with another body's figure, it is no change).
      const newer = [...yearsIn(sentence.slice(a.at, b.at))];
      const older = [...yearsIn(sentence.slice(b.at + b.text.length, levels[i + 2]?.at ?? b.at + b.text.length + 40))];
      if (newer.length === 1 && older.length === 1 && Number(older[0]) < Number(newer[0])) out.push(change(b, a, new Set(newer)));
    }
  }
  return out;
}
