import { JobAcceptedSchema } from '../../core/schemas/common.ts';
import { CheckRequestSchema, ResponseRequestSchema } from '../../core/schemas/requests.ts';
import { ResponseAckSchema } from '../../core/schemas/resources.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';
import { notBuilt } from './not-built.ts';

export function checkRoutes(ctx: AppContext) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/check',
      operationId: 'checkClaims',
      summary: 'Check claims or a block of text: per-claim outcomes, no score',
      description: 'Runs as a job (202; poll `/v1/reports/<job_id>`) and counts against the key\'s daily job limit. The submitted text is deleted when the job ends, however it ends.',
      tags: ['check'],
      auth: true,
      startsJobs: true,
      body: CheckRequestSchema,
      responses: { 202: { description: 'The check job was started.', schema: JobAcceptedSchema } },
      handler: notBuilt('Checking', ctx),
    }),
    defineRoute({
      method: 'POST',
      url: '/v1/responses',
      operationId: 'postResponse',
      summary: 'A subject\'s reply or correction to a claim',
      description: 'Stored against the claim and shown on it as \'response received, not yet reviewed\'.',
      tags: ['responses'],
      auth: true,
      body: ResponseRequestSchema,
      responses: { 200: { description: 'The reply was stored.', schema: ResponseAckSchema }, 404: { description: 'No such claim.' } },
      handler: notBuilt('Responses'),
    }),
  ];
}
