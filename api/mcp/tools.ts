import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { REVIEW_LABEL } from '../../core/method/outcomes.ts';
import { MIN_TYPE_RESOLVED } from '../../core/method/score.ts';
import { JobAcceptedSchema } from '../../core/schemas/common.ts';
import { ClaimsPageSchema, JobPollSchema, StoredReportSchema, SubjectCandidateSchema, type JobProgress } from '../../core/schemas/resources.ts';
import {
  CheckInputSchema,
  CheckOutputSchema,
  EvidenceInputSchema,
  EvidenceOutputSchema,
  LookupInputSchema,
  LookupOutputSchema,
  type CheckOutput,
  type EvidenceOutput,
  type LookupOutput,
} from './schemas.ts';
import { readAnswer, restError, unexpected, type Rest, type RestAnswer } from './rest.ts';

/**
 * The MCP server: three tools over the REST routes, and nothing else. A fresh
 * server is built per request (stateless), around the caller's own REST access.
 */

export type ToolOptions = {
  /** How long a tool waits for a job it started before answering `pending` (ms). */
  waitMs: number;
};

const FINAL = new Set(['complete', 'insufficient', 'refused', 'failed']);

type JobPoll = z.output<typeof JobPollSchema>;
type StoredReport = z.output<typeof StoredReportSchema>;

/**
 * A structured answer, parsed through the tool's output schema on its way
 * out: the schema the client is given is the one the answer is held to.
 * Parsing strips what the schema does not list; an answer it refuses is a
 * fault of the service, said so as a tool error rather than sent malformed.
 */
function ok<S extends z.ZodType>(schema: S, structured: z.input<S>, text: string): CallToolResult {
  const parsed = schema.safeParse(structured);
  if (!parsed.success) return fail(unexpected(parsed.error));
  return { structuredContent: parsed.data as Record<string, unknown>, content: [{ type: 'text', text }] };
}

function fail(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * Polls a job with growing pauses (0.5, 1, 2, 4 s…) until it ends or the wait
 * is over; each poll is one REST request. `done` is the final (or failed)
 * answer, null when the wait ran out; `progress` is where the job last said
 * it was.
 */
async function waitForJob(rest: Rest, jobId: string, waitMs: number): Promise<{ done: RestAnswer | null; progress: JobProgress | undefined }> {
  const deadline = Date.now() + waitMs;
  let pause = 500;
  for (;;) {
    const a = await rest('GET', `/v1/reports/${encodeURIComponent(jobId)}`);
    if (a.status !== 200) return { done: a, progress: undefined };
    if (FINAL.has((a.body as { status?: string }).status ?? '')) return { done: a, progress: undefined };
    if (Date.now() + pause > deadline) {
      const running = JobPollSchema.safeParse(a.body);
      return { done: null, progress: running.success ? running.data.progress : undefined };
    }
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(pause * 2, 4000);
  }
}

const STAGE_WORDS: Record<JobProgress['stage'], string> = {
  identify: 'identifying the subject',
  discover: 'finding the documents in which the subject speaks',
  extract: 'taking checkable claims from them',
  evidence: 'looking for evidence on each claim and judging it',
  judge: 'judging the last claims',
  score: 'scoring and storing the report',
};

/** Where a running job is, in words: its stage and counts so far (empty when the job has not said). */
export function progressWords(p: JobProgress | undefined): string {
  if (!p) return '';
  const counts = p.stage === 'identify' || p.stage === 'discover' ? '' : `: ${p.documents} documents read, ${p.claims_found} claims found, ${p.claims_judged} judged`;
  return ` It is at the ${p.stage} stage (${STAGE_WORDS[p.stage]})${counts}.`;
}

type Entry = { score: number; interval_80: readonly number[]; n_resolved: number; confidence: { level: string } } | undefined;

function fmt(e: Entry): string {
  return e ? `${e.score} (80% range ${e.interval_80[0]}–${e.interval_80[1]}, ${e.n_resolved} resolved claims, confidence ${e.confidence.level})` : `no score (fewer than ${MIN_TYPE_RESOLVED} resolved claims)`;
}

/**
 * What the report says about the topic asked for. POST /v1/reports may serve
 * a report made for another topic, or for none (it answers with the stored
 * report), so the tool says which claims the score covers, from the report's
 * own `topic_filter` caveat.
 */
function topicNote(asked: string | undefined, caveats: StoredReport['report']['caveats']): string | null {
  const filter = caveats.find((c) => c.code === 'topic_filter');
  if (filter) return asked ? `${filter.message} (You asked for the topic "${asked}".)` : filter.message;
  return asked ? `You asked for the topic "${asked}", but this report is not restricted to it: it scores claims under every topic.` : null;
}

/**
 * The report's review in words: a signed-off report says who signed it and
 * the machine's score beside the reviewed one; an unreviewed one keeps the
 * label and says how many of its claims a person has reviewed so far.
 */
function reviewWords(r: StoredReport['report']): string {
  const v = r.review;
  if (r.review_status === 'reviewed' && v.signed_off_by) {
    return `Reviewed: signed off by ${v.signed_off_by} on ${v.signed_off_at?.slice(0, 10)}, after ${v.claims_reviewed} of ${v.claims_total} claims were reviewed by a person; the score is recomputed with the reviewed outcomes (the machine's score was ${v.machine_score?.score ?? 'not kept'}).`;
  }
  return `Not yet reviewed (${r.review_status}): ${v.claims_reviewed} of ${v.claims_total} claims reviewed by a person so far.`;
}

/** A featured claim's or a claim's verdict with its own review status, so reviewed and machine verdicts never read alike. */
function verdictWords(outcome: string, status: string, reviewer?: string | null): string {
  return status === 'reviewed' ? `${outcome}, reviewed by ${reviewer ?? 'a person'}` : `${outcome}, ${status}`;
}

function reportResult(env: StoredReport, topic: string | undefined): CallToolResult {
  const r = env.report;
  const { overall, factual, promise, guidance, prediction } = r.scores;
  const note = topicNote(topic, r.caveats);
  const headline = `${r.subject.name} (${r.subject.kind}): overall reliability ${fmt(overall)}. [${r.review_status}]`;
  const lines = [
    headline,
    reviewWords(r),
    `Factual claims: ${fmt(factual)}.`,
    `Promises: ${fmt(promise)}.`,
    `Guidance: ${fmt(guidance)}.`,
    `Predictions: ${fmt(prediction)}.`,
    ...(note ? [note] : []),
    ...r.featured_claims.slice(0, 6).map((c) => `Featured (${r.review_status === 'reviewed' ? verdictWords(c.outcome, 'reviewed') : c.outcome}): "${c.quote}" [claim ${c.claim_id}]`),
    `Report ${env.report_id} of ${env.generated_at}${env.stale ? ' (stale: a refresh is running)' : ''}; method ${r.method_version}. Use get_evidence with subject_id ${r.subject.subject_id} and a claim_id for everything behind a claim.`,
  ];
  const out: LookupOutput = {
    status: 'complete',
    message: note ? `${headline} ${note}` : headline,
    review_status: r.review_status,
    review: r.review,
    subject: r.subject,
    overall,
    // Only the types the report has: a type with no resolved claim stays absent, as in the report.
    scores: Object.fromEntries(Object.entries({ factual, promise, guidance, prediction }).filter(([, e]) => e !== undefined)),
    featured_claims: r.featured_claims,
    caveats: r.caveats,
    method_version: r.method_version,
    report_id: env.report_id,
    generated_at: env.generated_at,
    stale: env.stale,
    html_url: env.html_url,
  };
  return ok(LookupOutputSchema, out, lines.join('\n'));
}

const LOOKUP_DESCRIPTION = [
  'A subject\'s reliability report: the overall score first, then the scores for factual claims, promises, guidance and predictions, each with its 80% range and confidence, and featured claims.',
  'Name the subject by name, or by subject_id (which wins when both are sent); topic restricts the score to claims under one broad topic.',
  'If the report is still being made, the answer says so (status pending): call again later with the same arguments to collect it. If the name matches several subjects (status ambiguous), call again with the subject_id of one of the candidates.',
  'A name the service has never seen is identified and researched (new subjects take minutes). A subject with too few resolved claims, or a name that cannot be identified, gets no score (status insufficient), and the rules forbid reports on serving politicians and on private persons (status refused); the reason says which.',
  'Every score is machine-generated and unreviewed until a reviewer signs the report off (review_status reviewed): show review_status with it, and say which it is.',
].join(' ');

const CHECK_DESCRIPTION = [
  'Outcomes and evidence for the checkable claims in a text, each with its fixed test and reasoning; no overall score.',
  'Send text to start a check. It runs as a job of up to a few minutes: when it is not done within this call, the answer gives a job_id; call check_claims again with that job_id alone to collect it.',
  'Verdicts are machine-generated and unreviewed.',
].join(' ');

export function buildServer(rest: Rest, opts: ToolOptions): McpServer {
  const server = new McpServer({ name: 'reliability-scoring-service', version: '0.1' });

  server.registerTool(
    'lookup_reliability',
    { title: 'Look up reliability', description: LOOKUP_DESCRIPTION, inputSchema: LookupInputSchema, outputSchema: LookupOutputSchema },
    async ({ name, subject_id, topic }) => {
      if (!name && !subject_id) return fail('Say who: send name (a person, organisation or outlet), or the subject_id of a known subject.');
      const who = subject_id ? `subject ${subject_id}` : `"${name}"`;
      const again = `Call lookup_reliability again later with the same ${subject_id ? 'subject_id' : 'name'}${topic ? ' and topic' : ''} to collect it.`;
      const a = await rest('POST', '/v1/reports', { ...(subject_id ? { subject_id } : { name }), ...(topic ? { topic } : {}) });
      if (a.status === 200) {
        const env = readAnswer(StoredReportSchema, a);
        return env.ok ? reportResult(env.data, topic) : fail(env.error);
      }
      if (a.status === 409) {
        const problem = readAnswer(z.object({ candidates: z.array(SubjectCandidateSchema) }), a);
        if (!problem.ok) return fail(problem.error);
        const { candidates } = problem.data;
        const message = `${who} matches ${candidates.length} subjects; call lookup_reliability again with the subject_id of the one you mean.`;
        const lines = [message, ...candidates.map((c) => `- ${c.subject_id}: ${c.name} (${c.kind})${c.description ? ` ${c.description}` : ''}`)];
        return ok(LookupOutputSchema, { status: 'ambiguous', candidates, message }, lines.join('\n'));
      }
      if (a.status !== 202) return fail(restError(a));
      const accepted = readAnswer(JobAcceptedSchema, a);
      if (!accepted.ok) return fail(accepted.error);
      const jobId = accepted.data.job_id;
      const { done, progress } = await waitForJob(rest, jobId, opts.waitMs);
      if (done && done.status !== 200) return fail(restError(done));
      const job = done ? readAnswer(JobPollSchema, done) : null;
      if (job && !job.ok) return fail(job.error);
      const ended: JobPoll | undefined = job?.data;
      if (ended?.status === 'complete' && ended.report_id) {
        const stored = await rest('GET', `/v1/reports/${encodeURIComponent(ended.report_id)}`);
        if (stored.status !== 200) return fail(restError(stored));
        const env = readAnswer(StoredReportSchema, stored);
        return env.ok ? reportResult(env.data, topic) : fail(env.error);
      }
      if (ended?.status === 'insufficient' || ended?.status === 'refused') {
        const reason = ended.reason ?? 'no reason recorded';
        // The reason says why: too few resolved claims, a name that could not be identified, or the rule that refuses it.
        const found = ended.claims ? ` It found ${ended.claims.length} claim${ended.claims.length === 1 ? '' : 's'}, given in claims with their verdicts (no score).` : '';
        const message = `No report on ${who}: ${ended.status}. ${reason}${found}`;
        return ok(LookupOutputSchema, { status: ended.status, job_id: jobId, reason, message, ...(ended.claims ? { claims: ended.claims } : {}) }, message);
      }
      if (ended) return fail(`No report on ${who}: the job ${jobId} ended ${ended.status}. ${ended.reason ?? ''} Try again later.`);
      const message = `The report on ${who} is being made (job ${jobId}); new subjects take minutes.${progressWords(progress)} ${again}`;
      return ok(LookupOutputSchema, { status: 'pending', job_id: jobId, message, ...(progress ? { progress } : {}) }, message);
    },
  );

  server.registerTool(
    'check_claims',
    { title: 'Check claims', description: CHECK_DESCRIPTION, inputSchema: CheckInputSchema, outputSchema: CheckOutputSchema },
    async ({ text, job_id }) => {
      if (text && job_id) return fail('Send either text (to start a new check) or job_id (to collect a check started earlier), not both.');
      if (!text && !job_id) return fail('Send text (the text whose claims to check) to start a check, or job_id to collect a check started earlier.');
      let jobId = job_id;
      if (!jobId) {
        const a = await rest('POST', '/v1/check', { text });
        if (a.status !== 202) return fail(restError(a));
        const accepted = readAnswer(JobAcceptedSchema, a);
        if (!accepted.ok) return fail(accepted.error);
        jobId = accepted.data.job_id;
      }
      const { done, progress } = await waitForJob(rest, jobId, opts.waitMs);
      if (done && done.status !== 200) return fail(restError(done));
      const job = done ? readAnswer(JobPollSchema, done) : null;
      if (job && !job.ok) return fail(job.error);
      const ended: JobPoll | undefined = job?.data;
      if (ended && ended.kind !== 'check') return fail(`Job ${jobId} makes a report, not a check: collect it with lookup_reliability.`);
      if (ended?.status === 'complete') {
        const results = ended.results ?? [];
        const lines = results.map((r) => `- "${r.text}": ${r.outcome} (${r.claim_type}). ${r.rationale}`);
        const message = `${results.length} claims checked. [${REVIEW_LABEL}]`;
        const out: CheckOutput = { status: 'complete', job_id: jobId, results, review_status: REVIEW_LABEL, message };
        return ok(CheckOutputSchema, out, [message, ...lines].join('\n'));
      }
      if (ended?.status === 'insufficient') {
        const reason = ended.reason ?? 'no reason recorded';
        const message = `No claim checked: ${reason}`;
        return ok(CheckOutputSchema, { status: 'insufficient', job_id: jobId, reason, message }, message);
      }
      if (ended) return fail(`The check ended ${ended.status}. ${ended.reason ?? ''}`);
      const message = `The check is running (job ${jobId}).${progressWords(progress)} Call check_claims again with job_id "${jobId}" (and no text) to collect the outcomes.`;
      return ok(CheckOutputSchema, { status: 'pending', job_id: jobId, message, ...(progress ? { progress } : {}) }, message);
    },
  );

  server.registerTool(
    'get_evidence',
    {
      title: 'Get evidence',
      description: 'Everything behind one claim: its quote, source, fixed test, outcome with the reasoning, the evidence, and any reply from the subject (with a reviewer\'s decision on it, once there is one). The outcome is machine-generated and unreviewed unless review_status is reviewed: then it is a reviewer\'s, with the machine\'s verdict kept in machine_verdict. Show review_status with it.',
      inputSchema: EvidenceInputSchema,
      outputSchema: EvidenceOutputSchema,
    },
    async ({ subject_id, claim_id }) => {
      // The claims list, a page at a time, until the claim turns up.
      for (let page = 1; page <= 50; page++) {
        const a = await rest('GET', `/v1/subjects/${encodeURIComponent(subject_id)}/claims?page=${page}&page_size=200`);
        if (a.status !== 200) return fail(restError(a));
        const read = readAnswer(ClaimsPageSchema, a);
        if (!read.ok) return fail(read.error);
        const body = read.data;
        const claim = body.claims.find((c) => c.claim_id === claim_id);
        if (claim) {
          const lines = [
            `"${claim.quote}" (${claim.claim_type}, said ${claim.said_on ?? 'on an unknown date'}; source: ${claim.source.url})`,
            `Fixed test: ${claim.resolution_criteria}`,
            claim.review_status === 'reviewed'
              ? `Outcome: ${claim.outcome} [reviewed: ${claim.review.decision} by ${claim.review.reviewer} on ${claim.review.reviewed_at?.slice(0, 10)}; the machine said ${claim.machine_verdict.outcome}]. ${claim.rationale}`
              : `Outcome: ${claim.outcome} [${claim.review_status}]${claim.review.lapsed ? ` (${claim.review.lapsed.reason})` : ''}. ${claim.rationale}`,
            ...claim.evidence.map((e) => `Evidence${e.independent_of_subject ? '' : ' (not independent of the subject)'}: ${e.publisher ?? ''} ${e.published ?? ''}: "${e.quote}" ${e.url}`),
            ...claim.responses.map((r) => `Reply from ${r.name}${r.role ? ` (${r.role})` : ''}, ${r.status}: ${r.statement}${r.counter_evidence_url ? ` Counter-evidence: ${r.counter_evidence_url}` : ''}${r.review ? ` Reviewer's note (${r.review.reviewer}): ${r.review.note}` : ''}`),
          ];
          const out: EvidenceOutput = { subject_id: body.subject_id, report_id: body.report_id, claim, review_status: claim.review_status, message: lines[2]! };
          return ok(EvidenceOutputSchema, out, lines.join('\n'));
        }
        if (page >= body.paging.total_pages) break;
      }
      return fail(`Not found: no claim ${claim_id} behind the latest report on ${subject_id}. Use lookup_reliability to see the subject's claims.`);
    },
  );

  return server;
}
