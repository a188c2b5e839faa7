import { describe, expect, it } from 'vitest';
import { OUTCOMES, type Outcome } from '../method/outcomes.ts';
import { MIN_COUNT_WIDTH, RECORD_PLOT, VERDICT_ROW, recordLayout, scoreY, shortVersion, signed, spreadIndices, verdictLayout, type RecordReport } from './charts.ts';
import { verdictMatrix } from './scorecard.ts';

const claim = (i: number, claim_type: string, outcome: Outcome) => ({ claim_id: `clm_${i}`, claim_type, outcome, outcome_label: outcome });

describe('verdictLayout', () => {
  // 6 factual (3 true, 1 false, 2 pending), 3 promises (1 mixed, 2 unresolvable), no guidance, 1 prediction.
  const claims = [
    ...[0, 1, 2].map((i) => claim(i, 'factual', 'true')), claim(3, 'factual', 'false'), claim(4, 'factual', 'pending'), claim(5, 'factual', 'pending'),
    claim(6, 'promise', 'mixed'), claim(7, 'promise', 'unresolvable'), claim(8, 'promise', 'unresolvable'), claim(9, 'prediction', 'mostly_true'),
  ];
  const layout = verdictLayout(verdictMatrix(claims));

  it('draws a bar per claim type, empty types included, one row pitch apart', () => {
    expect(layout.rows.map((r) => [r.type, r.total])).toEqual([['factual', 6], ['promise', 3], ['guidance', 0], ['prediction', 1]]);
    expect(layout.rows.map((r) => r.barY)).toEqual([0, 1, 2, 3].map((i) => i * VERDICT_ROW.pitch + VERDICT_ROW.barTop));
    expect(layout.height).toBe(4 * VERDICT_ROW.pitch);
    expect(layout.rows[2]!.segments).toEqual([]);
  });

  it('gives each outcome with claims a segment in the method\'s order, widths on one scale (the longest bar is the full width)', () => {
    const [factual, promise, , prediction] = layout.rows;
    expect(factual!.segments.map((s) => [s.outcome, s.count])).toEqual([['true', 3], ['false', 1], ['pending', 2]]);
    expect(factual!.segments.map((s) => s.x)).toEqual([0, 50, 66.67]);
    expect(factual!.segments.map((s) => s.width)).toEqual([50, 16.67, 33.33]);
    const end = factual!.segments.at(-1)!;
    expect(end.x + end.width).toBeCloseTo(100, 1);
    // Three promises of six: half the width.
    const p = promise!.segments;
    expect(p.at(-1)!.x + p.at(-1)!.width).toBeCloseTo(50, 1);
    expect(prediction!.segments).toEqual([{ outcome: 'mostly_true', count: 1, x: 0, width: 16.67, cx: 8.33, showCount: true }]);
    // Each segment's count sits in its middle.
    for (const s of factual!.segments) expect(s.cx).toBeCloseTo(s.x + s.width / 2, 1);
  });

  it('writes no number inside a segment too narrow to hold it', () => {
    const many = [...Array.from({ length: 40 }, (_, i) => claim(i, 'factual', 'true')), claim(40, 'factual', 'false')];
    const [row] = verdictLayout(verdictMatrix(many)).rows;
    expect(row!.segments.map((s) => [s.outcome, s.showCount])).toEqual([['true', true], ['false', false]]);
    expect(row!.segments[1]!.width).toBeLessThan(MIN_COUNT_WIDTH);
  });

  it('draws nothing but empty rows for a report with no claims', () => {
    const l = verdictLayout(verdictMatrix([]));
    expect(l.rows.every((r) => r.total === 0 && r.segments.length === 0)).toBe(true);
  });

  it('counts every claim once', () => {
    const counted = layout.rows.flatMap((r) => r.segments).reduce((a, s) => a + s.count, 0);
    expect(counted).toBe(claims.length);
    expect(OUTCOMES.length).toBe(7);
  });
});

const report = (i: number, score: number, version: string, range: [number, number] = [score - 10, score + 8]): RecordReport => ({
  report_id: `rep_${i}`, path: `/reports/rep_${i}/`, generated_on: `2026-0${i + 1}-01`, method_version: version, review_status: 'machine-generated, unreviewed',
  headline: { score, interval_80: range },
});

describe('recordLayout', () => {
  it('places one point per report, oldest left, evenly spaced inside the plot, scores on a 0–100 scale', () => {
    const l = recordLayout([report(0, 40, '1.1.0+a'), report(1, 60, '1.1.0+a'), report(2, 80, '1.1.0+a')]);
    expect(l.points.map((p) => p.report_id)).toEqual(['rep_0', 'rep_1', 'rep_2']);
    const xs = l.points.map((p) => p.x);
    expect(xs[0]).toBeGreaterThan(RECORD_PLOT.left);
    expect(xs[2]).toBeLessThan(RECORD_PLOT.right);
    expect(xs[1]! - xs[0]!).toBeCloseTo(xs[2]! - xs[1]!, 1);
    expect(l.points.map((p) => p.y)).toEqual([scoreY(40), scoreY(60), scoreY(80)]);
    expect(scoreY(100)).toBe(RECORD_PLOT.top);
    expect(scoreY(0)).toBe(RECORD_PLOT.bottom);
    // The range runs from its low end (lower on the page) to its high end.
    for (const p of l.points) expect(p.yLow).toBeGreaterThan(p.y), expect(p.yHigh).toBeLessThan(p.y);
    expect(l.changes).toEqual([]);
    expect(l.links.map((k) => k.change)).toEqual([false, false]);
    expect(l.grid.map((g) => g.value)).toEqual([0, 25, 50, 75, 100]);
  });

  it('marks each method change between consecutive reports, halfway between them, with the score\'s move', () => {
    const l = recordLayout([report(0, 61.5, '1.1.0+a'), report(1, 55, '1.2.0+b'), report(2, 57.25, '1.2.0+b'), report(3, 57.25, '1.2.0+c')]);
    expect(l.links.map((k) => k.change)).toEqual([true, false, true]);
    expect(l.changes.map((c) => [c.n, c.from.report_id, c.to.report_id, c.delta])).toEqual([[1, 'rep_0', 'rep_1', -6.5], [2, 'rep_2', 'rep_3', 0]]);
    expect(l.changes[0]!.x).toBeCloseTo((l.points[0]!.x + l.points[1]!.x) / 2, 1);
  });

  it('draws a lone report in the middle, and keeps scores and ranges outside 0–100 on the scale', () => {
    const l = recordLayout([report(0, 104, '1.2.0', [-5, 120])]);
    expect(l.points[0]!.x).toBeCloseTo((RECORD_PLOT.left + RECORD_PLOT.right) / 2, 1);
    expect(l.points[0]!).toMatchObject({ y: RECORD_PLOT.top, yHigh: RECORD_PLOT.top, yLow: RECORD_PLOT.bottom });
    expect(l.links).toEqual([]);
  });

  it('writes labels under a few points spread from first to last when there are many', () => {
    const l = recordLayout(Array.from({ length: 12 }, (_, i) => report(i % 9, 50, '1.2.0')));
    const phone = l.points.flatMap((p, i) => (p.labelled.phone ? [i] : []));
    const desktop = l.points.flatMap((p, i) => (p.labelled.desktop ? [i] : []));
    expect(phone).toEqual([0, 4, 7, 11]);
    expect(desktop).toHaveLength(9);
    expect(desktop[0]).toBe(0);
    expect(desktop.at(-1)).toBe(11);
    expect(recordLayout([report(0, 1, 'x'), report(1, 2, 'x')]).points.every((p) => p.labelled.phone && p.labelled.desktop)).toBe(true);
  });
});

describe('helpers', () => {
  it('spreadIndices, shortVersion, signed', () => {
    expect([...spreadIndices(3, 4)]).toEqual([0, 1, 2]);
    expect([...spreadIndices(10, 1)]).toEqual([9]);
    expect(shortVersion('1.2.0+0a1b2c3d4e5f')).toBe('1.2.0');
    expect([signed(3.5), signed(-6.5), signed(0)]).toEqual(['+3.5', '\u22126.5', '0']);
  });
});
