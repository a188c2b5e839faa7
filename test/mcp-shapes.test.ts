import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { REVIEW_LABEL, type ClaimType, type ResolvedOutcome } from '../core/method/outcomes.ts';
import { scoreClaims } from '../core/method/score.ts';
import { methodVersion } from '../core/method/version.ts';
import { claimIdFor } from '../core/reports/ids.ts';
import { storeReport, type StoredClaim } from '../core/reports/store.ts';
import { CheckResultSchema, ClaimSchema, SubjectCandidateSchema, SubjectSchema } from '../core/schemas/resources.ts';
import { bearer } from './helpers/app.ts';
import { call, connect, startMcp, text, type Connected, type Started } from './helpers/mcp.ts';
import { until } from './helpers/poll.ts';

/**
 * Every answer of the three tools, through the SDK `Client` (which checks each
 * structured answer against the tool's published output schema, and
 * `call` checks it once more): every subject kind, reports with all score
 * keys and with only some, stale, pending, ambiguous, insufficient and
 * refused, on subjects with every optional field set.
 */

// Subjects of a pack of our own, every optional field set; one statement each, too few for a score.
const office = (title: string) => ({ title, from: '2009-01-05', to: '2015-06-30' });
const OWN = [
  ['Marta Quillon', 'person', 'marine economist at Quillon University; harbour commissioner from 2009 to 2015', 'Harbour Commissioner of Quillon'],
  ['Quillon Harbour Trust', 'organisation', 'trust that runs the port of Quillon', 'Port authority of Quillon'],
  ['The Quillon Gazette', 'outlet', 'weekly newspaper of Quillon', 'Official gazette of Quillon county'],
].map(([name, kind, what, title]) => {
  const slug = name!.toLowerCase().replace(/^the /, '').replace(/\s+/g, '-');
  return {
    record: 'subject', name: name!, kind: kind!, aliases: [`${name} (test)`, slug], description: `TEST DATA (invented): ${what}.`, public_figure: true,
    offices: [office(title!)], urls: [`https://${slug}.example`, `https://quillon-directory.example/${slug}`], handles: [`@${slug.replace(/-/g, '_')}_test`],
  };
});
type Own = (typeof OWN)[number] & { id: string };
const [MARTA, TRUST, GAZETTE] = OWN.map((s) => ({ ...s, id: subjectIdFor(s.kind, s.name) })) as [Own, Own, Own];
const ownPack = () =>
  Readable.from(
    [...OWN, ...OWN.map((s) => ({ record: 'document', url: `${s.urls[0]}/news/2024-ships`, title: 'Ships in 2023', publisher: s.name, published: '2024-03-01', speakers: [s.name], text: `${s.name} handled 12,000 ships in 2023.` }))].map(
      (r) => `${JSON.stringify(r)}\n`,
    ),
  );

/**
 * A stored report made as the worker makes one (the scoring method on judged
 * claims), on claims with every field set, and with a subject object that
 * carries more than the Subject schema lists (urls, handles, offices), as a
 * report stored by another version of the pipeline could: the REST route
 * serves stored reports as they are stored.
 */
async function storeCrafted(s: Started, subject: Own, plan: [ClaimType, ResolvedOutcome][]) {
  const claims: StoredClaim[] = plan.map(([type, outcome], i) => {
    const url = `${subject.urls[0]}/statements/${i}`;
    const quote = `${subject.name} statement ${i} (${type}).`;
    return {
      claim_id: claimIdFor(subject.id, url, quote), claim_type: type, topic: 'transport', quote, quote_verified: true, said_on: `2023-0${1 + (i % 9)}-15`,
      source: { url, title: `Statement ${i}`, outlet: subject.name, published: `2023-0${1 + (i % 9)}-15` },
      resolution_criteria: `Statement ${i} holds if the port records for 2023 show it.`, due: type === 'factual' ? null : '2024-12-31', outcome,
      on_time: type === 'promise' ? i % 2 === 0 : null, rationale: `The port records settle statement ${i}.`,
      evidence: [{ url: `https://port-records.example/${i}`, publisher: 'Quillon Port Records Office', published: '2024-02-01', quote: `Record ${i}.`, independent_of_subject: true }],
      judges_disagree: i === 1,
    };
  });
  const scored = scoreClaims(claims.map((c) => ({ claim_id: c.claim_id, claim_type: c.claim_type as ClaimType, topic: 'transport', outcome: c.outcome as ResolvedOutcome, judges_disagree: c.judges_disagree as boolean, on_time: c.on_time as boolean | null, quote: c.quote as string, said_on: c.said_on! })));
  if (scored.status !== 'scored') throw new Error('the crafted claims should score');
  const { record: _record, id: _id, ...known } = subject;
  const report = {
    subject: { subject_id: subject.id, ...known, public_figure: true, serving_politician: false, demo: false },
    method_version: methodVersion(), score: scored.score, scores: scored.scores, featured_claims: scored.featured_claims, caveats: scored.caveats, review_status: REVIEW_LABEL,
  };
  return (await storeReport(s.t.db.pool, { subjectId: subject.id, methodVersion: methodVersion(), depth: 'quick', topic: null, report, claims })).reportId;
}

type Lookup = {
  status: string; message: string; review_status?: string; subject?: Record<string, unknown>; overall?: { score: number }; scores?: Record<string, unknown>;
  featured_claims?: { claim_id: string }[]; caveats?: { code: string }[]; report_id?: string; stale?: boolean; job_id?: string; reason?: string; candidates?: Record<string, unknown>[];
};
const lookup = async (c: Connected, args: Record<string, unknown>) => {
  const r = await call(c, 'lookup_reliability', args);
  expect(r.isError, text(r)).toBeFalsy();
  return { r, s: r.structuredContent as Lookup };
};

let s: Started;
let c: Connected;
let headers: Record<string, string>;
const rest = async (url: string) => (await s.t.app.inject({ method: 'GET', url, headers })).json();

beforeAll(async () => {
  s = await startMcp({}, 'mcp_shapes');
  await ingestPack(s.t.db.pool, ownPack());
  headers = bearer(s.key);
  c = await connect(s);
});
afterAll(async () => {
  await c.client.close();
  await s.t.close();
});

describe('the tools\' schemas are the REST ones', () => {
  it('publish input limits and output objects of core/schemas', () => {
    const tool = (n: string) => c.tools.find((t) => t.name === n)!;
    const props = (n: string) => tool(n).inputSchema.properties as Record<string, { maxLength?: number }>;
    expect([props('lookup_reliability').name!.maxLength, props('lookup_reliability').subject_id!.maxLength, props('lookup_reliability').topic!.maxLength]).toEqual([300, 100, 200]);
    expect(props('check_claims').text!.maxLength).toBe(50_000);
    const defs = (n: string) => (tool(n).outputSchema as unknown as { definitions: Record<string, { properties: Record<string, unknown>; additionalProperties?: boolean }> }).definitions;
    expect(Object.keys(defs('lookup_reliability').Subject!.properties).sort()).toEqual(Object.keys(SubjectSchema.shape).sort());
    expect(Object.keys(defs('lookup_reliability').SubjectCandidate!.properties).sort()).toEqual(Object.keys(SubjectCandidateSchema.shape).sort());
    expect(Object.keys(defs('check_claims').CheckResult!.properties).sort()).toEqual(Object.keys(CheckResultSchema.shape).sort());
    expect(Object.keys(defs('get_evidence').Claim!.properties).sort()).toEqual(Object.keys(ClaimSchema.shape).sort());
    // What made the SDK client refuse a report: objects that admit nothing unlisted.
    expect(defs('lookup_reliability').Subject!.additionalProperties).toBe(false);
  });
});

describe('lookup_reliability', () => {
  const SAMPLE = [
    { name: 'Brightwater Utilities', kind: 'organisation', aliases: ['Brightwater', 'Brightwater Utilities plc'] },
    { name: 'Imogen Thale', kind: 'person', aliases: ['Dr Imogen Thale', 'Professor Imogen Thale'] },
    { name: 'The Eastmere Ledger', kind: 'outlet', aliases: ['Eastmere Ledger', 'The Ledger'] },
  ];
  for (const subject of SAMPLE) {
    it(`a complete report on a source pack's ${subject.kind}: the subject as the Subject schema has it, the scores as the report has them`, async () => {
      const { r, s: out } = await lookup(c, { name: subject.name });
      expect(out.status).toBe('complete');
      expect(out.subject).toMatchObject({ subject_id: subjectIdFor(subject.kind, subject.name), name: subject.name, kind: subject.kind, aliases: subject.aliases, public_figure: true, serving_politician: false, demo: false });
      expect(Object.keys(out.subject!).sort()).toEqual(Object.keys(SubjectSchema.shape).sort());
      expect(out.subject!.description).toMatch(/^SAMPLE DATA \(invented\)/);
      const stored = await rest(`/v1/reports/${out.report_id}`);
      const { overall, ...byType } = stored.report.scores;
      expect(out.overall).toEqual(overall);
      expect(out.scores).toEqual(byType);
      expect(out.featured_claims).toEqual(stored.report.featured_claims);
      expect(out.caveats).toEqual(stored.report.caveats);
      expect(out).toMatchObject({ review_status: REVIEW_LABEL, stale: false, method_version: methodVersion(), html_url: `/v1/reports/${out.report_id}/html` });
      expect(text(r).split('\n')[0]).toBe(`${subject.name} (${subject.kind}): overall reliability ${overall.score} (80% range ${overall.interval_80[0]}–${overall.interval_80[1]}, ${overall.n_resolved} resolved claims, confidence ${overall.confidence.level}). [${REVIEW_LABEL}]`);
    });
  }

  it('a subject_id alone is enough, and gives the same stored report as the name', async () => {
    const byName = await lookup(c, { name: 'Brightwater Utilities' });
    const byId = await lookup(c, { subject_id: subjectIdFor('organisation', 'Brightwater Utilities') });
    expect(byId.s.status).toBe('complete');
    expect(byId.s.report_id).toBe(byName.s.report_id);
  });

  it('every score key present: a stored report whose subject carries more than the schema lists (urls, handles, offices)', async () => {
    // Five resolved claims of each type: a type's score needs five (content/methodology.md).
    const reportId = await storeCrafted(s, MARTA, [
      ['factual', 'true'], ['factual', 'mostly_false'], ['promise', 'true'], ['promise', 'false'],
      ['guidance', 'mostly_true'], ['guidance', 'mixed'], ['prediction', 'false'], ['prediction', 'true'],
      ...(['factual', 'promise', 'guidance', 'prediction'] as const).flatMap((t): [ClaimType, ResolvedOutcome][] => [[t, 'true'], [t, 'mixed'], [t, 'false']]),
    ]);
    // The REST route serves the stored report as stored, extra fields and all.
    expect((await rest(`/v1/reports/${reportId}`)).report.subject).toMatchObject({ urls: MARTA.urls, handles: MARTA.handles, offices: MARTA.offices });
    const { s: out } = await lookup(c, { name: 'Marta Quillon' });
    expect(out.report_id).toBe(reportId);
    expect(out.subject).toEqual({ subject_id: MARTA.id, name: MARTA.name, kind: 'person', aliases: MARTA.aliases, description: MARTA.description, public_figure: true, serving_politician: false, demo: false });
    expect(Object.keys(out.scores!).sort()).toEqual(['factual', 'guidance', 'prediction', 'promise']);
    expect(out.overall).toMatchObject({ n_resolved: 20 });
    expect(out.caveats!.map((k) => k.code)).toContain('judges_disagree');
  });

  it('stale, with only factual claims scored: served at once, marked stale, while a refresh job runs', async () => {
    const reportId = await storeCrafted(s, TRUST, [['factual', 'true'], ['factual', 'true'], ['factual', 'mostly_true'], ['factual', 'false'], ['factual', 'mixed']]);
    await s.t.db.pool.query(`UPDATE reports SET generated_at = now() - interval '100 days' WHERE id = $1`, [reportId]);
    const { r, s: out } = await lookup(c, { name: 'Quillon Harbour Trust' });
    expect(out).toMatchObject({ status: 'complete', report_id: reportId, stale: true });
    expect(out.subject).toMatchObject({ subject_id: TRUST.id, kind: 'organisation', aliases: TRUST.aliases });
    for (const extra of ['urls', 'handles', 'offices']) expect(out.subject).not.toHaveProperty(extra);
    expect(Object.keys(out.scores!)).toEqual(['factual']);
    expect(out.overall).toMatchObject({ n_resolved: 5 });
    expect(text(r)).toMatch(/\(stale: a refresh is running\)/);
    expect(text(r)).toMatch(/Promises: no score \(fewer than 5 resolved claims\)\./);
    const { rows } = await s.t.db.pool.query(`SELECT key_id FROM jobs WHERE subject_id = $1 AND kind = 'report'`, [TRUST.id]);
    expect(rows).toEqual([{ key_id: null }]);
  });

  it('insufficient: too few resolved claims, said as an answer with the reason, not as an error', async () => {
    const { r, s: out } = await lookup(c, { name: 'The Quillon Gazette' });
    expect(out.status).toBe('insufficient');
    expect(out.job_id).toMatch(/^job_/);
    expect(out.reason).toMatch(/a report needs at least 5 resolved claims/);
    expect(out).not.toHaveProperty('overall');
    expect(text(r)).toMatch(/^No report on "The Quillon Gazette": insufficient\. .*a report needs at least 5 resolved claims/);
  });

  it('refused: a serving politician, and a private person without consent_ref', async () => {
    const politician = await lookup(c, { name: 'Rafe Dunmore' });
    expect(politician.s).toMatchObject({ status: 'refused', job_id: expect.stringMatching(/^job_/) });
    expect(politician.s.reason).toMatch(/holds political office now/);
    const privatePerson = await lookup(c, { name: 'Tobias Wren' });
    expect(privatePerson.s.status).toBe('refused');
    expect(privatePerson.s.reason).toMatch(/not a public figure; a report needs consent_ref/);
  });

  it('ambiguous: the candidates with their descriptions; a candidate\'s subject_id then settles it', async () => {
    const { s: out } = await lookup(c, { name: 'Jordan Avery' });
    expect(out.status).toBe('ambiguous');
    expect(out.candidates!.map((k) => [k.kind, k.subject_id]).sort()).toEqual([
      ['organisation', subjectIdFor('organisation', 'Jordan Avery')],
      ['person', subjectIdFor('person', 'Jordan Avery')],
    ]);
    for (const k of out.candidates!) expect(Object.keys(k).sort()).toEqual(['description', 'kind', 'name', 'subject_id']);
    expect(out.candidates!.find((k) => k.kind === 'organisation')!.description).toMatch(/estate agency chain/);
    const chosen = await lookup(c, { subject_id: subjectIdFor('person', 'Jordan Avery') });
    expect(chosen.s).toMatchObject({ status: 'insufficient', reason: expect.stringMatching(/Only 0 of the 1 claim found are resolved/) });
  });

  it('passes topic to the report request: a report on that topic, never the stored whole-record report', async () => {
    const whole = await lookup(c, { name: 'Brightwater Utilities' });
    expect(whole.s.status).toBe('complete');
    const { r, s: out } = await lookup(c, { name: 'Brightwater Utilities', topic: 'environment' });
    expect(out.status).toBe('complete');
    expect(out.report_id).not.toBe(whole.s.report_id);
    expect(out.caveats!.map((k) => k.code)).toContain('topic_filter');
    expect(out.message).toMatch(/Only claims filed under the topic "environment" are scored\. \(You asked for the topic "environment"\.\)/);
    expect(text(r)).toMatch(/You asked for the topic "environment"/);
    expect((await rest(`/v1/reports/${out.report_id}`)).topic).toBe('environment');
  });

  it('an unknown topic is refused, with the allowed topics', async () => {
    const r = await c.client.callTool({ name: 'lookup_reliability', arguments: { name: 'Brightwater Utilities', topic: 'cheese' } }).catch((e: Error) => ({ isError: true, content: [{ type: 'text', text: e.message }] }));
    expect(r.isError).toBe(true);
    // The tool's input schema is the REST field's, refinement included: no job starts on a topic the method does not know.
    expect(text(r as Parameters<typeof text>[0])).toMatch(/Unknown topic; send one of economy, .*environment.*, other/);
  });

  it('a call with neither name nor subject_id is a tool error that says what to send', async () => {
    const r = await c.client.callTool({ name: 'lookup_reliability', arguments: { topic: 'health' } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/send name .* or the subject_id/);
  });
});

describe('get_evidence', () => {
  it('a claim with every field set, and a reply with role and counter-evidence: the claim as the claims list serves it', async () => {
    const subjectId = subjectIdFor('person', 'Imogen Thale');
    const page = await rest(`/v1/subjects/${subjectId}/claims?page_size=200`);
    const target = page.claims.find((k: { evidence: unknown[]; said_on: string | null }) => k.evidence.length > 0 && k.said_on) ?? page.claims[0];
    const reply = await s.t.app.inject({
      method: 'POST', url: '/v1/responses', headers,
      payload: { claim_id: target.claim_id, name: 'Imogen Thale', role: 'the subject', statement: 'The figure I gave was for 2019, not 2020.', counter_evidence_url: 'https://imogenthale.example/corrections/1' },
    });
    expect(reply.statusCode).toBe(200);
    const r = await call(c, 'get_evidence', { subject_id: subjectId, claim_id: target.claim_id });
    expect(r.isError, text(r)).toBeFalsy();
    const out = r.structuredContent as { subject_id: string; report_id: string; claim: Record<string, unknown>; review_status: string };
    const listed = (await rest(`/v1/subjects/${subjectId}/claims?page_size=200`)).claims.find((k: { claim_id: string }) => k.claim_id === target.claim_id);
    expect(out.claim).toEqual(listed);
    expect(out).toMatchObject({ subject_id: subjectId, report_id: page.report_id, review_status: REVIEW_LABEL });
    expect(out.claim.responses).toEqual([expect.objectContaining({ name: 'Imogen Thale', role: 'the subject', counter_evidence_url: 'https://imogenthale.example/corrections/1', status: 'response received, not yet reviewed' })]);
    expect(text(r)).toMatch(/Reply from Imogen Thale \(the subject\), response received, not yet reviewed: The figure I gave was for 2019, not 2020\. Counter-evidence: https:\/\/imogenthale\.example\/corrections\/1/);
  });

  it('a claim of a stored report with due, on_time and evidence all set', async () => {
    const page = await rest(`/v1/subjects/${MARTA.id}/claims?claim_type=promise`);
    const promise = page.claims.find((k: { on_time: boolean | null }) => k.on_time === true);
    const r = await call(c, 'get_evidence', { subject_id: MARTA.id, claim_id: promise.claim_id });
    expect(r.isError, text(r)).toBeFalsy();
    expect((r.structuredContent as { claim: unknown }).claim).toEqual(promise);
    expect(promise).toMatchObject({ due: '2024-12-31', on_time: true, evidence: [expect.objectContaining({ publisher: 'Quillon Port Records Office', published: '2024-02-01' })] });
  });

  it('an unknown claim, or a subject without a report, is a tool error', async () => {
    const missing = await call(c, 'get_evidence', { subject_id: MARTA.id, claim_id: 'clm_nope' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/^Not found: no claim clm_nope/);
    const noReport = await call(c, 'get_evidence', { subject_id: GAZETTE.id, claim_id: 'clm_nope' });
    expect(noReport.isError).toBe(true);
    expect(text(noReport)).toMatch(/^Not found: No stored report for subject/);
  });
});

describe('check_claims', () => {
  it('a text with no checkable claim: insufficient, with the reason', async () => {
    const r = await call(c, 'check_claims', { text: 'Hello and welcome. Thank you all for reading this.' });
    expect(r.isError, text(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 'insufficient', job_id: expect.stringMatching(/^job_/), reason: expect.stringMatching(/No checkable claim/) });
    expect(r.structuredContent).not.toHaveProperty('results');
  });

  it('needs exactly one of text and job_id', async () => {
    const neither = await c.client.callTool({ name: 'check_claims', arguments: {} });
    expect(neither.isError).toBe(true);
    expect(text(neither)).toMatch(/^Send text .* to start a check, or job_id to collect a check started earlier\.$/);
    const both = await c.client.callTool({ name: 'check_claims', arguments: { text: 'Brightwater cut leakage by 12% in 2024.', job_id: 'job_00000000000000000000' } });
    expect(both.isError).toBe(true);
    expect(text(both)).toMatch(/not both/);
  });

  it('a report job\'s id is not a check: a tool error that names the right tool', async () => {
    // Every keyed job of this database was asked for with the one key the client uses.
    const { rows } = await s.t.db.pool.query(`SELECT id FROM jobs WHERE kind = 'report' AND key_id IS NOT NULL ORDER BY created_at LIMIT 1`);
    const r = await c.client.callTool({ name: 'check_claims', arguments: { job_id: rows[0].id } });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/makes a report, not a check: collect it with lookup_reliability/);
  });
});

describe('pending: a job still running when the wait is over (MCP_WAIT_SECONDS=0)', () => {
  let p: Started;
  let pc: Connected;
  beforeAll(async () => {
    p = await startMcp({ MCP_WAIT_SECONDS: '0' }, 'mcp_pending');
    pc = await connect(p);
  });
  afterAll(async () => {
    await pc.client.close();
    await p.t.close();
  });
  const ended = (jobId: string) =>
    until(async () => {
      const { rows } = await p.t.db.pool.query(`SELECT status FROM jobs WHERE id = $1`, [jobId]);
      return ['complete', 'insufficient', 'refused', 'failed'].includes(rows[0]?.status) && rows[0].status;
    }, `job ${jobId}`, 60_000);

  it('lookup_reliability answers pending with the job, passes the topic on, and collects the topic report later', async () => {
    const first = await lookup(pc, { name: 'Brightwater Utilities', topic: 'environment' });
    expect(first.s).toMatchObject({ status: 'pending', job_id: expect.stringMatching(/^job_/) });
    expect(first.s.message).toMatch(/Call lookup_reliability again later with the same name and topic to collect it\./);
    const { rows } = await p.t.db.pool.query(`SELECT request FROM jobs WHERE id = $1`, [first.s.job_id]);
    expect(rows[0].request).toMatchObject({ topic: 'environment' });
    expect(await ended(first.s.job_id!)).toBe('complete');
    const second = await lookup(pc, { name: 'Brightwater Utilities', topic: 'environment' });
    expect(second.s.status).toBe('complete');
    expect(second.s.caveats!.map((k) => k.code)).toContain('topic_filter');
    expect(second.s.message).toMatch(/Only claims filed under the topic "environment" are scored\. \(You asked for the topic "environment"\.\)/);
  });

  it('check_claims answers pending with the job, and collects it with job_id alone', async () => {
    const first = await call(pc, 'check_claims', { text: 'Brightwater Utilities cut leakage by 12% in 2024. The company will open a new treatment works by 2027.' });
    expect(first.isError, text(first)).toBeFalsy();
    const started = first.structuredContent as { status: string; job_id: string; message: string };
    expect(started).toMatchObject({ status: 'pending', job_id: expect.stringMatching(/^job_/) });
    expect(started.message).toMatch(new RegExp(`Call check_claims again with job_id "${started.job_id}" \\(and no text\\)`));
    expect(await ended(started.job_id)).toBe('complete');
    const collected = await call(pc, 'check_claims', { job_id: started.job_id });
    expect(collected.isError, text(collected)).toBeFalsy();
    const out = collected.structuredContent as { status: string; results: { claim_id: string; text: string }[] };
    expect(out.status).toBe('complete');
    expect(out.results.length).toBeGreaterThan(0);
    expect(out.results.map((k) => k.text).join(' ')).toMatch(/cut leakage by 12% in 2024/);
    for (const k of out.results) expect(k.claim_id).toMatch(/^chk_/);
  });
});
