import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { JobPollSchema, StatusSchema } from '../core/schemas/resources.ts';
import { bearer, startTestApp, type TestApp } from './helpers/app.ts';
import { until } from './helpers/poll.ts';
import { SUBJECT, startSimulatedWeb, type Page, type SimulatedWeb } from './helpers/simulated-web.ts';
import { startWikidataServer, type FakeServer } from './helpers/web-servers.ts';
import { wdItem, wdPosition } from './helpers/wikidata-fixtures.ts';

/**
 * Issue #14: a report asked for by a name the service has never seen, end to
 * end on the simulated web (test/helpers/simulated-web.ts: SearXNG search,
 * pages through the safe fetcher, Google Fact Check Tools, an OpenAI-compatible
 * model) with Wikidata's API on loopback too (test/helpers/web-servers.ts).
 * Every server speaks its documented wire format; nothing of ours is mocked.
 * The model's identification answers go by the name (simulated-web.ts says how).
 */

/** An invented river ecologist on Wikidata, with her own field notes and an independent trust's review. */
const OSTROW = 'Wenna Ostrow';
const OSTROW_PAGES: Page[] = [
  {
    path: '/ostrow/field-notes-2025', title: 'Field notes 2025 (sample)', publisher: OSTROW, published: '2025-04-01',
    paragraphs: [
      'Wenna Ostrow counted 140 otters on the Lunfield river in 2024.',
      'The Lunfield survey found 36 kingfisher nests in 2024.',
      'Water clarity in the Lunfield improved 18% in 2024.',
      'Our team trained 25 volunteer surveyors in 2024.',
      'The Lunfield basin lost 9 hectares of reed bed in 2024.',
      'Surveyors logged 52 heron sightings on the Lunfield in 2024.',
    ],
  },
  {
    path: '/lunfield/trust-review-2025', title: 'Lunfield river review 2024 (sample)', publisher: 'Lunfield Rivers Trust', published: '2025-08-01',
    paragraphs: [
      'The trust confirmed 140 otters on the Lunfield river in 2024.',
      'Volunteers recorded 36 kingfisher nests on the Lunfield in 2024, the trust found.',
      'Water clarity in the Lunfield improved 18% in 2024, according to the trust.',
      'The trust counted 25 volunteer surveyors trained in 2024.',
      'The Lunfield basin lost 9 hectares of reed bed in 2024, the trust reported.',
      'The trust counted 52 heron sightings on the Lunfield in 2024.',
    ],
  },
];

const ASSEMBLY = 'Q9100';
const ENTITIES = [
  wdItem({ id: 'Q9001', label: OSTROW, description: 'SAMPLE (invented) river ecologist', instanceOf: ['Q5'], sitelinks: ['enwiki'] }),
  wdItem({ id: 'Q9002', label: 'Marta Kell', description: 'SAMPLE (invented) assembly member', instanceOf: ['Q5'], positions: [{ position: ASSEMBLY, start: '2022-05-01' }] }),
  wdPosition(ASSEMBLY, 'Member of the Lunfield Assembly'),
];

let web: SimulatedWeb;
let wikidata: FakeServer;
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  web = await startSimulatedWeb({ extraPages: OSTROW_PAGES });
  wikidata = await startWikidataServer({ entities: ENTITIES });
  t = await startTestApp({
    ...web.env,
    KNOWLEDGE_PROVIDER: 'wikidata', KNOWLEDGE_BASE_URL: wikidata.url,
    // The fetcher may reach both loopback ranges: a URL of a request that were fetched would connect (the urls test).
    FETCH_ALLOW_CIDRS: '127.0.0.1/32,::1/128',
    // A model that fails is not asked again by the SDK, and one that does not answer gives up soon: the job's own retries remain.
    MODEL_MAX_RETRIES: '0', MODEL_TIMEOUT_MS: '1500',
    RATE_LIMIT_PER_MINUTE: '10000', DAILY_JOB_LIMIT: '1000', PIPELINE_THREADS: '0',
  }, 'new_subject', { workers: true });
  headers = bearer(await t.key());
});

afterAll(async () => {
  await t?.close();
  await wikidata?.close();
  await web?.close();
});

const post = (payload: object) => t.app.inject({ method: 'POST', url: '/v1/reports', headers, payload });

async function finished(jobId: string, timeoutMs = 60_000) {
  return until(async () => {
    const body = JobPollSchema.parse((await t.app.inject({ method: 'GET', url: `/v1/reports/${jobId}`, headers })).json());
    return ['complete', 'insufficient', 'refused', 'failed'].includes(body.status) ? body : null;
  }, `job ${jobId}`, timeoutMs);
}

/** POST, expect 202, wait for the job's end. */
async function reportJob(payload: object, timeoutMs?: number) {
  const res = await post(payload);
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toMatchObject({ status: 'queued', poll: `/v1/reports/${res.json().job_id}` });
  return finished(res.json().job_id as string, timeoutMs);
}

const status = async () => StatusSchema.parse((await t.app.inject({ method: 'GET', url: '/v1/status', headers })).json());

const identifyCalls = (name: string) =>
  web.model.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'identify' && JSON.parse(r.body.messages.find((m: { role: string }) => m.role === 'user').content).name === name);

async function storedSubject(name: string) {
  const { rows } = await t.db.pool.query(`SELECT id, kind, public_figure, offices, urls, extra FROM subjects WHERE name = $1`, [name]);
  return rows;
}

describe('a name the service has never seen becomes a report', () => {
  it('a new organisation: identified by the model, stored, researched on the web, and stored for the next caller', async () => {
    const before = await status();
    const calls0 = web.model.requests.length;
    const job = await reportJob({ name: SUBJECT.name, kind: 'organisation' });
    expect(job.status, job.reason ?? '').toBe('complete');
    const id = subjectIdFor('organisation', SUBJECT.name);
    expect(job.report!.subject).toMatchObject({ subject_id: id, name: SUBJECT.name, kind: 'organisation', public_figure: true, serving_politician: false });
    expect(job.report!.score.n_resolved).toBeGreaterThanOrEqual(5);
    // Wikidata was asked first and did not know it; then one short identification call.
    expect(wikidata.requests.some((r) => r.query.action === 'wbsearchentities' && r.query.search === SUBJECT.name)).toBe(true);
    expect(identifyCalls(SUBJECT.name)).toHaveLength(1);
    const [stored] = await storedSubject(SUBJECT.name);
    expect(stored).toMatchObject({ id, kind: 'organisation', public_figure: true, urls: [], extra: { identified_by: 'model', model: 'simulated-model' } });
    // Its claims came from its own pages on the web, through search and the safe fetcher.
    const claims = (await t.app.inject({ method: 'GET', url: `/v1/subjects/${id}/claims?page_size=200`, headers })).json().claims as { source: { url: string } }[];
    expect(claims.length).toBe(6);
    expect(claims.every((c) => c.source.url.startsWith(`${web.pagesUrl}/corvale/`))).toBe(true);

    // The status before and after: the model calls and the cost of one new-subject report.
    const after = await status();
    const calls = after.spend.calls - before.spend.calls;
    expect(calls).toBe(web.model.requests.length - calls0);
    expect(calls).toBe(21); // 1 identify + 4 extract + 6 fixed tests + 10 judges
    const usd = after.spend.spent_usd - before.spend.spent_usd;
    expect(usd).toBeCloseTo(calls * (400 * 3 + 60 * 15) / 1e6, 5);
    console.log(`new subject, one report: ${calls} model calls, $${usd.toFixed(4)} (GET /v1/status spend.calls ${before.spend.calls} → ${after.spend.calls}, spent_usd ${before.spend.spent_usd} → ${after.spend.spent_usd})`);

    // The next caller gets the stored report at once, by name, with no model call.
    const again = await post({ name: SUBJECT.name });
    expect(again.statusCode).toBe(200);
    expect(again.json().report_id).toBe(job.report_id);
    expect(web.model.requests.length - calls0).toBe(calls);
  });

  it('a new public person: known to Wikidata, researched without a model call to identify them', async () => {
    const job = await reportJob({ name: OSTROW, kind: 'person' });
    expect(job.status, job.reason ?? '').toBe('complete');
    expect(job.report!.subject).toMatchObject({ name: OSTROW, kind: 'person', public_figure: true, serving_politician: false });
    expect(identifyCalls(OSTROW)).toHaveLength(0);
    expect((await storedSubject(OSTROW))[0].extra).toMatchObject({ wikidata: 'Q9001' });
  });

  it('a serving politician is refused: whether Wikidata or only the model says so', async () => {
    const onWikidata = await reportJob({ name: 'Marta Kell' });
    expect(onWikidata.status).toBe('refused');
    expect(onWikidata.reason).toMatch(/holds political office now/);
    const byModel = await reportJob({ name: 'Senator Quill Harrow' });
    expect(byModel.status).toBe('refused');
    expect(byModel.reason).toMatch(/Senator Quill Harrow holds political office now/);
    expect(identifyCalls('Senator Quill Harrow')).toHaveLength(1);
    expect(byModel.report).toBeNull();
  });

  it('the model\'s word only in the cautious direction: a person it calls public but Wikidata does not know needs consent_ref', async () => {
    const job = await reportJob({ name: 'Dr Orla Fenn' });
    expect(job.status).toBe('refused');
    expect(job.reason).toMatch(/not a public figure; a report needs consent_ref/);
    expect((await storedSubject('Dr Orla Fenn'))[0]).toMatchObject({ kind: 'person', public_figure: false });
  });

  it('a private person: refused without consent_ref, researched with it (and a new one sent with consent_ref at once)', async () => {
    const without = await reportJob({ name: 'Ms Ines Varga' });
    expect(without.status).toBe('refused');
    expect(without.reason).toMatch(/Ms Ines Varga is not a public figure; a report needs consent_ref/);
    // Now a known subject: the same name with consent_ref is researched (the simulated web has nothing she said: too few claims).
    const withConsent = await reportJob({ name: 'Ms Ines Varga', consent_ref: 'consent-2026-0142' });
    expect(withConsent.status).toBe('insufficient');
    expect(withConsent.reason).toMatch(/resolved claims/);
    expect(identifyCalls('Ms Ines Varga')).toHaveLength(1);
    const fresh = await reportJob({ name: 'Mr Tomas Brell', consent_ref: 'consent-2026-0143' });
    expect(fresh.status).toBe('insufficient');
    expect(fresh.reason).toMatch(/resolved claims/);
    expect((await storedSubject('Mr Tomas Brell'))[0]).toMatchObject({ kind: 'person', public_figure: false });
  });

  it('a name the model cannot place ends insufficient with the reason; a kind that would lift the rules on persons is not taken', async () => {
    const nobody = await reportJob({ name: 'Nobody We Know' });
    expect(nobody.status).toBe('insufficient');
    expect(nobody.reason).toMatch(/"Nobody We Know" could not be identified as one person, organisation or outlet/);
    expect(await storedSubject('Nobody We Know')).toEqual([]);
    // Sent as an organisation, identified as a person: not placed, and the person rules are not bypassed.
    const posing = await reportJob({ name: 'Mr Edric Vale', kind: 'organisation' });
    expect(posing.status).toBe('insufficient');
    expect(posing.reason).toMatch(/asked for as an organisation, but it is identified as a person; ask again with kind person/);
    expect(await storedSubject('Mr Edric Vale')).toEqual([]);
  });

  it('callers asking for the same new name meanwhile share one job, and one identification', async () => {
    const name = 'Dalmere Ferry Company';
    const [a, b] = await Promise.all([post({ name }), post({ name })]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    expect(b.json().job_id).toBe(a.json().job_id);
    const job = await finished(a.json().job_id);
    expect(['complete', 'insufficient']).toContain(job.status);
    expect(identifyCalls(name)).toHaveLength(1);
  });

  it('urls sent for a new subject are identifiers only: named to the model, never fetched (loopback, localhost, [::1])', async () => {
    const connections: string[] = [];
    const listen = async (host: string) => {
      const server = net.createServer((socket) => {
        connections.push(`${host} ${socket.remoteAddress}`);
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, host, resolve));
      return server;
    };
    const v4 = await listen('127.0.0.1');
    const v6 = await listen('::1');
    try {
      const p4 = (v4.address() as AddressInfo).port;
      const p6 = (v6.address() as AddressInfo).port;
      const urls = [`http://127.0.0.1:${p4}/about`, `http://localhost:${p4}/statements`, `http://[::1]:${p6}/news`];
      const name = 'Harrowgate Ferry Services';
      const job = await reportJob({ name, kind: 'organisation', urls });
      expect(['complete', 'insufficient']).toContain(job.status);
      // The model was told them, as identifiers.
      const [call] = identifyCalls(name);
      expect(JSON.parse(call!.body.messages.find((m: { role: string }) => m.role === 'user').content).urls).toEqual(urls);
      // Not kept as the subject's own sites (which decide what evidence is independent of it).
      expect((await storedSubject(name))[0].urls).toEqual([]);
      // A later report by id researches the subject again: still no connection.
      const byId = await reportJob({ subject_id: subjectIdFor('organisation', name), refresh: true });
      expect(['complete', 'insufficient']).toContain(byId.status);
      expect(connections).toEqual([]);
    } finally {
      await new Promise((resolve) => v4.close(resolve));
      await new Promise((resolve) => v6.close(resolve));
    }
  });

  it('a model that fails or never answers: the job ends failed with a reason, and nothing is stored', async () => {
    const failing = post({ name: 'Failing Signal Ltd', kind: 'organisation' });
    const silent = post({ name: 'Silent Harbour Ltd', kind: 'organisation' });
    const [a, b] = await Promise.all([failing, silent]);
    expect([a.statusCode, b.statusCode]).toEqual([202, 202]);
    // Each attempt asks once (MODEL_MAX_RETRIES=0); the job is tried three times (pg-boss retries with backoff), then ends.
    const [fa, fb] = await Promise.all([finished(a.json().job_id, 110_000), finished(b.json().job_id, 110_000)]);
    expect(fa.status).toBe('failed');
    expect(fa.reason).toMatch(/call for "identify" failed: answered HTTP 500/);
    expect(fb.status).toBe('failed');
    expect(fb.reason).toMatch(/call for "identify" failed: timed out/);
    for (const reason of [fa.reason!, fb.reason!]) expect(reason).not.toMatch(/sk-simulated|Traceback|\bat .*\.ts:\d+/);
    expect(identifyCalls('Failing Signal Ltd')).toHaveLength(3);
    expect(await storedSubject('Failing Signal Ltd')).toEqual([]);
    expect(await storedSubject('Silent Harbour Ltd')).toEqual([]);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM reports r JOIN jobs j ON j.id = ANY(ARRAY[$1, $2]) WHERE r.id = j.report_id`, [a.json().job_id, b.json().job_id]);
    expect(rows[0].n).toBe(0);
  }, 120_000);
});
