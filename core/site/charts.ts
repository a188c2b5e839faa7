import type { Outcome } from '../method/outcomes.ts';
import type { VerdictMatrix } from './scorecard.ts';

/**
 * Geometry of the site's two charts, drawn at build time as inline SVG with
 * no script: the verdict counts of a report by claim type, and a subject's
 * headline score over its reports. Pure functions, unit-tested beside.
 *
 * The SVGs have no viewBox: horizontal positions are percentages of the
 * chart's width and vertical ones pixels, so a chart fills a phone or a
 * desktop column while its text keeps the page's size instead of shrinking
 * with the drawing. Percentages are rounded to 0.01 so that the markup is
 * stable from one build to the next.
 */

const pct = (v: number) => Math.round(v * 100) / 100;
const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

// ---- Verdicts by claim type -------------------------------------------------

/** Row geometry in pixels: a label line, then the bar. */
export const VERDICT_ROW = { pitch: 50, label: 15, barTop: 22, bar: 22 } as const;
/**
 * A segment narrower than this share of the chart carries no number inside
 * it: at the narrowest column the site has (a 390 px phone, about 350 px of
 * chart) 6% is 21 px, room for two digits. Its count is in the legend and the
 * table all the same.
 */
export const MIN_COUNT_WIDTH = 6;

export type VerdictSegment = { outcome: Outcome; count: number; x: number; width: number; cx: number; showCount: boolean };
export type VerdictBar = { type: string; label: string; total: number; labelY: number; barY: number; textY: number; segments: VerdictSegment[] };
export type VerdictLayout = { height: number; barHeight: number; rows: VerdictBar[] };

/**
 * One bar per claim type, one segment per outcome with claims (in the
 * matrix's order: settled outcomes first), all bars on one scale: the
 * longest bar (the type with most claims) spans the full width.
 */
export function verdictLayout(m: VerdictMatrix): VerdictLayout {
  const longest = Math.max(1, ...m.rows.map((r) => r.total));
  const rows = m.rows.map((r, i) => {
    const top = i * VERDICT_ROW.pitch;
    let at = 0;
    const segments = r.counts.filter((c) => c.count > 0).map((c) => {
      const width = (c.count / longest) * 100;
      const s = { outcome: c.outcome, count: c.count, x: pct(at), width: pct(width), cx: pct(at + width / 2), showCount: width >= MIN_COUNT_WIDTH };
      at += width;
      return s;
    });
    return {
      type: r.type, label: r.label, total: r.total, labelY: top + VERDICT_ROW.label, barY: top + VERDICT_ROW.barTop,
      textY: top + VERDICT_ROW.barTop + VERDICT_ROW.bar / 2, segments,
    };
  });
  return { height: m.rows.length * VERDICT_ROW.pitch, barHeight: VERDICT_ROW.bar, rows };
}

// ---- A subject's score over time ---------------------------------------------

export type RecordReport = {
  report_id: string; path: string; generated_on: string; method_version: string; review_status: string;
  headline: { score: number; interval_80: [number, number] };
};

/** Plot area: y in pixels for scores 100 (top) to 0 (bottom); x in percent. */
export const RECORD_PLOT = { top: 34, bottom: 194, left: 9, right: 97, dateY: 214, versionY: 230, height: 240 } as const;
/** How many points carry their date, version and score at most: the columns of a phone and of a desktop. */
export const RECORD_LABELS = { phone: 4, desktop: 9 } as const;

export type RecordPoint = RecordReport & {
  x: number; y: number; yLow: number; yHigh: number;
  /** Whether its date, version and score are written beside it on a narrow screen, and on a wide one (always in the table). */
  labelled: { phone: boolean; desktop: boolean };
};
export type MethodChange = {
  n: number; x: number; from: RecordReport; to: RecordReport;
  /** The headline's move across the change, in points (rounded to 0.1). */
  delta: number;
};
export type RecordLayout = {
  height: number; plot: typeof RECORD_PLOT;
  grid: { value: number; y: number }[];
  points: RecordPoint[];
  /** Lines from each point to the next; `change` when the method version differs between the two. */
  links: { x1: number; y1: number; x2: number; y2: number; change: boolean }[];
  changes: MethodChange[];
};

export const scoreY = (score: number) => RECORD_PLOT.top + ((100 - clamp(score, 0, 100)) / 100) * (RECORD_PLOT.bottom - RECORD_PLOT.top);

/** `k` indices spread evenly over 0..n-1, the first and the last always among them. */
export function spreadIndices(n: number, k: number): Set<number> {
  if (n <= k) return new Set(Array.from({ length: n }, (_, i) => i));
  if (k <= 1) return new Set([n - 1]);
  return new Set(Array.from({ length: k }, (_, j) => Math.round((j * (n - 1)) / (k - 1))));
}

/** The semver part of a method version (`1.2.0+abc123` → `1.2.0`), for labels; the table gives it whole. */
export const shortVersion = (v: string) => v.split('+')[0]!;

/**
 * The subject's reports on its whole record, oldest first, one point each,
 * evenly spaced (a report is an event, not a time series sampled at regular
 * dates; the dates are written under the points). A method change is marked
 * between two consecutive reports whose method versions differ, with the
 * headline's move across it.
 */
export function recordLayout(oldestFirst: readonly RecordReport[]): RecordLayout {
  const n = oldestFirst.length;
  const P = RECORD_PLOT;
  const step = (P.right - P.left) / Math.max(1, n);
  const phone = spreadIndices(n, RECORD_LABELS.phone);
  const desktop = spreadIndices(n, RECORD_LABELS.desktop);
  const points: RecordPoint[] = oldestFirst.map((r, i) => ({
    ...r,
    x: pct(P.left + step * (i + 0.5)), y: pct(scoreY(r.headline.score)),
    yLow: pct(scoreY(r.headline.interval_80[0])), yHigh: pct(scoreY(r.headline.interval_80[1])),
    labelled: { phone: phone.has(i), desktop: desktop.has(i) },
  }));
  const links: RecordLayout['links'] = [];
  const changes: MethodChange[] = [];
  for (let i = 1; i < n; i++) {
    const [a, b] = [points[i - 1]!, points[i]!];
    const change = a.method_version !== b.method_version;
    links.push({ x1: a.x, y1: a.y, x2: b.x, y2: b.y, change });
    if (change) {
      changes.push({
        n: changes.length + 1, x: pct((a.x + b.x) / 2), from: oldestFirst[i - 1]!, to: oldestFirst[i]!,
        delta: Math.round((b.headline.score - a.headline.score) * 10) / 10,
      });
    }
  }
  const grid = [0, 25, 50, 75, 100].map((value) => ({ value, y: pct(scoreY(value)) }));
  return { height: P.height, plot: P, grid, points, links, changes };
}

/** "+3.5", "−6" (a true minus sign), "0". */
export const signed = (d: number) => (d > 0 ? `+${d}` : d < 0 ? `\u2212${Math.abs(d)}` : '0');
