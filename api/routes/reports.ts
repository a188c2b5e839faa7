import { z } from 'zod';
import { NotFoundError } from '../../core/errors.ts';
import { JobAcceptedSchema, ProblemSchema } from '../../core/schemas/common.ts';
import { ReportRequestSchema } from '../../core/schemas/requests.ts';
import { TOPIC_RULE } from '../../core/schemas/topic.ts';
import { exampleOf } from '../../core/schemas/examples.ts';
import { ClaimsPageSchema, JobPollSchema, StoredReportSchema } from '../../core/schemas/resources.ts';
import { ClaimsQuerySchema, ReportOrJobPathSchema, SubjectPathSchema } from '../../core/schemas/queries.ts';
import { claimsPage } from '../../core/reports/read.ts';
import { latestReport } from '../../core/reports/repository.ts';
import { poll } from '../../core/reports/poll.ts';
import { requestReport } from '../../core/reports/service.ts';
import type { RouteContext } from '../context.ts';
import { defineRoute } from '../route.ts';

export function reportRoutes(ctx: RouteContext) {
  const deps = {
    pool: ctx.pool,
    reports: ctx.reports,
    knowledge: ctx.knowledge,
    enqueue: ctx.enqueue,
    limits: { dailyJobLimit: ctx.config.dailyJobLimit, dailySpendLimitUsd: ctx.config.dailySpendLimitUsd },
    // With a model, a name nothing knows is identified by a job instead of a 404.
    identifies: ctx.identify !== undefined,
  };
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/reports',
      operationId: 'requestReport',
      summary: 'A subject\'s report: the stored one at once, or a job to poll',
      description: [
        'Name the subject by `subject_id` (from resolve), or by `name` (with `kind` to tell namesakes apart).',
        '- A stored report under 90 days old: 200 with it at once (`refresh: true` starts a new job instead).',
        '- No stored report: 202 with a job to poll at `/v1/reports/<job_id>`; it counts against the key\'s daily job limit (429 past it) and the spending ceiling (503 past it).',
        '- A stored report 90 days old or more: 200 with it, `stale: true`, while one refresh job runs (the service\'s own: it counts against no key).',
        '- Callers asking for the same subject and topic while a job is open share that job (202 with its id and current status).',
        '- `topic` makes the request one for a topic report: every step above is taken on the reports of that topic only (a fresh one comes back at once, otherwise a job makes one), and a request without `topic` only ever gets a report on the whole record. A topic report is stored under its topic (the envelope\'s `topic`) and never becomes the subject\'s latest report (the subject list, the claims list, the export\'s whole-record rows and the site\'s headline scores stay on the whole record). A topic outside the method\'s topics gets 422 listing them.',
        '- A name that matches several subjects: 409 with `candidates`; resend with `subject_id`. An unknown `subject_id`: 404.',
        '- A name the service has never seen: with a model configured (MODEL_PROVIDER), 202 with a job whose first stage, `identify`, identifies the name (the source packs and, when configured, Wikidata first; then a short model call), checks it against the rules and stores it as a subject; then it is researched like any subject (on the web, through search and the safe fetcher, when a search provider is configured). A name that cannot be identified ends the job `insufficient` with the reason; a model that fails ends it `failed` after its retries, with nothing stored. Callers asking for the same new name, kind and topic meanwhile share the job. Without a model: 404, whose `detail` says how to add the subject (a source pack) or configure a model. `urls` and `handles` are identifiers only: matched against known subjects\' sites and handles, and named to the model; never fetched.',
        '- A serving politician, or a person who is not a public figure sent without `consent_ref`: the job ends `refused` with the reason.',
        '`depth`: `quick` (default) reads up to 40 of the subject\'s most recent statement documents and keeps up to 5 pieces of evidence a claim; `standard` reads up to 150 and keeps up to 8. `topic`: ' + TOPIC_RULE + ' Only the claims filed under it are scored.',
      ].join('\n'),
      tags: ['reports'],
      auth: true,
      startsJobs: true,
      body: ReportRequestSchema,
      responses: {
        200: { description: 'The stored report.', schema: StoredReportSchema },
        202: { description: 'A job was started, or an open one joined; poll it.', schema: JobAcceptedSchema },
        404: { description: 'No subject with this `subject_id`; or, with no model configured, no subject by this name (the `detail` says how to add one).', schema: ProblemSchema },
        409: { description: 'The name matches more than one subject; `candidates` lists them. Resend with `subject_id`.', schema: ProblemSchema },
      },
      handler: async (req, reply, { body }) => {
        const answer = await requestReport(deps, req.apiKey!.id, body);
        reply.code(answer.status);
        return answer.body;
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:report_or_job_id',
      operationId: 'getReportOrJob',
      summary: 'Poll a job, or fetch a stored report',
      description:
        'A job id gives the job: `queued` → `running` → one of the final statuses `complete`, `insufficient`, `refused`, `failed` (the last three carry a `reason`); once `complete`, a report job carries `report_id` and `report`. While a report job is `running`, it carries `progress`: its stage (`identify`, `discover`, `extract`, `evidence`, `judge`, `score`) and its counts so far (`documents`, `claims_found`, `claims_judged`), which never go down; `progress` is absent once the job has ended. A job is visible only to the keys that asked for it. A report id gives the stored report envelope.',
      tags: ['reports'],
      auth: true,
      params: ReportOrJobPathSchema,
      responses: {
        200: { description: 'The job, or the stored report.', schema: z.union([JobPollSchema, StoredReportSchema]), example: exampleOf(JobPollSchema) },
        404: { description: 'No such job (for this key) or report.' },
      },
      handler: async (req, _reply, { params }) => poll(ctx.pool, params.report_or_job_id, req.apiKey!.id, ctx.reports),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/subjects/:subject_id/claims',
      operationId: 'listClaims',
      summary: 'Every claim behind the subject\'s latest report',
      description:
        'The subject\'s latest report on its whole record (a report on one topic never stands here). Claims in the report\'s order (newest said first), filtered by `claim_type` (or its synonym `type`), `topic` and `outcome`, paged by `page` (from 1) and `page_size` (1 to 200, default 50). The envelope carries `paging: {page, page_size, total, total_pages}`; a page past the last is empty, not an error.',
      tags: ['reports'],
      auth: true,
      params: SubjectPathSchema,
      query: ClaimsQuerySchema,
      responses: { 200: { description: 'A page of claims.', schema: ClaimsPageSchema }, 404: { description: 'No such subject, or no stored report.' } },
      handler: async (_req, _reply, { params, query }) => {
        const report = await latestReport(ctx.pool, params.subject_id);
        if (!report) throw new NotFoundError(`No stored report for subject ${params.subject_id}. Ask for one with POST /v1/reports.`);
        const page = await claimsPage(ctx.pool, report.id, { claim_type: query.claim_type ?? query.type, topic: query.topic, outcome: query.outcome }, query.page, query.page_size);
        return { subject_id: params.subject_id, report_id: report.id, ...page };
      },
    }),
  ];
}
