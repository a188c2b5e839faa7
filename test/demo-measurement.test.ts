import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { FORMATS } from '../core/demo/formats.ts';
import { importDemo, type DemoJudge } from '../core/demo/import.ts';
import { demoClaimId } from '../core/demo/rows.ts';
import type { Outcome } from '../core/method/outcomes.ts';
import { methodVersion } from '../core/method/version.ts';
import { MethodologySchema } from '../core/schemas/resources.ts';
import { judgeStatement } from '../jobs/demo-judge.ts';
import { MEASUREMENT_CRON, MEASUREMENT_QUEUE } from '../jobs/measurement.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';

// The measurement job, run for real through pg-boss by the service's own
// workers; its row is what GET /v1/methodology shows.

const MACHINE: Record<string, Outcome> = {};
const tableJudge: DemoJudge = (s) => judgeStatement(s, {
  providers: { search: { name: 'none', search: async () => [] }, fetch: { name: 'none', fetch: async () => null } },
  today: '2026-11-21',
  findDocuments: async () => [],
  runAssess: async (task) => ({ evidence: [], verdict: { outcome: MACHINE[task.claim.quote] ?? 'unresolvable', on_time: null, rationale: 'Set by the test.', judges_disagree: false, opinions: [] } }),
});

// Four invented LIAR rows: true → true, half-true → mostly_true, false → false, pants-fire → unresolvable.
// reference-resolved 4, compared 3, agree 2: coverage 0.75, agreement 0.6667, adjacent 1.
const LIAR: Array<[string, string, Outcome]> = [['true', 'Pellow has 12 harbour cranes.', 'true'], ['half-true', 'Fares rose 8% last year.', 'mostly_true'], ['false', 'The bridge toll doubled.', 'false'], ['pants-fire', 'The ferry runs on seawater.', 'unresolvable']];
const LIAR_TSV = LIAR.map(([label, quote, machine], i) => {
  MACHINE[quote] = machine;
  return [`${501 + i}.json`, label, quote, 'transport', 'orla-vantreece', '', 'Pellow', 'none', '0', '0', '0', '0', '0', 'a leaflet'].join('\t');
}).join('\n');

let t: TestApp;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp({}, 'demo_measure', { workers: true });
  headers = bearer(await t.key());
  await importDemo(t.db.pool, FORMATS.liar(LIAR_TSV), { judge: tableJudge });
});
afterAll(() => t.close());

const count = async () => (await t.db.pool.query('SELECT count(*)::int AS n FROM measurements')).rows[0].n as number;
/** Sends a measurement job to its queue and waits for the workers to store its row. */
async function measureThroughQueue(data: object = {}) {
  const before = await count();
  const id = await t.boss.send(MEASUREMENT_QUEUE, data);
  expect(id).toBeTruthy();
  await until(async () => (await count()) > before, 'the measurement job to store its row', 60_000);
  await until(async () => (await t.boss.findJobs(MEASUREMENT_QUEUE, { id: id! }))[0]?.state === 'completed', 'the measurement job to complete', 30_000);
  const res = await t.app.inject({ method: 'GET', url: '/v1/methodology', headers });
  return MethodologySchema.parse(res.json());
}

describe('the measurement job', () => {
  it('is scheduled nightly on pg-boss', async () => {
    const schedules = await t.boss.getSchedules(MEASUREMENT_QUEUE);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({ cron: MEASUREMENT_CRON, timezone: 'UTC' });
    expect(MEASUREMENT_CRON).toBe('30 3 * * *');
  });

  it('runs through the queue, and GET /v1/methodology shows what it stored: the gold set from reviewers\' labels, and each demo set', async () => {
    // The labels table as migration 006 makes it; before it exists, one of the shape the gold set reads.
    await t.db.pool.query('CREATE TABLE IF NOT EXISTS labels (claim_id text NOT NULL, key_id bigint NOT NULL, verdict text NOT NULL)');
    const hasSubject = (await t.db.pool.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'labels' AND column_name = 'subject_id'`)).rowCount === 1;
    await t.key('reviewer-two');
    const keys = (await t.db.pool.query('SELECT id FROM api_keys ORDER BY id')).rows.map((r) => r.id as number);
    const orla = subjectIdFor('person', 'Orla Vantreece');
    const id = (n: number) => demoClaimId('liar', String(n));
    // Machine: 501 true, 502 mostly_true, 503 false, 504 unresolvable.
    // Labels: 501 true (agree), 501 mostly_true (adjacent), 502 mixed (adjacent), 503 not_a_claim (settles nothing),
    // 504 false (the machine did not settle it), clm_nowhere (no machine verdict anywhere: not counted).
    // n 5, reference-resolved 4, compared 3, agree 1, adjacent 3: coverage 0.75, agreement 0.3333, adjacent 1.
    for (const [claim, key, verdict] of [[id(501), keys[0], 'true'], [id(501), keys[1], 'mostly_true'], [id(502), keys[0], 'mixed'], [id(503), keys[0], 'not_a_claim'], [id(504), keys[0], 'false'], ['clm_nowhere', keys[0], 'true']] as const) {
      await t.db.pool.query(
        hasSubject ? 'INSERT INTO labels (claim_id, key_id, verdict, subject_id) VALUES ($1, $2, $3, $4)' : 'INSERT INTO labels (claim_id, key_id, verdict) VALUES ($1, $2, $3)',
        hasSubject ? [claim, key, verdict, orla] : [claim, key, verdict],
      );
    }
    const body = await measureThroughQueue();
    const m = body.measurement!;
    expect(m.method_version).toBe(methodVersion());
    expect(Date.now() - Date.parse(m.measured_at)).toBeLessThan(60_000);
    expect(body.measurement_note).toMatch(/the current one\). Agreement is not accuracy/);
    expect(m.datasets.map((d) => d.dataset)).toEqual(['gold-labels', 'liar']);
    expect(m.datasets[0]).toMatchObject({
      dataset: 'gold-labels', reference: 'labels', n: 5, n_reference_resolved: 4, n_compared: 3, n_agree: 1,
      coverage: 0.75, agreement: 0.3333, adjacent_agreement: 1, method_versions: { [methodVersion()]: 5 },
    });
    expect(m.datasets[1]).toMatchObject({
      dataset: 'liar', reference: 'published', n: 4, n_reference_resolved: 4, n_compared: 3, n_agree: 2,
      coverage: 0.75, agreement: 0.6667, adjacent_agreement: 1, method_versions: { [methodVersion()]: 4 },
    });
    expect(m.note).toMatch(/Gold set: 5 reviewers' labels/);
    expect(m.note).toMatch(/liar n=4, coverage 75%, agreement 66\.7%/);
    expect(m.note).toMatch(/Agreement is not accuracy/);
  });

  it('without a labels table the gold set is empty, and says why, rather than failing the job', async () => {
    await t.db.pool.query('DROP TABLE labels CASCADE');
    const m = (await measureThroughQueue()).measurement!;
    expect(m.datasets[0]).toMatchObject({ dataset: 'gold-labels', n: 0, coverage: null, agreement: null });
    expect(m.datasets[1]).toMatchObject({ dataset: 'liar', n_compared: 3 });
    expect(m.note).toMatch(/Gold set: empty, because no labels are recorded yet \(the labels table does not exist\)/);
  });

  it('judges again, from the stored statements, demo claims an earlier method version judged, before measuring', async () => {
    await t.db.pool.query(`UPDATE demo_claims SET method_version = '0.9.0+000000000000' WHERE claim_id = $1`, [demoClaimId('liar', '501')]);
    const m = (await measureThroughQueue({ today: '2026-11-21' })).measurement!;
    const { rows } = await t.db.pool.query(`SELECT claim_id, method_version, data->>'outcome' AS outcome FROM demo_claims ORDER BY claim_id`);
    expect(rows.every((r) => r.method_version === methodVersion())).toBe(true);
    // Judged by the real machine this time: nothing in this database's corpus settles it.
    expect(rows.find((r) => r.claim_id === demoClaimId('liar', '501'))!.outcome).toBe('unresolvable');
    expect(m.datasets[1]).toMatchObject({ n_compared: 2, n_agree: 1, coverage: 0.5, agreement: 0.5, method_versions: { [methodVersion()]: 4 } });
  });
});
