import { JobAcceptedSchema, ProblemSchema } from '../../core/schemas/common.ts';
import { ReportRequestSchema } from '../../core/schemas/requests.ts';
import { ClaimsPageSchema, JobPollSchema, StoredReportSchema } from '../../core/schemas/resources.ts';
import { ClaimsQuerySchema, ReportOrJobPathSchema, ReportPathSchema, SubjectPathSchema } from '../../core/schemas/queries.ts';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';
import { notBuilt } from './not-built.ts';

export function reportRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/reports',
      operationId: 'requestReport',
      summary: 'A subject\'s report: the stored one at once, or a job to poll',
      description:
        'A stored report under 90 days old is returned at once (200). Otherwise, or with `refresh: true`, a job starts (202) and counts against the key\'s daily job limit. A report 90 days old or more is returned with `stale: true` while one refresh job runs. A name that matches several subjects answers 409 with the candidates.',
      tags: ['reports'],
      auth: true,
      startsJobs: true,
      body: ReportRequestSchema,
      responses: {
        200: { description: 'The stored report.', schema: StoredReportSchema },
        202: { description: 'A job was started; poll it.', schema: JobAcceptedSchema },
        409: { description: 'The name matches more than one subject; `candidates` lists them. Resend with `subject_id`.', schema: ProblemSchema },
      },
      handler: notBuilt('Report requests', ctx),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:report_or_job_id',
      operationId: 'getReportOrJob',
      summary: 'Poll a job, or fetch a stored report',
      description: 'A job id gives the job\'s status and, once `complete`, its report. A report id gives the stored report envelope.',
      tags: ['reports'],
      auth: true,
      params: ReportOrJobPathSchema,
      responses: {
        200: { description: 'The job, or the stored report.', schema: z.union([JobPollSchema, StoredReportSchema]) },
        404: { description: 'No such job or report.' },
      },
      handler: notBuilt('Report and job polling'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/reports/:report_id/html',
      operationId: 'getReportHtml',
      summary: 'The report as a readable HTML page',
      tags: ['reports'],
      auth: true,
      params: ReportPathSchema,
      responses: {
        200: { description: 'The page.', contentType: 'text/html' },
        404: { description: 'No such report.' },
      },
      handler: notBuilt('Report pages'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/subjects/:subject_id/claims',
      operationId: 'listClaims',
      summary: 'Every claim behind the subject\'s latest report',
      tags: ['reports'],
      auth: true,
      params: SubjectPathSchema,
      query: ClaimsQuerySchema,
      responses: { 200: { description: 'A page of claims.', schema: ClaimsPageSchema }, 404: { description: 'No such subject, or no stored report.' } },
      handler: notBuilt('The claims list'),
    }),
  ];
}
