import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  JUDGE_CONFUSION_MEASURED,
  MIN_VERDICTS_FOR_TYPE_CONFUSION,
  OVERALL_JUDGE_ERROR,
  goldSharesOf,
  judgeError,
  judgeErrorFromCounts,
  nodesForVerdicts,
  type ConfusionCounts,
  type ConfusionNode,
  type JudgeError,
} from './judge-error.ts';
import { CLAIM_TYPES } from './outcomes.ts';

const zeros = (): number[][] => Array.from({ length: 5 }, () => [0, 0, 0, 0, 0]);
const CREDIT = [1, 0.75, 0.5, 0.25, 0];

/** Judges that read outcome i as its mirror 4 − i (credit c as 1 − c) `wrong` times in every `of`. */
function mirror(wrong: number, of: number): ConfusionCounts {
  const m = zeros();
  for (let i = 0; i < 5; i++) {
    m[i]![i] = of - wrong;
    m[i]![4 - i]! += wrong;
  }
  return m;
}

describe('the judges measured confusion', () => {
  it('pools every type, and the types add up to it', () => {
    const { overall, by_type } = JUDGE_CONFUSION_MEASURED;
    for (let g = 0; g < 5; g++) {
      for (let e = 0; e < 5; e++) expect(CLAIM_TYPES.reduce((s, t) => s + by_type[t].counts[g]![e]!, 0)).toBe(overall.counts[g]![e]);
    }
    expect(CLAIM_TYPES.reduce((s, t) => s + by_type[t].unsettled, 0)).toBe(overall.unsettled);
  });

  it('puts 167 of 520 resolved verdicts on unseen text on the wrong side, as npm run eval -- --confusion counted them', () => {
    expect(OVERALL_JUDGE_ERROR.wrongSide).toEqual({ wrong: 167, resolved: 520, rate: 167 / 520 });
  });

  it(`uses a type's own counts from ${MIN_VERDICTS_FOR_TYPE_CONFUSION} verdicts, and the pooled counts below`, () => {
    const own: string[] = [];
    for (const t of CLAIM_TYPES) {
      const m = JUDGE_CONFUSION_MEASURED.by_type[t];
      const n = m.counts.flat().reduce((s, c) => s + c, 0) + m.unsettled;
      if (n >= MIN_VERDICTS_FOR_TYPE_CONFUSION) {
        own.push(t);
        expect(judgeError(t).basis).toBe('type');
        expect(judgeError(t).measured).toBe(m);
      } else {
        expect(judgeError(t)).toBe(OVERALL_JUDGE_ERROR);
      }
    }
    // On 2026-11-25 factual claims had 301 verdicts, 102 on the wrong side, and
    // promises 120, 39 on the wrong side; guidance and predictions fewer than 100.
    expect(own).toEqual(['factual', 'promise']);
    expect(judgeError('factual').wrongSide).toEqual({ wrong: 102, resolved: 301, rate: 102 / 301 });
    expect(judgeError('promise').wrongSide).toEqual({ wrong: 39, resolved: 120, rate: 39 / 120 });
  });
});

describe('judgeErrorFromCounts', () => {
  it('fits intercept e and slope 1 − 2e to judges that mirror a share e of verdicts', () => {
    const j = judgeErrorFromCounts({ counts: mirror(20, 100), unsettled: 0 });
    expect(j.line.intercept).toBeCloseTo(0.2, 12);
    expect(j.line.slope).toBeCloseTo(0.6, 12);
    // Mixed mirrored is still mixed: 80 of 500 verdicts change side.
    expect(j.wrongSide).toEqual({ wrong: 80, resolved: 500, rate: 0.16 });
  });

  it('fits the line of the row means by least squares, weighting each row by its count', () => {
    const counts = zeros();
    counts[0]![0] = 30; // true read as true
    counts[0]![2] = 10; // true read as mixed: row mean 0.875
    counts[4]![4] = 20; // false read as false
    counts[4]![0] = 5; // false read as true: row mean 0.2
    counts[2]![2] = 10; // mixed read as mixed: row mean 0.5
    const j = judgeErrorFromCounts({ counts, unsettled: 2 });
    // Weighted least squares through (1, 0.875)×40, (0.5, 0.5)×10, (0, 0.2)×25.
    const pts = [[1, 0.875, 40], [0.5, 0.5, 10], [0, 0.2, 25]] as const;
    const n = 75;
    const mx = pts.reduce((s, [x, , w]) => s + w * x, 0) / n;
    const my = pts.reduce((s, [, y, w]) => s + w * y, 0) / n;
    const slope = pts.reduce((s, [x, y, w]) => s + w * (x - mx) * (y - my), 0) / pts.reduce((s, [x, , w]) => s + w * (x - mx) ** 2, 0);
    expect(j.line.slope).toBeCloseTo(slope, 12);
    expect(j.line.intercept).toBeCloseTo(my - slope * mx, 12);
    expect(j.wrongSide).toEqual({ wrong: 17, resolved: 77, rate: 17 / 77 });
  });

  it('gives perfect judges no uncertainty and an exact line', () => {
    const perfect = zeros();
    for (let i = 0; i < 5; i++) perfect[i]![i] = 20;
    const j = judgeErrorFromCounts({ counts: perfect, unsettled: 0 });
    expect(j.line.intercept).toBeCloseTo(0, 12);
    expect(j.line.slope).toBeCloseTo(1, 12);
    expect(j.line.se[0]).toBeCloseTo(0, 12);
    expect(j.nodes.every((x) => Math.abs(x.slope - 1) < 1e-9)).toBe(true);
  });

  it('spreads nine nodes whose weighted mean is the line and whose weighted covariance is the fit\'s', () => {
    const { nodes, line } = OVERALL_JUDGE_ERROR;
    expect(nodes).toHaveLength(9);
    const sum = (f: (x: (typeof nodes)[number]) => number) => nodes.reduce((s, x) => s + x.weight * f(x), 0);
    expect(sum(() => 1)).toBeCloseTo(1, 12);
    expect(sum((x) => x.intercept)).toBeCloseTo(line.intercept, 12);
    expect(sum((x) => x.slope)).toBeCloseTo(line.slope, 12);
    expect(sum((x) => (x.intercept - line.intercept) ** 2)).toBeCloseTo(line.se[0] ** 2, 12);
    expect(sum((x) => (x.slope - line.slope) ** 2)).toBeCloseTo(line.se[1] ** 2, 12);
    expect(sum((x) => (x.intercept - line.intercept) * (x.slope - line.slope))).toBeCloseTo(line.covariance, 12);
  });

  it('estimates the uncertainty of the line about as a resampling of the verdicts does', () => {
    // The bootstrap by hand: the variance of the fitted slope over resamples,
    // drawn with a fixed linear congruential stream so the test is repeatable.
    const pairs: [number, number][] = [];
    const { counts } = JUDGE_CONFUSION_MEASURED.overall;
    counts.forEach((row, g) => row.forEach((c, e) => pairs.push(...Array.from({ length: c }, (): [number, number] => [CREDIT[g]!, CREDIT[e]!]))));
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const slopes: number[] = [];
    for (let b = 0; b < 400; b++) {
      const s = Array.from({ length: pairs.length }, () => pairs[Math.floor(next() * pairs.length)]!);
      const mx = s.reduce((a, [x]) => a + x, 0) / s.length;
      const my = s.reduce((a, [, y]) => a + y, 0) / s.length;
      slopes.push(s.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / s.reduce((a, [x]) => a + (x - mx) ** 2, 0));
    }
    const mean = slopes.reduce((a, b) => a + b, 0) / slopes.length;
    const sd = Math.sqrt(slopes.reduce((a, b) => a + (b - mean) ** 2, 0) / (slopes.length - 1));
    expect(sd / OVERALL_JUDGE_ERROR.line.se[1]).toBeGreaterThan(0.8);
    expect(sd / OVERALL_JUDGE_ERROR.line.se[1]).toBeLessThan(1.25);
  });

  it('refuses counts that are not five rows of five whole numbers, or too few to fit a line', () => {
    expect(() => judgeErrorFromCounts({ counts: [[1, 2]], unsettled: 0 })).toThrow(RangeError);
    expect(() => judgeErrorFromCounts({ counts: mirror(10, 100).map((r) => r.map((c) => c + 0.5)), unsettled: 0 })).toThrow(RangeError);
    const one = zeros();
    one[0]![0] = 5;
    expect(() => judgeErrorFromCounts({ counts: one, unsettled: 0 })).toThrow(RangeError);
  });

  it('refuses judges so uncertain that a node leaves [0, 1]', () => {
    const noisy = zeros();
    noisy[0]![4] = 2;
    noisy[0]![0] = 1;
    noisy[4]![0] = 2;
    noisy[4]![4] = 1;
    expect(() => judgeErrorFromCounts({ counts: noisy, unsettled: 0 })).toThrow(/too uncertain/);
  });
});

/** The verdicts judges with this confusion give, on average, to `n` claims whose gold outcomes have shares q. */
const expectedVerdicts = (je: JudgeError, q: readonly number[], n: number) =>
  [0, 1, 2, 3, 4].map((e) => n * q.reduce((s, qg, g) => s + qg * je.rows[g]!.chances[e]!, 0));
/** The nodes' weighted variance of intercept + slope × p. */
const varianceAt = (nodes: readonly ConfusionNode[], p: number) => {
  const mean = nodes.reduce((s, x) => s + x.weight * (x.intercept + x.slope * p), 0);
  return nodes.reduce((s, x) => s + x.weight * (x.intercept + x.slope * p - mean) ** 2, 0);
};

describe('a subject\'s own nodes (nodesForVerdicts)', () => {
  const factual = judgeError('factual');
  const CREDITS = [1, 0.75, 0.5, 0.25, 0];

  it('finds the gold shares the verdicts came from', () => {
    for (const q of [[0.3, 0, 0, 0, 0.7], [0.1, 0.2, 0.3, 0.3, 0.1]]) {
      const got = goldSharesOf(factual, expectedVerdicts(factual, q, 1000));
      got.forEach((x, g) => expect(x).toBeCloseTo(q[g]!, 2));
    }
  });

  it('keeps the type\'s line, and gives true/false verdicts the uncertainty of the end rows', () => {
    const nodes = nodesForVerdicts(factual, expectedVerdicts(factual, [0.3, 0, 0, 0, 0.7], 1000));
    expect(nodes.reduce((s, x) => s + x.weight * x.intercept, 0)).toBeCloseTo(factual.line.intercept, 12);
    expect(nodes.reduce((s, x) => s + x.weight * x.slope, 0)).toBeCloseTo(factual.line.slope, 12);
    const [v0, v4] = [factual.rows[0]!.variance, factual.rows[4]!.variance];
    for (const p of [0, 0.3, 1]) expect(varianceAt(nodes, p) / (p * p * v0 + (1 - p) ** 2 * v4)).toBeCloseTo(1, 2);
    // Factual claims' type nodes are their end rows' too.
    for (const p of [0, 0.3, 1]) expect(varianceAt(nodes, p) / varianceAt(factual.nodes, p)).toBeCloseTo(1, 2);
  });

  it('pins the line down better for graded verdicts: at their mean gold credit, the sum of q² × each row\'s variance', () => {
    const q = [0.1, 0.2, 0.3, 0.3, 0.1];
    const nodes = nodesForVerdicts(factual, expectedVerdicts(factual, q, 1000));
    const p = q.reduce((s, x, g) => s + x * CREDITS[g]!, 0);
    const rows = q.reduce((s, x, g) => s + x * x * factual.rows[g]!.variance, 0);
    expect(varianceAt(nodes, p) / rows).toBeCloseTo(1, 2);
    expect(varianceAt(nodes, p)).toBeLessThan(0.8 * varianceAt(factual.nodes, p));
  });

  it('is never less sure than the type\'s nodes, and uses them without machine verdicts', () => {
    expect(nodesForVerdicts(factual, [0, 0, 0, 0, 0])).toBe(factual.nodes);
    for (const verdicts of [[0, 0, 20, 0, 0], [0, 20, 0, 0, 0], [3, 1, 9, 1, 2], [12, 0, 0, 0, 30]]) {
      const nodes = nodesForVerdicts(factual, verdicts);
      for (const p of [0, 0.25, 0.5, 0.75, 1]) expect(varianceAt(nodes, p)).toBeLessThanOrEqual(varianceAt(factual.nodes, p) * (1 + 1e-12));
    }
  });

  it('gives the same nodes to the same mix of verdicts however many there are', () => {
    const a = nodesForVerdicts(factual, [3, 1, 9, 1, 2]);
    const b = nodesForVerdicts(factual, [30, 10, 90, 10, 20]);
    a.forEach((x, i) => {
      expect(b[i]!.intercept).toBeCloseTo(x.intercept, 9);
      expect(b[i]!.slope).toBeCloseTo(x.slope, 9);
    });
  });
});

describe('content/methodology.md states the judge error the code uses', () => {
  // Line breaks in the text are spaces to a reader.
  const text = readFileSync(new URL('../../content/methodology.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

  it('prints the pooled confusion row by row, and the line with its standard errors', () => {
    const names = ['`true`', '`mostly_true`', '`mixed`', '`mostly_false`', '`false`'];
    JUDGE_CONFUSION_MEASURED.overall.counts.forEach((row, g) => {
      expect(text).toContain(`| ${names[g]} | ${row.join(' | ')} |`);
    });
    const { line, wrongSide } = OVERALL_JUDGE_ERROR;
    expect(text).toContain(`${wrongSide.wrong} of ${wrongSide.resolved}`);
    expect(text).toContain(`${line.intercept.toFixed(3)} + ${line.slope.toFixed(3)} × p`);
    expect(text).toContain(`standard errors ${line.se[0].toFixed(3)} and ${line.se[1].toFixed(3)}`);
    expect(text).toContain(`at least ${MIN_VERDICTS_FOR_TYPE_CONFUSION} resolved verdicts`);
  });
});
