import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPack } from '../core/corpus/ingest.ts';
import { subjectIdFor } from '../core/corpus/pack.ts';
import { FoundClaimSchema, JobPollSchema } from '../core/schemas/resources.ts';
import { bearer } from './helpers/app.ts';
import { connect, startMcp, type Started } from './helpers/mcp.ts';
import { until } from './helpers/poll.ts';

/**
 * A report job that ends `insufficient` after its research says what it found:
 * every claim, judged, with its evidence and no score, beside the reason (how
 * many were resolved, how many a report needs); through REST and through the
 * MCP tool, whose answer the SDK client checks against the published schema.
 * The minimal pack's subject makes two claims: too few for a report.
 */

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-pack.jsonl', import.meta.url));
let s: Started;
let key: Record<string, string>;

beforeAll(async () => {
  s = await startMcp({}, 'insufficient_claims');
  await ingestPack(s.t.db.pool, createReadStream(MINIMAL));
  key = bearer(s.key);
});
afterAll(() => s.t.close());

describe('an insufficient report job', () => {
  it('gives the claims it found, judged, with no id and no score, beside the reason', async () => {
    const res = await s.t.app.inject({ method: 'POST', url: '/v1/reports', headers: key, payload: { subject_id: subjectIdFor('organisation', 'Harrowgate Water') } });
    expect(res.statusCode).toBe(202);
    const jobId = res.json().job_id as string;
    const job = await until(async () => {
      const body = JobPollSchema.parse((await s.t.app.inject({ method: 'GET', url: `/v1/reports/${jobId}`, headers: key })).json());
      return body.status === 'queued' || body.status === 'running' ? undefined : body;
    }, `job ${jobId} to end`, 60_000);
    expect(job.status).toBe('insufficient');
    expect(job.reason).toMatch(/resolved/);
    expect(job.report).toBeNull();
    expect(job.results).toBeNull();
    const claims = job.claims!;
    expect(claims.map((c) => c.quote).sort()).toEqual(['Harrowgate Water cut leakage by 9% in 2024.', 'We will replace 400 km of mains by the end of 2026.']);
    for (const c of claims) {
      expect(FoundClaimSchema.strict().parse(c)).toEqual(c);
      expect(c).not.toHaveProperty('claim_id');
      expect(c.review_status).toBe('machine-generated, unreviewed');
      expect(c.source.url).toBe('https://harrowgate-water.example/news/leaks');
    }
    // The regulator's report settles the leakage claim; the mains promise is not yet due.
    const leakage = claims.find((c) => c.quote.startsWith('Harrowgate'))!;
    expect(['true', 'mostly_true']).toContain(leakage.outcome);
    expect(leakage.evidence.some((e) => e.independent_of_subject)).toBe(true);
    expect(claims.find((c) => c.quote.startsWith('We will'))!.outcome).toBe('pending');
    // Nothing of it was stored as a report or as claims.
    expect((await s.t.db.pool.query(`SELECT count(*)::int AS n FROM reports WHERE subject_id = $1`, [subjectIdFor('organisation', 'Harrowgate Water')])).rows[0].n).toBe(0);
  });

  it('gives them through the MCP tool too, in an answer the SDK client accepts', async () => {
    const { client } = await connect(s);
    const r = await client.callTool({ name: 'lookup_reliability', arguments: { name: 'Harrowgate Water' } });
    const out = r.structuredContent as { status: string; reason: string; message: string; claims: Array<{ quote: string; outcome: string }> };
    expect(out.status).toBe('insufficient');
    expect(out.claims).toHaveLength(2);
    expect(out.message).toMatch(/It found 2 claims/);
  });
});
