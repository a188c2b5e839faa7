import type { Queryable } from '../db/pool.ts';
import { LABEL_VERDICTS } from '../method/outcomes.ts';
import { AGREEMENT_IS_NOT_ACCURACY, type MeasurementDataset } from '../schemas/demo.ts';
import { setSummaries } from './read.ts';
import { agreementOf, type Agreement, type Cell } from './stats.ts';

/**
 * The published measurement (content/methodology.md, "Measurement"): agreement
 * of the machine's verdicts with reviewers' labels (the gold set) and with the
 * outcomes published for each demo set, with counts and coverage, stored in
 * `measurements` for GET /v1/methodology.
 */

export const GOLD = 'gold-labels';

export type GoldTally = { available: boolean; reason: string | null; cells: Cell[]; method_versions: Record<string, number> };

/**
 * Every reviewer's label beside the machine verdict on the same claim: the
 * claim in its newest report, else the demo claim. Each label counts once (a
 * claim labelled by three reviewers counts three times); a label on a claim
 * with no machine verdict anywhere is not counted. Before the labels table
 * exists (or while it lacks claim_id or verdict), the gold set is empty and
 * `reason` says why.
 */
export async function goldTally(db: Queryable): Promise<GoldTally> {
  const { rows: t } = await db.query<{ present: boolean }>(`SELECT to_regclass('labels') IS NOT NULL AS present`);
  if (!t[0]?.present) return { available: false, reason: 'no labels are recorded yet (the labels table does not exist)', cells: [], method_versions: {} };
  try {
    const { rows } = await db.query<{ reference: string; machine: string; method_version: string | null; n: number }>(
      `SELECT l.verdict::text AS reference, m.outcome AS machine, m.method_version, count(*)::int AS n
         FROM labels l
        CROSS JOIN LATERAL (
          SELECT outcome, method_version FROM (
            SELECT c.outcome, r.method_version, 0 AS pri, r.generated_at AS at
              FROM claims c JOIN reports r ON r.id = c.report_id WHERE c.claim_id = l.claim_id
            UNION ALL
            SELECT d.data->>'outcome', d.method_version, 1, d.judged_at FROM demo_claims d WHERE d.claim_id = l.claim_id
          ) x ORDER BY pri, at DESC NULLS LAST LIMIT 1
        ) m
        GROUP BY 1, 2, 3`,
    );
    const cells = new Map<string, Cell>();
    const versions: Record<string, number> = {};
    for (const r of rows) {
      const key = `${r.reference}\n${r.machine}`;
      const c = cells.get(key) ?? { reference: r.reference, machine: r.machine, n: 0 };
      c.n += r.n;
      cells.set(key, c);
      const v = r.method_version ?? 'unknown';
      versions[v] = (versions[v] ?? 0) + r.n;
    }
    return { available: true, reason: null, cells: [...cells.values()], method_versions: versions };
  } catch (err) {
    const code = (err as { code?: string }).code;
    // undefined_table, undefined_column: the table is not (yet) in the shape this reads.
    if (code === '42P01' || code === '42703') return { available: false, reason: `the labels table cannot be read yet (${(err as Error).message})`, cells: [], method_versions: {} };
    throw err;
  }
}

function entry(dataset: string, reference: 'labels' | 'published', a: Agreement, methodVersions: Record<string, number>, brier?: number | null): MeasurementDataset {
  return {
    dataset, reference, n: a.n, n_reference_resolved: a.n_reference_resolved, n_compared: a.n_compared, n_agree: a.n_agree,
    coverage: a.coverage, agreement: a.agreement, adjacent_agreement: a.adjacent_agreement,
    ...(brier !== undefined ? { brier, machine_brier: null } : {}),
    method_versions: methodVersions,
  };
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 1000) / 10}%`);

export async function computeMeasurement(db: Queryable, methodVersion: string): Promise<{ datasets: MeasurementDataset[]; note: string }> {
  const gold = await goldTally(db);
  const goldAgreement = agreementOf(gold.cells, [...LABEL_VERDICTS]);
  const sets = await setSummaries(db);
  const datasets = [
    entry(GOLD, 'labels', goldAgreement, gold.method_versions),
    ...sets.map((s) => entry(s.dataset, 'published', s, s.method_versions, s.forecast ? s.forecast.brier : undefined)),
  ];
  const lines = [
    `Method version ${methodVersion}.`,
    gold.available
      ? `Gold set: ${goldAgreement.n} reviewers' labels on claims with a machine verdict; ${goldAgreement.n_compared} compared, agreement ${pct(goldAgreement.agreement)}, coverage ${pct(goldAgreement.coverage)}.`
      : `Gold set: empty, because ${gold.reason}.`,
    sets.length
      ? `Demo sets: ${sets.map((s) => `${s.dataset} n=${s.n}, coverage ${pct(s.coverage)}, agreement ${pct(s.agreement)}${s.forecast ? `, Brier of the published forecasts ${s.forecast.brier ?? 'n/a'}` : ''}`).join('; ')}.`
      : 'Demo sets: none imported.',
    'Coverage is the share of the claims the reference settles (one of true … false) that the machine settled too; agreement is, of the claims both settled, the share with the same outcome.',
    AGREEMENT_IS_NOT_ACCURACY,
  ];
  return { datasets, note: lines.join(' ') };
}

/** Computes the measurement and stores it; GET /v1/methodology then shows it. */
export async function storeMeasurement(db: Queryable, methodVersion: string): Promise<{ id: number; measured_at: string; datasets: MeasurementDataset[]; note: string }> {
  const body = await computeMeasurement(db, methodVersion);
  const { rows } = await db.query<{ id: number; measured_at: Date }>(
    'INSERT INTO measurements (method_version, body) VALUES ($1, $2) RETURNING id, measured_at',
    [methodVersion, JSON.stringify(body)],
  );
  return { id: rows[0]!.id, measured_at: rows[0]!.measured_at.toISOString(), ...body };
}
