import { LabelRequestSchema } from '../../core/schemas/requests.ts';
import { LabelAckSchema, LabelListSchema, LabelQueueSchema } from '../../core/schemas/resources.ts';
import { LabelQueueQuerySchema, LabelsQuerySchema } from '../../core/schemas/queries.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';
import { notBuilt } from './not-built.ts';

export function labelRoutes(_ctx: AppContext) {
  return [
    defineRoute({
      method: 'POST',
      url: '/v1/labels',
      operationId: 'postLabel',
      summary: 'Record your verdict on a claim',
      description: 'One verdict per key and claim; a second one replaces the first. The answer reveals the machine verdict and, for demo subjects, the published outcome.',
      tags: ['labels'],
      auth: true,
      body: LabelRequestSchema,
      responses: { 200: { description: 'The label was stored.', schema: LabelAckSchema }, 404: { description: 'No such claim.' } },
      handler: notBuilt('Labelling'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/labels',
      operationId: 'listLabels',
      summary: 'The labels made with your key',
      tags: ['labels'],
      auth: true,
      query: LabelsQuerySchema,
      responses: { 200: { description: 'Your labels, as JSON or CSV (`format`).', schema: LabelListSchema } },
      handler: notBuilt('The label list'),
    }),
    defineRoute({
      method: 'GET',
      url: '/v1/labels/claims',
      operationId: 'labelQueue',
      summary: 'The blind labelling queue for one subject',
      description: 'A claim\'s machine verdict and rationale are withheld until you have labelled it.',
      tags: ['labels'],
      auth: true,
      query: LabelQueueQuerySchema,
      responses: { 200: { description: 'The subject\'s researched claims.', schema: LabelQueueSchema }, 404: { description: 'No such subject.' } },
      handler: notBuilt('The label queue'),
    }),
  ];
}
