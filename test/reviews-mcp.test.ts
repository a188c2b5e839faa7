import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { createKey } from '../core/keys.ts';
import { ClaimsPageSchema, StoredReportSchema } from '../core/schemas/resources.ts';
import { ReportReviewStateSchema } from '../core/schemas/reviews.ts';
import { bearer } from './helpers/app.ts';
import { call, connect, startMcp, text, type Connected, type Started } from './helpers/mcp.ts';

/**
 * Editorial review through the MCP tools, with the SDK's own Client (which
 * checks every structured answer against the tool's published output
 * schema): reviewed and unreviewed verdicts read differently, every
 * unreviewed one keeps the label, and a signed-off report says who signed it
 * and what the machine's score was. Reviews are made through the REST
 * routes, as a reviewer makes them.
 */

let s: Started;
let c: Connected;
let editor: Record<string, string>;
const BRIGHTWATER = subjectIdFor('organisation', 'Brightwater Utilities');
const LABEL = 'machine-generated, unreviewed';

const rest = async (method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) => {
  const res = await s.t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
};
const claimsOf = async () => ClaimsPageSchema.parse((await rest('GET', `/v1/subjects/${BRIGHTWATER}/claims?page_size=200`, editor)).body);
const evidence = (claim_id: string) => call(c, 'get_evidence', { subject_id: BRIGHTWATER, claim_id });

beforeAll(async () => {
  s = await startMcp({}, 'reviews_mcp');
  c = await connect(s);
  editor = bearer((await createKey(s.t.db.pool, 'mcp-editor', ['read', 'review'])).key);
}, 120_000);
afterAll(async () => {
  await c?.client.close();
  await s.t.close();
});

describe('the MCP tools and editorial review', () => {
  let reportId: string;
  let confirmed: string;
  let corrected: string;

  it('before any review: the report and every verdict carry the label, and say no claim is reviewed yet', async () => {
    const r = await call(c, 'lookup_reliability', { name: 'Brightwater Utilities' });
    expect(r.isError, text(r)).toBeFalsy();
    const out = r.structuredContent as { review_status: string; report_id: string; review: { claims_reviewed: number; claims_total: number } };
    reportId = out.report_id;
    expect(out.review_status).toBe(LABEL);
    expect(out.review).toMatchObject({ claims_reviewed: 0, signed_off_by: null });
    expect(text(r).split('\n')[0]).toMatch(/\[machine-generated, unreviewed\]$/);
    expect(text(r).split('\n')[1]).toBe(`Not yet reviewed (${LABEL}): 0 of ${out.review.claims_total} claims reviewed by a person so far.`);
  });

  it('a confirmed and a corrected claim read as reviewed, with the machine\'s verdict beside; an unreviewed one keeps the label', async () => {
    const report = StoredReportSchema.parse((await rest('GET', `/v1/reports/${reportId}`, editor)).body);
    [confirmed, corrected] = report.report.featured_claims.slice(0, 2).map((f) => f.claim_id) as [string, string];
    const page = await claimsOf();
    const a = page.claims.find((x) => x.claim_id === confirmed)!;
    const b = page.claims.find((x) => x.claim_id === corrected)!;
    const newOutcome = b.outcome === 'false' ? 'mostly_true' : 'false';
    expect((await rest('POST', `/v1/claims/${confirmed}/review`, editor, { version: a.review.version, outcome: a.outcome, rationale: 'The evidence bears it out.', reviewer: 'Ada Editor' })).status).toBe(200);
    expect((await rest('POST', `/v1/claims/${corrected}/review`, editor, { version: b.review.version, outcome: newOutcome, rationale: 'The regulator\'s table says otherwise.', reviewer: 'Ben Checker' })).status).toBe(200);

    const one = await evidence(confirmed);
    expect(one.isError, text(one)).toBeFalsy();
    expect(one.structuredContent).toMatchObject({ review_status: 'reviewed', claim: { review_status: 'reviewed', review: { decision: 'confirmed', reviewer: 'Ada Editor' } } });
    expect(text(one)).toMatch(new RegExp(`Outcome: ${a.outcome} \\[reviewed: confirmed by Ada Editor on \\d{4}-\\d{2}-\\d{2}; the machine said ${a.outcome}\\]\\. The evidence bears it out\\.`));

    const two = await evidence(corrected);
    expect(two.structuredContent).toMatchObject({ claim: { outcome: newOutcome, machine_verdict: { outcome: b.outcome }, review: { decision: 'corrected' } } });
    expect(text(two)).toContain(`Outcome: ${newOutcome} [reviewed: corrected by Ben Checker on`);
    expect(text(two)).toContain(`the machine said ${b.outcome}]`);

    const open = page.claims.find((x) => x.review_status === LABEL && x.claim_id !== confirmed && x.claim_id !== corrected)!;
    const three = await evidence(open.claim_id);
    expect(three.structuredContent).toMatchObject({ review_status: LABEL, claim: { review: { decision: null } } });
    expect(text(three)).toContain(`Outcome: ${open.outcome} [${LABEL}].`);

    const r = await call(c, 'lookup_reliability', { name: 'Brightwater Utilities' });
    expect(r.structuredContent).toMatchObject({ review_status: LABEL, review: { claims_reviewed: 2 } });
    expect(text(r).split('\n')[1]).toMatch(/^Not yet reviewed \(machine-generated, unreviewed\): 2 of \d+ claims reviewed by a person so far\.$/);
  });

  it('once signed off: the report reads as reviewed, with who signed it and the machine\'s score, and the reviewed score as its overall', async () => {
    for (;;) {
      const st = ReportReviewStateSchema.parse((await rest('GET', `/v1/reports/${reportId}/review`, editor)).body);
      if (st.missing.length === 0) break;
      const x = (await claimsOf()).claims.find((y) => y.claim_id === st.missing[0])!;
      expect((await rest('POST', `/v1/claims/${x.claim_id}/review`, editor, { version: x.review.version, outcome: x.outcome, rationale: 'Checked.', reviewer: 'Ada Editor' })).status).toBe(200);
    }
    const machine = StoredReportSchema.parse((await rest('GET', `/v1/reports/${reportId}`, editor)).body).report.score;
    const signed = await rest('POST', `/v1/reports/${reportId}/review`, editor, { reviewer: 'Ada Editor' });
    expect(signed.status).toBe(200);
    const r = await call(c, 'lookup_reliability', { name: 'Brightwater Utilities' });
    expect(r.isError, text(r)).toBeFalsy();
    const out = r.structuredContent as { review_status: string; overall: { score: number }; review: { signed_off_by: string; machine_score: { score: number } } };
    expect(out.review_status).toBe('reviewed');
    expect(out.review).toMatchObject({ signed_off_by: 'Ada Editor', machine_score: machine });
    expect(out.overall.score).toBe(signed.body.reviewed_score.score);
    const lines = text(r).split('\n');
    expect(lines[0]).toMatch(/\[reviewed\]$/);
    expect(lines[1]).toMatch(new RegExp(`^Reviewed: signed off by Ada Editor on \\d{4}-\\d{2}-\\d{2}, after \\d+ of \\d+ claims were reviewed by a person; the score is recomputed with the reviewed outcomes \\(the machine's score was ${machine.score}\\)\\.$`));
    expect(lines.filter((l) => l.startsWith('Featured ('))).not.toHaveLength(0);
    for (const l of lines.filter((x) => x.startsWith('Featured ('))) expect(l).toMatch(/^Featured \([a-z_]+, reviewed by a person\)/);
  });
});
