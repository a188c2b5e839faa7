import { OUTCOMES, RESOLVED_OUTCOMES, isResolved, type Outcome } from '../method/outcomes.ts';

/**
 * Agreement of machine outcomes with reference outcomes (published by others,
 * or given by reviewers), as content/methodology.md ("Measurement") defines it:
 *
 * - n: claims in the set (for labels: labels);
 * - reference-resolved: the reference outcome is one of the five resolved ones;
 * - compared: reference-resolved and the machine resolved the claim too;
 * - coverage = compared / reference-resolved: the share of the claims the
 *   reference settles that the machine settled as well;
 * - agreement = claims whose machine outcome equals the reference outcome /
 *   compared;
 * - adjacent agreement = claims whose machine outcome is at most one step from
 *   the reference outcome on true, mostly_true, mixed, mostly_false, false /
 *   compared;
 * - the confusion matrix counts every claim by reference outcome (rows) and
 *   machine outcome (columns), unresolved ones included;
 * - forecast sets: the Brier score of the published probabilities, the mean of
 *   (p − o)² with o = 1 when the forecast came true and 0 when not, over
 *   forecasts whose outcome is published; and how often the published
 *   favourite was right (p > 0.5 and it came true, or p < 0.5 and it did not;
 *   p = 0.5 calls nothing).
 * Rates are null when their denominator is 0, and rounded to 4 decimals.
 */

/** Claims of one set, counted by (reference outcome, machine outcome). A null reference: no place on the scale. */
export type Cell = { reference: string | null; machine: string; n: number };
export type ForecastTally = { n: number; sum_sq: number; decided: number; right: number };
export type Tally = { cells: Cell[]; forecasts: ForecastTally | null };

export type Confusion = { rows: string[]; columns: string[]; counts: number[][] };

export type Agreement = {
  n: number;
  n_reference_resolved: number;
  n_machine_resolved: number;
  n_compared: number;
  n_agree: number;
  n_adjacent: number;
  coverage: number | null;
  agreement: number | null;
  adjacent_agreement: number | null;
  confusion: Confusion;
};

export type ForecastStats = {
  n: number;
  brier: number | null;
  machine_brier: null;
  calls: { n: number; right: number; rate: number | null };
};

/** The machine's judges give an outcome after the fact, never a probability: it has no Brier score. */
export const MACHINE_BRIER_NOTE = 'The machine gives no probability, only an outcome judged after the fact, so it has no Brier score (machine_brier is null).';

export const ratio = (a: number, b: number): number | null => (b === 0 ? null : Math.round((a / b) * 10_000) / 10_000);

/** Rows of a demo set's confusion matrix: the outcome scale, then `unrated` (no place on it). */
export const PUBLISHED_ROWS: readonly string[] = [...OUTCOMES, 'unrated'];

const step = (o: string) => (RESOLVED_OUTCOMES as readonly string[]).indexOf(o);

export function agreementOf(cells: readonly Cell[], rows: readonly string[] = PUBLISHED_ROWS): Agreement {
  const columns = [...OUTCOMES] as string[];
  const counts = rows.map(() => columns.map(() => 0));
  const a = { n: 0, n_reference_resolved: 0, n_machine_resolved: 0, n_compared: 0, n_agree: 0, n_adjacent: 0 };
  for (const c of cells) {
    const ref = c.reference ?? 'unrated';
    a.n += c.n;
    const i = rows.indexOf(ref);
    const j = columns.indexOf(c.machine);
    if (i >= 0 && j >= 0) counts[i]![j]! += c.n;
    const machineResolved = isResolved(c.machine as Outcome);
    if (machineResolved) a.n_machine_resolved += c.n;
    if (!isResolved(ref as Outcome)) continue;
    a.n_reference_resolved += c.n;
    if (!machineResolved) continue;
    a.n_compared += c.n;
    if (ref === c.machine) a.n_agree += c.n;
    if (Math.abs(step(ref) - step(c.machine)) <= 1) a.n_adjacent += c.n;
  }
  return {
    ...a,
    coverage: ratio(a.n_compared, a.n_reference_resolved),
    agreement: ratio(a.n_agree, a.n_compared),
    adjacent_agreement: ratio(a.n_adjacent, a.n_compared),
    confusion: { rows: [...rows], columns, counts },
  };
}

export function forecastStats(t: ForecastTally): ForecastStats {
  return {
    n: t.n,
    brier: t.n === 0 ? null : Math.round((t.sum_sq / t.n) * 10_000) / 10_000,
    machine_brier: null,
    calls: { n: t.decided, right: t.right, rate: ratio(t.right, t.decided) },
  };
}

export type ScoredRow = { reference: string | null; machine: string; probability?: number | null };

/** The tally of a list of claims: what the database's GROUP BY gives, computed in memory (tests, small sets). */
export function tallyRows(rows: readonly ScoredRow[]): Tally {
  const cells = new Map<string, Cell>();
  let forecasts: ForecastTally | null = null;
  for (const r of rows) {
    const key = `${r.reference}\n${r.machine}`;
    const cell = cells.get(key) ?? { reference: r.reference, machine: r.machine, n: 0 };
    cell.n++;
    cells.set(key, cell);
    if (r.probability === null || r.probability === undefined) continue;
    forecasts ??= { n: 0, sum_sq: 0, decided: 0, right: 0 };
    if (r.reference !== 'true' && r.reference !== 'false') continue;
    const o = r.reference === 'true' ? 1 : 0;
    forecasts.n++;
    forecasts.sum_sq += (r.probability - o) ** 2;
    if (r.probability !== 0.5) {
      forecasts.decided++;
      if ((r.probability > 0.5) === (o === 1)) forecasts.right++;
    }
  }
  return { cells: [...cells.values()], forecasts };
}

/** The definitions above in words, served with GET /v1/demo and stated in the methodology. */
export const DEFINITIONS: Readonly<Record<string, string>> = Object.freeze({
  n: 'Claims in the set.',
  reference_resolved: 'Claims whose published outcome is one of true, mostly_true, mixed, mostly_false, false (not pending, not unrated).',
  compared: 'Claims resolved both by the publisher and by the machine.',
  coverage: 'compared / reference_resolved: the share of the claims the publisher settled that the machine settled too. Offline, with only the local corpus to search, most claims stay unresolvable: low coverage is the honest baseline.',
  agreement: 'Of the compared claims, the share whose machine outcome equals the published outcome exactly.',
  adjacent_agreement: 'Of the compared claims, the share whose machine outcome is at most one step from the published outcome on true, mostly_true, mixed, mostly_false, false.',
  confusion: 'Every claim counted by published outcome (rows) and machine outcome (columns), unresolved ones included.',
  brier: 'Forecast sets: the mean of (p − o)² over forecasts with a published outcome, p the published probability, o 1 if it came true and 0 if not. 0 is perfect; always saying 0.5 scores 0.25.',
  machine_brier: MACHINE_BRIER_NOTE,
  calls: 'Forecast sets: how often the published favourite was right (p > 0.5 and it came true, or p < 0.5 and it did not; p = 0.5 calls nothing).',
});
