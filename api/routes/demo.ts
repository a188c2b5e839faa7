import { DemoSchema } from '../../core/schemas/resources.ts';
import type { AppContext } from '../context.ts';
import { defineRoute } from '../route.ts';
import { notBuilt } from './not-built.ts';

export function demoRoutes(_ctx: AppContext) {
  return [
    defineRoute({
      method: 'GET',
      url: '/v1/demo',
      operationId: 'getDemo',
      summary: 'Machine verdicts beside outcomes published by others',
      description: 'Demo subjects, each claim\'s machine verdict beside the published outcome, and agreement per set. Agreement is not accuracy.',
      tags: ['publishing'],
      auth: true,
      responses: { 200: { description: 'The demo sets.', schema: DemoSchema } },
      handler: notBuilt('The demo sets'),
    }),
  ];
}
