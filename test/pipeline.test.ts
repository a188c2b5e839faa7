import { createReadStream } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ingestPack } from '../core/corpus/ingest.ts';
import { SAMPLE_PACK } from '../core/corpus/sample.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { CLAIM_TYPES, TOPICS } from '../core/method/outcomes.ts';
import { localProviders } from '../core/providers/local/corpus.ts';
import type { Providers } from '../core/providers/types.ts';
import { ClaimSchema, ReportSchema } from '../core/schemas/resources.ts';
import { discoverStatements } from '../jobs/pipeline/discover.ts';
import { researchSubject } from '../jobs/pipeline/run.ts';
import { makeReport } from '../jobs/research.ts';
import { closePipelinePool, configurePipelineThreads } from '../jobs/pipeline/cpu-pool.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { NODE, ROOT } from './helpers/process.ts';

const TODAY = '2026-11-21';
// As stored: the replies and the editorial review are joined on when a claim is served, never stored with it.
const StoredClaim = ClaimSchema.omit({ responses: true, responses_total: true, responses_url: true, review_status: true, machine_verdict: true, review: true });

let db: TestDatabase;
let providers: Providers;
beforeAll(async () => {
  db = await createTestDatabase('pipeline');
  providers = localProviders(db.pool);
  const r = await ingestPack(db.pool, createReadStream(SAMPLE_PACK));
  expect(r.skipped).toEqual([]);
});
afterAll(async () => {
  await closePipelinePool();
  await db.drop();
});

const subject = async (name: string, kind: 'person' | 'organisation' | 'outlet') => (await providers.knowledge.byId(subjectIdFor(kind, name)))!;

describe('pipeline on the sample pack', () => {
  it.each([
    ['Brightwater Utilities', 'organisation'],
    ['Imogen Thale', 'person'],
    ['The Eastmere Ledger', 'outlet'],
  ] as const)('researches %s end to end: claims of every type, verbatim quotes, fixed tests, judged, scored', async (name, kind) => {
    const r = await researchSubject(await subject(name, kind), providers, { today: TODAY });
    expect(r.status).toBe('complete');
    if (r.status !== 'complete') return;
    // The pipeline's report as made: the editorial review summary is added when it is stored (core/reports/store.ts).
    ReportSchema.omit({ review: true }).parse(r.report);
    const types = new Set(r.claims.map((c) => c.claim_type));
    for (const t of CLAIM_TYPES) expect(types, t).toContain(t);
    for (const c of r.claims) {
      StoredClaim.parse({ ...c });
      expect(c.quote_verified).toBe(true);
      expect(c.resolution_criteria.length).toBeGreaterThan(20);
      expect(c.rationale.length).toBeGreaterThan(20);
      expect(TOPICS).toContain(c.topic);
      expect(c.claim_id).toMatch(/^clm_[0-9a-f]{20}$/);
    }
    const resolved = r.claims.filter((c) => !['pending', 'unresolvable'].includes(c.outcome));
    expect(resolved.length).toBeGreaterThanOrEqual(5);
    // Only independent evidence settles a claim.
    for (const c of resolved) expect(c.evidence.some((e) => e.independent_of_subject)).toBe(true);
    expect(r.claims.some((c) => c.outcome === 'pending')).toBe(true);
    const report = r.report as { score: { score: number; interval_80: [number, number] }; review_status: string; method_version: string };
    expect(report.score.score).toBeGreaterThanOrEqual(report.score.interval_80[0]);
    expect(report.score.score).toBeLessThanOrEqual(report.score.interval_80[1]);
    expect(report.review_status).toBe('machine-generated, unreviewed');
  });

  it('gives the same result on worker threads as in the calling thread', async () => {
    const s = await subject('Imogen Thale', 'person');
    const threaded = await researchSubject(s, providers, { today: TODAY });
    configurePipelineThreads(0);
    try {
      const inline = await researchSubject(s, providers, { today: TODAY });
      expect(inline.claims).toEqual(threaded.claims);
      expect(inline.status === 'complete' && inline.report).toEqual(threaded.status === 'complete' && threaded.report);
    } finally {
      configurePipelineThreads(2);
    }
  });

  it('refuses a serving politician, and a private person without consent_ref', async () => {
    const mayor = await researchSubject(await subject('Rafe Dunmore', 'person'), providers, { today: TODAY });
    expect(mayor).toMatchObject({ status: 'refused' });
    expect(mayor.status === 'refused' && mayor.reason).toMatch(/political office/);
    const priv = await subject('Tobias Wren', 'person');
    const refused = await researchSubject(priv, providers, { today: TODAY });
    expect(refused.status === 'refused' && refused.reason).toMatch(/consent_ref/);
    const consented = await researchSubject(priv, providers, { today: TODAY, consentRef: 'consent form 2026-11-01' });
    expect(consented.status).not.toBe('refused');
  });

  it('keeps two namesakes\' statements apart', async () => {
    const person = await subject('Jordan Avery', 'person');
    const firm = await subject('Jordan Avery', 'organisation');
    const p = await discoverStatements(person, providers, { limit: 50 });
    const f = await discoverStatements(firm, providers, { limit: 50 });
    expect(p.documents.length).toBeGreaterThan(0);
    expect(f.documents.length).toBeGreaterThan(0);
    const pUrls = new Set(p.documents.map((d) => d.url));
    for (const d of f.documents) expect(pUrls.has(d.url), d.url).toBe(false);
    expect(f.documents.every((d) => d.url.includes('jordanavery-estates'))).toBe(true);
  });

  it('gives a document to the subject its speaker names, before one that has that name only as an alias', async () => {
    const pack = [
      { record: 'subject', name: 'Orrin Vale', kind: 'person', aliases: ['Halden Institute'], description: 'TEST DATA (invented): economist and director of the Halden Institute for economic research.', public_figure: true, offices: [], urls: ['https://halden-institute.example'], handles: [] },
      { record: 'subject', name: 'Halden Institute', kind: 'organisation', aliases: [], description: 'TEST DATA (invented): an institute for economic research directed by Orrin Vale.', public_figure: true, offices: [], urls: ['https://halden-institute.example'], handles: [] },
      { record: 'document', url: 'https://halden-institute.example/review-2025', title: 'Annual review', publisher: 'Halden Institute', published: '2026-02-01', speakers: ['Halden Institute'], text: 'Under our director the institute published 22 papers in 2025.' },
      { record: 'document', url: 'https://halden-institute.example/outlook-2026', title: 'Outlook', publisher: 'Halden Institute', published: '2026-01-10', speakers: ['Orrin Vale'], text: 'I expect inflation to average 2.5% in 2026.' },
    ];
    expect((await ingestPack(db.pool, Readable.from(pack.map((p) => `${JSON.stringify(p)}\n`)))).skipped).toEqual([]);
    const institute = await discoverStatements(await subject('Halden Institute', 'organisation'), providers, { limit: 50 });
    const person = await discoverStatements(await subject('Orrin Vale', 'person'), providers, { limit: 50 });
    expect(institute.documents.map((d) => d.url)).toEqual(['https://halden-institute.example/review-2025']);
    expect(person.documents.map((d) => d.url)).toEqual(['https://halden-institute.example/outlook-2026']);
    expect([...institute.ambiguous, ...person.ambiguous]).toEqual([]);
  });

  it('stores a complete report with its claims, claim ids stable across reports', async () => {
    const bw = subjectIdFor('organisation', 'Brightwater Utilities');
    const first = await makeReport(db.pool, bw, { today: TODAY });
    const second = await makeReport(db.pool, bw, { today: TODAY });
    expect(first.reportId).toMatch(/^rep_/);
    expect(second.reportId).not.toBe(first.reportId);
    const ids = async (rid: string) => (await db.pool.query('SELECT claim_id FROM claims WHERE report_id = $1 ORDER BY claim_id', [rid])).rows.map((r) => r.claim_id);
    expect(await ids(first.reportId!)).toEqual(await ids(second.reportId!));
    expect((await ids(first.reportId!)).length).toBe(first.claims.length);
  });
});

describe('pipeline on a pack written here (nothing is tuned to the sample pack)', () => {
  const pack = [
    { record: 'subject', name: 'Marrowby Rail Company', kind: 'organisation', aliases: ['Marrowby Rail'], description: 'TEST DATA (invented): a regional train operator.', public_figure: true, offices: [], urls: ['https://marrowby-rail.example'], handles: [] },
    { record: 'document', url: 'https://marrowby-rail.example/press/2024-02', title: 'Punctuality report', publisher: 'Marrowby Rail Company', published: '2024-02-12', speakers: ['Marrowby Rail Company'],
      text: 'Marrowby Rail ran 48,200 services in 2023. We will add 14 new carriages to the coastal line by June 2025. Passenger numbers will rise by 9% by the end of 2025. Travellers should buy tickets before boarding to avoid penalty fares.' },
    { record: 'document', url: 'https://marrowby-rail.example/press/2024-09', title: 'Station upgrades', publisher: 'Marrowby Rail Company', published: '2024-09-03', speakers: ['Marrowby Rail Company'],
      text: 'We rebuilt 6 stations in 2024. We will electrify the Fenmouth branch by March 2027. We spent £31 million on track repairs in the last financial year.' },
    { record: 'document', url: 'https://marrowby-rail.example/press/2025-01', title: 'Fares', publisher: 'Marrowby Rail Company', published: '2025-01-20', speakers: ['Marrowby Rail Company'],
      text: 'Average fares fell by 3% in 2024. We will open a new depot at Calderbridge by October 2025. Ticket office queues will shrink by half by mid-2026.' },
    { record: 'document', url: 'https://railwatch-review.example/2024/marrowby-services', title: 'Operator figures', publisher: 'Railwatch Review', published: '2024-04-02', speakers: [],
      text: 'Official figures show Marrowby Rail ran 48,150 services in 2023. Its stations were busy throughout the year.' },
    { record: 'document', url: 'https://transport-regulator.example/2025/carriages', title: 'Rolling stock audit', publisher: 'Office of Transport Regulation', published: '2025-07-15', speakers: [],
      text: 'The audit found Marrowby Rail had not added the 14 new carriages to the coastal line by June 2025; none had entered service. The carriages were delayed.' },
    { record: 'document', url: 'https://railwatch-review.example/2025/stations', title: 'Stations rebuilt', publisher: 'Railwatch Review', published: '2025-02-10', speakers: [],
      text: 'Marrowby Rail rebuilt 6 stations in 2024, the regulator confirmed.' },
    { record: 'document', url: 'https://county-accounts.example/2024/marrowby', title: 'Track spending', publisher: 'County Accounts Office', published: '2024-11-30', speakers: [],
      text: 'Accounts show Marrowby Rail spent £18 million on track repairs in the last financial year, not £31 million.' },
    { record: 'document', url: 'https://railwatch-review.example/2025/fares', title: 'Fares data', publisher: 'Railwatch Review', published: '2025-03-01', speakers: [],
      text: 'Average fares on Marrowby Rail fell by 3% in 2024, the fares index shows.' },
    { record: 'document', url: 'https://transport-regulator.example/2025/depot', title: 'Depot opening', publisher: 'Office of Transport Regulation', published: '2025-10-20', speakers: [],
      text: 'Marrowby Rail opened its new depot at Calderbridge in October 2025, as planned.' },
  ];

  it('finds, types and judges the claims of another subject in other words', async () => {
    const r = await ingestPack(db.pool, Readable.from(pack.map((p) => `${JSON.stringify(p)}\n`)));
    expect(r.skipped).toEqual([]);
    const s = (await providers.knowledge.lookup('Marrowby Rail'))[0]!;
    const result = await researchSubject(s, providers, { today: TODAY });
    const byStart = (start: string) => result.claims.find((c) => c.quote.startsWith(start));
    expect(byStart('We will add 14 new carriages')?.claim_type).toBe('promise');
    expect(byStart('Passenger numbers will rise')?.claim_type).toBe('prediction');
    expect(byStart('Travellers should buy tickets')?.claim_type).toBe('guidance');
    expect(byStart('We rebuilt 6 stations')?.claim_type).toBe('factual');
    expect(byStart('We will electrify the Fenmouth branch')?.outcome).toBe('pending');
    expect(byStart('We rebuilt 6 stations')?.outcome).toBe('true');
    expect(byStart('Average fares fell by 3%')?.outcome).toBe('true');
    expect(['false', 'mostly_false']).toContain(byStart('We spent £31 million')?.outcome);
    expect(byStart('We will add 14 new carriages')?.outcome).toBe('false');
    const depot = byStart('We will open a new depot');
    expect(depot?.outcome).toBe('true');
    expect(depot?.on_time).toBe(true);
    expect(['true', 'mostly_true']).toContain(byStart('Marrowby Rail ran 48,200 services')?.outcome);
    for (const c of result.claims) {
      for (const e of c.evidence) expect(e.independent_of_subject).toBe(!e.url.startsWith('https://marrowby-rail.example'));
    }
  });
});

describe('research command', () => {
  it('runs the pipeline from the command line and stores the report', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(NODE, ['scripts/research.ts', 'Imogen Thale', '--today', TODAY, '--json'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }, timeout: 60_000 });
    // --json names fields as the API does: snake_case.
    const out = z.object({ status: z.literal('complete'), report_id: z.string().startsWith('rep_'), report: ReportSchema }).parse(JSON.parse(stdout));
    const { rows } = await db.pool.query('SELECT subject_id FROM reports WHERE id = $1', [out.report_id]);
    expect(rows[0].subject_id).toBe(subjectIdFor('person', 'Imogen Thale'));
  });

  it('lists the candidates of an ambiguous name and exits 4', async () => {
    const run = promisify(execFile);
    const err = await run(NODE, ['scripts/research.ts', 'Jordan Avery'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url }, timeout: 60_000 }).catch((e) => e);
    expect(err.code).toBe(4);
    expect(err.stderr).toMatch(/person/);
    expect(err.stderr).toMatch(/organisation/);
  });
});
