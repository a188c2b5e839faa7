import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { FORMATS, type FormatName } from '../core/demo/formats.ts';
import { importDemo, type ImportSummary } from '../core/demo/import.ts';
import { demoClaimId, type ParseResult } from '../core/demo/rows.ts';
import { methodVersion } from '../core/method/version.ts';
import { demoJudge } from '../jobs/demo-judge.ts';
import { closePipelinePool } from '../jobs/pipeline/cpu-pool.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { NODE, ROOT } from './helpers/process.ts';
import { SHARED_DATA } from './helpers/shared-data.ts';

// Importers into a real database, with the real machine judge over a small
// corpus written here (invented subjects and publishers), then slices of the
// real data files in ../shared/data through the command line.

const DATA = SHARED_DATA;
const TODAY = '2026-11-21';
const run = promisify(execFile);

const jsonl = (...records: unknown[]) => Readable.from(records.map((r) => JSON.stringify(r)).join('\n') + '\n');
const doc = (url: string, publisher: string, published: string, text: string) => ({ record: 'document', url, title: `[Test] ${publisher}`, publisher, published, speakers: [], text });
const PACK = [
  // A researched subject that shares its name with a speaker in the ClaimReview set below.
  { record: 'subject', name: 'Pellow Harbour Board', kind: 'organisation', aliases: [], description: 'SAMPLE (test): the harbour authority.', public_figure: true, offices: [], urls: [], handles: [] },
  doc('https://pellow-gazette.example/2024/07/ferry-record', 'Pellow Gazette', '2024-07-09', 'Pellow Ferries carried 41,200 passengers in June 2024, the harbour office said. Queues formed at the slipway.'),
  doc('https://pellow-gazette.example/2024/07/weather', 'Pellow Gazette', '2024-07-02', 'Rain is forecast for the regatta weekend.'),
];

const LIAR = [
  ['401.json', 'half-true', 'Pellow Ferries carried 41,000 passengers in June 2024.', 'transport', 'orla-vantreece', 'Harbour master', 'Pellow', 'none', '0', '0', '1', '0', '0', 'a radio interview'],
  ['402.json', 'pants-fire', 'The Calder tunnel was dug by hand in a single week.', 'history', 'pellow-ferry-users-association', '', 'Pellow', 'organization', '0', '0', '0', '0', '1', 'a leaflet'],
].map((f) => f.join('\t')).join('\n');
const CLAIMREVIEW = [
  { '@type': 'ClaimReview', url: 'https://pellow-factcheck.example/checks/ferry', datePublished: '2024-07-10', claimReviewed: 'Pellow Ferries carried 41,000 passengers in June 2024.',
    itemReviewed: { author: { '@type': 'Person', name: 'Tamsin Okoro' }, datePublished: '2024-07-05' }, reviewRating: { alternateName: 'True', ratingValue: 5, bestRating: 5, worstRating: 1 } },
  { '@type': 'ClaimReview', url: 'https://pellow-factcheck.example/checks/board', datePublished: '2024-07-12', claimReviewed: 'The harbour has 30 moorings.',
    itemReviewed: { author: { '@type': 'GovernmentOrganization', name: 'Pellow Harbour Board' } }, reviewRating: { alternateName: 'Unproven' } },
].map((r) => JSON.stringify(r)).join('\n');
const PROMISES = JSON.stringify({ subject: 'Orla Vantreece', promises: [
  { title: 'Open a night ferry to Calder', url: 'https://pellow-tracker.example/night-ferry/', status: 'Broken', sources: ['https://web.archive.org/web/20220301000000/https://orla-vantreece.example/plan'] },
  { title: 'Repave the harbour road', url: 'https://pellow-tracker.example/road/', status: 'In progress', sources: ['https://web.archive.org/web/20220301000000/https://orla-vantreece.example/plan'] },
] });
const FTE = [
  'year,office,state,special,election_date,forecast_date,forecast_type,party,candidate,projected_voteshare,actual_voteshare,probwin,probwin_outcome',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,D,Orla Vantreece,51,52,.7,1',
  '2030,Governor,ZZ,false,2030-11-05,2030-11-05,deluxe,R,Tamsin Okoro,49,48,.3,0',
].join('\n');
const WRITTEN: Array<[FormatName, string]> = [['liar', LIAR], ['claimreview', CLAIMREVIEW], ['promises', PROMISES], ['fte', FTE]];

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('demo_import');
  await ingestPack(db.pool, jsonl(...PACK));
});
afterAll(async () => {
  await closePipelinePool();
  await db.drop();
});

const importText = (format: FormatName, text: string): Promise<ImportSummary> =>
  importDemo(db.pool, FORMATS[format](text), { judge: demoJudge(db.pool, { today: TODAY }) });

describe('importing written sets of every format, judged by the real machine', () => {
  let first: ImportSummary[];

  it('stores each claim with its machine verdict beside the published rating and outcome', async () => {
    first = [];
    for (const [format, text] of WRITTEN) first.push(await importText(format, text));
    expect(first.map((s) => [s.dataset, s.claims, s.written.inserted])).toEqual([['liar', 2, 2], ['claimreview', 2, 2], ['promises', 2, 2], ['fte-governors', 2, 2]]);
    const { rows } = await db.pool.query(
      `SELECT dataset, publisher_rating, published_outcome, forecast_probability, data, statement, method_version, reference_url, source_id FROM demo_claims ORDER BY dataset, source_id`,
    );
    expect(rows.map((r) => [r.dataset, r.publisher_rating, r.published_outcome, r.forecast_probability])).toEqual([
      ['claimreview', 'Unproven', null, null], ['claimreview', 'True', 'true', null],
      ['fte-governors', 'won', 'true', 0.7], ['fte-governors', 'lost', 'false', 0.3],
      ['liar', 'half-true', 'mixed', null], ['liar', 'pants-fire', 'false', null],
      ['promises', 'Broken', 'false', null], ['promises', 'In progress', 'pending', null],
    ]);
    for (const r of rows) {
      expect(r.data.claim_id).toBe(demoClaimId(r.dataset, r.source_id));
      expect(r.data).toMatchObject({ quote: expect.any(String), resolution_criteria: expect.any(String), rationale: expect.any(String), quote_verified: false });
      expect(['true', 'mostly_true', 'mixed', 'mostly_false', 'false', 'unresolvable', 'pending']).toContain(r.data.outcome);
      expect(r.method_version).toBe(methodVersion());
      // What the judge was given is kept, and holds no rating.
      expect(Object.keys(r.statement).sort()).toEqual(['claim_id', 'date', 'date_basis', 'kind', 'quote', 'source_url', 'speaker', 'subject_id']);
    }
    // LIAR and the tracker give no date of their own: the claim says so; the test counts from the latest possible day.
    const liar = rows.find((r) => r.source_id === '401')!;
    expect(liar.data.said_on).toBeNull();
    expect(liar.statement.date).toBe('2017-04-23');
    expect(rows.find((r) => r.dataset === 'fte-governors')!.data.said_on).toBe('2030-11-05');
  });

  it('the machine settles a claim when the corpus holds independent evidence, and only then', async () => {
    const { rows } = await db.pool.query(`SELECT dataset, data FROM demo_claims WHERE data->>'quote' LIKE 'Pellow Ferries carried%' ORDER BY dataset`);
    const [review, liar] = rows;
    // Said on 2024-07-05, the Gazette's 41,200 (within 2%) a few days later: true.
    expect(review.data.outcome).toBe('true');
    expect(review.data.evidence[0]).toMatchObject({ publisher: 'Pellow Gazette', independent_of_subject: true });
    // The same words in LIAR count from 2017-04-23: a source from 2024 is outside the fixed test's year, so unresolvable.
    expect(liar.data.outcome).toBe('unresolvable');
    const others = await db.pool.query(`SELECT count(*)::int AS n FROM demo_claims WHERE data->>'quote' NOT LIKE 'Pellow Ferries carried%' AND data->>'outcome' IN ('true','mostly_true','mixed','mostly_false','false')`);
    expect(others.rows[0].n).toBe(0);
  });

  it('subjects are demo subjects, public figures, described by their data set; a researched namesake stays as it is', async () => {
    const { rows } = await db.pool.query(`SELECT name, kind, demo, public_figure, description, extra FROM subjects ORDER BY name, kind`);
    const byName = Object.fromEntries(rows.map((r) => [`${r.name}/${r.kind}`, r]));
    expect(byName['Orla Vantreece/person']).toMatchObject({ demo: true, public_figure: true });
    expect(byName['Orla Vantreece/person'].description).toMatch(/^Demo subject, imported from LIAR \(PolitiFact ratings, Wang 2017\); the promise tracker pellow-tracker\.example/);
    expect(byName['Pellow Ferry Users Association/organisation']).toMatchObject({ demo: true });
    const sets = (k: string) => byName[k].extra.demo_datasets.map((d: { dataset: string }) => d.dataset);
    expect(sets('Orla Vantreece/person')).toEqual(['liar', 'promises']);
    // A forecast's subject is the forecaster, not the candidate.
    expect(sets('Tamsin Okoro/person')).toEqual(['claimreview']);
    expect(sets('FiveThirtyEight/outlet')).toEqual(['fte-governors']);
    expect(byName['FiveThirtyEight/outlet']).toMatchObject({ demo: true, description: expect.stringMatching(/FiveThirtyEight forecasts/) });
    expect(byName['Pellow Harbour Board/organisation']).toMatchObject({ demo: false, description: 'SAMPLE (test): the harbour authority.' });
    expect(first[1]!.subjects.not_demo).toEqual(['Pellow Harbour Board']);
    const attached = await db.pool.query(`SELECT subject_id FROM demo_claims WHERE source_id = 'https://pellow-factcheck.example/checks/board'`);
    expect(attached.rows[0].subject_id).toBe(subjectIdFor('organisation', 'Pellow Harbour Board'));
  });

  it('importing the same files again changes nothing: no new or changed claims, subjects or timestamps', async () => {
    const snapshot = async () => ({
      claims: (await db.pool.query(`SELECT claim_id, data, imported_at, judged_at FROM demo_claims ORDER BY claim_id`)).rows,
      subjects: (await db.pool.query(`SELECT id, description, extra, updated_at FROM subjects ORDER BY id`)).rows,
    });
    const before = await snapshot();
    const again: ImportSummary[] = [];
    for (const [format, text] of WRITTEN) again.push(await importText(format, text));
    for (const s of again) expect(s.written).toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    for (const s of again) expect([s.subjects.created, s.subjects.updated]).toEqual([0, 0]);
    expect(await snapshot()).toEqual(before);
  });

  it('a changed published rating is an update of the same claim, not a new one', async () => {
    const s = await importText('liar', LIAR.replace('pants-fire', 'false'));
    expect(s.written).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
    const { rows } = await db.pool.query(`SELECT publisher_rating FROM demo_claims WHERE claim_id = $1`, [demoClaimId('liar', '402')]);
    expect(rows[0].publisher_rating).toBe('false');
  });
});

describe('slices of the real data files, through the command line', () => {
  const cli = async (args: string[]) => {
    const { stdout } = await run(NODE, ['scripts/import.ts', ...args, '--today', TODAY, '--json'], {
      cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url, PIPELINE_THREADS: '0', LOG_LEVEL: 'silent' }, timeout: 120_000, maxBuffer: 10_000_000,
    });
    return JSON.parse(stdout) as ImportSummary;
  };
  const expected = (format: FormatName, file: string, limit: number): ParseResult => FORMATS[format](readFileSync(path.join(DATA, file), 'utf8'), { limit });

  const CASES: Array<[FormatName, string, string]> = [
    ['liar', 'liar_train.tsv', 'liar'],
    ['liar', 'liar_valid.tsv', 'liar'],
    ['promises', 'trumptracker_promises.json', 'promises'],
    ['fte', 'fte_governors_elections.csv', 'fte-governors'],
    ['fte', 'fte_president_election_night.csv', 'fte-president'],
    ['fte', 'fte_us_senate_election_night.csv', 'fte-senate'],
  ];
  for (const [format, file, dataset] of CASES) {
    it(`--format ${format} ${file} --limit 50`, async () => {
      const before = (await db.pool.query(`SELECT count(*)::int AS n FROM demo_claims WHERE dataset = $1`, [dataset])).rows[0].n;
      const s = await cli(['--format', format, path.join(DATA, file), '--limit', '50']);
      const want = expected(format, file, 50);
      expect(s).toMatchObject({ dataset, claims: 50, skipped: [] });
      expect(s.written.inserted).toBe(50);
      // The published outcomes stored are the mapping of the file's own ratings.
      const published: Record<string, number> = {};
      for (const r of want.rows) published[r.published_outcome ?? 'unrated'] = (published[r.published_outcome ?? 'unrated'] ?? 0) + 1;
      expect(s.published).toEqual(published);
      expect(Object.values(s.machine).reduce((a, b) => a + b, 0)).toBe(50);
      const after = await db.pool.query(`SELECT count(*)::int AS n, count(*) FILTER (WHERE forecast_probability IS NOT NULL)::int AS p FROM demo_claims WHERE dataset = $1`, [dataset]);
      expect(after.rows[0].n).toBe(before + 50);
      expect(after.rows[0].p).toBe(format === 'fte' ? before + 50 : 0);
    }, 120_000);
  }

  it('importing a real slice again through the command line is idempotent', async () => {
    const s = await cli(['--format', 'liar', path.join(DATA, 'liar_valid.tsv'), '--limit', '50']);
    expect(s.written).toEqual({ inserted: 0, updated: 0, unchanged: 50 });
    expect(s.subjects.created).toBe(0);
  }, 120_000);

  it('the command line refuses bad usage (exit 2) and a missing file (exit 1)', async () => {
    const fail = async (args: string[]) => {
      try {
        await run(NODE, ['scripts/import.ts', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, timeout: 60_000 });
        return { code: 0, stderr: '' };
      } catch (err) {
        return err as { code: number; stderr: string };
      }
    };
    expect(await fail(['--format', 'csv', 'x'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown format "csv"/) });
    expect(await fail(['--format', 'liar', 'x', '--limit', '0'])).toMatchObject({ code: 2 });
    expect(await fail(['--format', 'liar', path.join(DATA, 'no-such-file.tsv')])).toMatchObject({ code: 1, stderr: expect.stringMatching(/no such file/) });
  }, 120_000);
});
