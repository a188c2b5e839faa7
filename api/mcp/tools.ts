import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CheckInput, CheckOutput, EvidenceInput, EvidenceOutput, LookupInput, LookupOutput } from './schemas.ts';
import { restError, type Rest, type RestAnswer } from './rest.ts';

/**
 * The MCP server: three tools over the REST routes, and nothing else. A fresh
 * server is built per request (stateless), around the caller's own REST access.
 */

export type ToolOptions = {
  /** How long a tool waits for a job it started before answering `pending` (ms). */
  waitMs: number;
};

const REVIEW = 'machine-generated, unreviewed';
const FINAL = new Set(['complete', 'insufficient', 'refused', 'failed']);

function ok(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

function fail(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Polls a job with growing pauses (0.5, 1, 2, 4 s…) until it ends or the wait is over; each poll is one REST request. */
async function waitForJob(rest: Rest, jobId: string, waitMs: number): Promise<RestAnswer | null> {
  const deadline = Date.now() + waitMs;
  let pause = 500;
  for (;;) {
    const a = await rest('GET', `/v1/reports/${encodeURIComponent(jobId)}`);
    if (a.status !== 200) return a;
    if (FINAL.has((a.body as { status: string }).status)) return a;
    if (Date.now() + pause > deadline) return null;
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 4000);
  }
}

type Envelope = { report_id: string; generated_at: string; stale: boolean; report: Report };
type Report = {
  subject: { subject_id: string; name: string; kind: string };
  method_version: string;
  scores: Record<string, { score: number; interval_80: number[]; n_resolved: number; confidence: { level: string; reasons: string } } | undefined>;
  featured_claims: Record<string, unknown>[];
  caveats: Record<string, unknown>[];
};

function fmt(e: { score: number; interval_80: number[]; n_resolved: number; confidence: { level: string } } | undefined): string {
  return e ? `${e.score} (80% range ${e.interval_80[0]}–${e.interval_80[1]}, ${e.n_resolved} resolved claims, confidence ${e.confidence.level})` : 'no resolved claims';
}

function reportResult(env: Envelope): CallToolResult {
  const r = env.report;
  const { overall, factual, promise, guidance, prediction } = r.scores;
  const lines = [
    `${r.subject.name} (${r.subject.kind}): overall reliability ${fmt(overall)}. [${REVIEW}]`,
    `Factual claims: ${fmt(factual)}.`,
    `Promises: ${fmt(promise)}.`,
    `Guidance: ${fmt(guidance)}.`,
    `Predictions: ${fmt(prediction)}.`,
    ...r.featured_claims.slice(0, 6).map((c) => `Featured (${String(c.outcome)}): "${String(c.quote)}" [claim ${String(c.claim_id)}]`),
    `Report ${env.report_id} of ${env.generated_at}${env.stale ? ' (stale: a refresh is running)' : ''}; method ${r.method_version}. Use get_evidence with subject_id ${r.subject.subject_id} and a claim_id for everything behind a claim.`,
  ];
  return ok(
    {
      status: 'complete', review_status: REVIEW, subject: r.subject, overall, scores: { factual, promise, guidance, prediction },
      featured_claims: r.featured_claims, caveats: r.caveats, report_id: env.report_id, generated_at: env.generated_at, stale: env.stale,
      method_version: r.method_version, message: lines[0]!,
    },
    lines.join('\n'),
  );
}

export function buildServer(rest: Rest, opts: ToolOptions): McpServer {
  const server = new McpServer({ name: 'reliability-scoring-service', version: '0.1' });

  server.registerTool(
    'lookup_reliability',
    {
      title: 'Look up reliability',
      description:
        'A subject\'s reliability report: the overall score first, then the scores for factual claims, promises, guidance and predictions, each with its 80% range and confidence, and featured claims. If the report is still being made, the answer says so; call again later with the same name to collect it. If the name matches several subjects, the candidates come back: call again with subject_id. Every score is machine-generated and unreviewed: say so when you show it.',
      inputSchema: LookupInput,
      outputSchema: LookupOutput,
    },
    async ({ name, topic, subject_id }) => {
      const body = { ...(subject_id ? { subject_id } : { name }), ...(topic ? { topic } : {}) };
      const a = await rest('POST', '/v1/reports', body);
      if (a.status === 200) return reportResult(a.body as Envelope);
      if (a.status === 409) {
        const candidates = ((a.body as { candidates?: unknown[] }).candidates ?? []) as { subject_id: string; name: string; kind: string; description: string | null }[];
        const message = `"${name}" matches ${candidates.length} subjects; call lookup_reliability again with the subject_id of the one you mean.`;
        return ok({ status: 'ambiguous', candidates, message }, [message, ...candidates.map((c) => `- ${c.subject_id}: ${c.name} (${c.kind}) ${c.description ?? ''}`)].join('\n'));
      }
      if (a.status !== 202) return fail(restError(a));
      const jobId = (a.body as { job_id: string }).job_id;
      const done = await waitForJob(rest, jobId, opts.waitMs);
      if (done && done.status !== 200) return fail(restError(done));
      const job = done?.body as { status: string; reason: string | null; report_id: string | null } | undefined;
      if (job?.status === 'complete' && job.report_id) {
        const stored = await rest('GET', `/v1/reports/${job.report_id}`);
        return stored.status === 200 ? reportResult(stored.body as Envelope) : fail(restError(stored));
      }
      if (job && FINAL.has(job.status)) return fail(`No report: the job ended ${job.status}. ${job.reason ?? ''}`);
      const message = `The report on "${name}" is being made (job ${jobId}); new subjects take minutes. Call lookup_reliability again later with the same name to collect it.`;
      return ok({ status: 'pending', job_id: jobId, message }, message);
    },
  );

  server.registerTool(
    'check_claims',
    {
      title: 'Check claims',
      description:
        'Outcomes and evidence for the checkable claims in a text, each with its fixed test and reasoning; no overall score. It runs as a job of up to a few minutes: when it is not done within this call, the answer gives a job_id; call check_claims again with that job_id (and any text) to collect it. Verdicts are machine-generated and unreviewed.',
      inputSchema: CheckInput,
      outputSchema: CheckOutput,
    },
    async ({ text, job_id }) => {
      let jobId = job_id;
      if (!jobId) {
        const a = await rest('POST', '/v1/check', { text });
        if (a.status !== 202) return fail(restError(a));
        jobId = (a.body as { job_id: string }).job_id;
      }
      const done = await waitForJob(rest, jobId, opts.waitMs);
      if (done && done.status !== 200) return fail(restError(done));
      const job = done?.body as { status: string; reason: string | null; results: Record<string, unknown>[] | null } | undefined;
      if (job?.status === 'complete') {
        const results = job.results ?? [];
        const lines = results.map((r) => `- "${String(r.text ?? r.quote ?? '')}": ${String(r.outcome)} (${String(r.claim_type)}). ${String(r.rationale ?? '')}`);
        const message = `${results.length} claims checked. [${REVIEW}]`;
        return ok({ status: 'complete', job_id: jobId, results, review_status: REVIEW, message }, [message, ...lines].join('\n'));
      }
      if (job && FINAL.has(job.status)) return fail(`The check ended ${job.status}. ${job.reason ?? ''}`);
      const message = `The check is running (job ${jobId}). Call check_claims again with job_id "${jobId}" to collect the outcomes.`;
      return ok({ status: 'pending', job_id: jobId, message }, message);
    },
  );

  server.registerTool(
    'get_evidence',
    {
      title: 'Get evidence',
      description: 'Everything behind one claim: its quote, source, fixed test, outcome with the reasoning, the evidence, and any reply from the subject. Machine-generated and unreviewed.',
      inputSchema: EvidenceInput,
      outputSchema: EvidenceOutput,
    },
    async ({ subject_id, claim_id }) => {
      // The claims list, a page at a time, until the claim turns up.
      for (let page = 1; page <= 50; page++) {
        const a = await rest('GET', `/v1/subjects/${encodeURIComponent(subject_id)}/claims?page=${page}&page_size=200`);
        if (a.status !== 200) return fail(restError(a));
        const body = a.body as { claims: Record<string, unknown>[]; paging: { total_pages: number } };
        const claim = body.claims.find((c) => c.claim_id === claim_id);
        if (claim) {
          const evidence = (claim.evidence as { publisher: string | null; published: string | null; quote: string; url: string; independent_of_subject: boolean }[]) ?? [];
          const responses = (claim.responses as { name: string; statement: string; status: string }[]) ?? [];
          const lines = [
            `"${String(claim.quote)}" (${String(claim.claim_type)}, said ${String(claim.said_on)}; source: ${(claim.source as { url: string }).url})`,
            `Fixed test: ${String(claim.resolution_criteria)}`,
            `Outcome: ${String(claim.outcome)} [${REVIEW}]. ${String(claim.rationale)}`,
            ...evidence.map((e) => `Evidence${e.independent_of_subject ? '' : ' (not independent of the subject)'}: ${e.publisher ?? ''} ${e.published ?? ''}: "${e.quote}" ${e.url}`),
            ...responses.map((r) => `Reply from ${r.name} (${r.status}): ${r.statement}`),
          ];
          return ok({ claim, review_status: REVIEW, message: lines[2]! }, lines.join('\n'));
        }
        if (page >= body.paging.total_pages) break;
      }
      return fail(`Not found: no claim ${claim_id} behind the latest report on ${subject_id}. Use lookup_reliability to see the subject's claims.`);
    },
  );

  return server;
}
